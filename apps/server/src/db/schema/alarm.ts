// Alarm levels, policies, rule states, alarms and their push: rules, escalations, deliveries (modules/alarm).
import { sql } from 'drizzle-orm';
import { bigserial, doublePrecision, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, eventTimeline } from './columns.ts';
import { orgs, users } from './org.ts';
import { devices, assets } from './device.ts';
import { transportTasks } from './transport.ts';

/** Alarm levels of an organisation (every organisation starts with four; see db/org-defaults.ts). */
export const alarmLevels = pgTable(
  'alarm_levels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    nameZh: text('name_zh').notNull(),
    nameEn: text('name_en').notNull(),
    color: text('color').notNull(),
    priority: integer('priority').notNull(),
    sound: boolean('sound').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('alarm_levels_org_code_uq').on(t.orgId, t.code)],
);

/**
 * What is abnormal for the devices of an organisation tree: rules (alarm.ts `ruleSchema`) kept
 * as JSON, scoped to all devices, named devices, assets or asset kinds (`targets`).
 */
export const alarmPolicies = pgTable(
  'alarm_policies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    scope: text('scope', { enum: ['all', 'devices', 'assets', 'asset_kinds'] }).notNull(),
    targets: jsonb('targets').notNull().$type<string[]>(),
    rules: jsonb('rules').notNull(),
    /** Set on the policy a transport task runs while in transit (kept by the task, not shown among the policies). */
    taskId: uuid('task_id').references((): AnyPgColumn => transportTasks.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alarm_policies_org_idx').on(t.orgId)],
);

/**
 * The engine's memory of one rule on one device while its condition holds (pending, or active
 * with its open alarm); no row means idle. In the database so that it survives a restart and
 * several server processes share it.
 */
export const alarmRuleStates = pgTable(
  'alarm_rule_states',
  {
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    policyId: uuid('policy_id')
      .notNull()
      .references(() => alarmPolicies.id, { onDelete: 'cascade' }),
    ruleId: text('rule_id').notNull(),
    phase: text('phase', { enum: ['pending', 'active'] }).notNull(),
    since: timestamp('since', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    peak: doublePrecision('peak'),
    alarmId: uuid('alarm_id'),
  },
  (t) => [primaryKey({ name: 'alarm_rule_states_pk', columns: [t.deviceRef, t.policyId, t.ruleId] })],
);

/** One contributor of an alarm (times as ISO strings). */
export interface AlarmSourceJson {
  policyId: string | null;
  policyName: string;
  taskId: string | null;
  ruleId: string;
  levelId: string;
  openedAt: string;
  clearedAt: string | null;
}

/** Alarm records: one per device and condition (alarm type) while some rule sees it. */
export const alarms = pgTable(
  'alarms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull(),
    policyId: uuid('policy_id').references(() => alarmPolicies.id, { onDelete: 'set null' }),
    policyName: text('policy_name').notNull(),
    ruleId: text('rule_id').notNull(),
    type: text('type').notNull(),
    levelId: uuid('level_id')
      .notNull()
      .references(() => alarmLevels.id),
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    assetRef: uuid('asset_ref').references(() => assets.id, { onDelete: 'set null' }),
    taskId: uuid('task_id'),
    status: text('status', { enum: ['active', 'cleared', 'closed'] }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    threshold: doublePrecision('threshold').notNull(),
    value: doublePrecision('value'),
    peak: doublePrecision('peak'),
    count: integer('count').notNull().default(1),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: text('acknowledged_by'),
    closedBy: text('closed_by'),
    closeReason: text('close_reason'),
    /** Who handles it (a user of the organisation tree). */
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The rules behind it (shared alarm.ts `AlarmSource`): every rule that saw the same condition
     * (same type) on the device while it was open joined it; it clears when all of them have.
     */
    sources: jsonb('sources').notNull().default(sql`'[]'::jsonb`).$type<AlarmSourceJson[]>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('alarms_org_started_idx').on(t.orgId, t.startedAt),
    index('alarms_device_started_idx').on(t.deviceRef, t.startedAt),
    index('alarms_active_idx').on(t.orgId).where(sql`status = 'active'`),
    index('alarms_level_idx').on(t.levelId),
  ],
);

/** Each alarm's story (created, acknowledged, cleared, closed, ...): appended, never changed. */
export const alarmEvents = eventTimeline('alarm_events', { key: 'alarmId', column: 'alarm_id', references: () => alarms.id }, { index: 'alarm_events_alarm_idx', by: 'at' });

/**
 * Push rules (alarm-push.ts `pushRuleBodySchema`): which alarms of the organisation tree notify
 * whom, over which channels, in which language, and the escalation steps (kept as JSON, webhook
 * secrets included: the dispatcher signs with them). A transport task keeps one of its own
 * (task_id set, transport/task-policy.ts).
 */
export const pushRules = pgTable(
  'push_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    match: jsonb('match').notNull(),
    events: jsonb('events').notNull().$type<string[]>(),
    language: text('language', { enum: ['zh', 'en'] }).notNull(),
    timezone: text('timezone').notNull(),
    templates: jsonb('templates').notNull(),
    steps: jsonb('steps').notNull(),
    /** Quiet hours (HH:mm, in `timezone`): e-mail, SMS and webhook deliveries due then wait until they end. */
    quietFrom: text('quiet_from'),
    quietTo: text('quiet_to'),
    /** Digest: e-mail and SMS go out at most once per this many minutes per recipient and channel, listing the alarms. */
    digestMinutes: integer('digest_minutes'),
    /** Set on the rule that pushes a transport task's alarms to its recipients (kept by the task, not shown among the rules). */
    taskId: uuid('task_id').references((): AnyPgColumn => transportTasks.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('push_rules_org_idx').on(t.orgId), uniqueIndex('push_rules_task_uq').on(t.taskId)],
);

/**
 * Where a rule's escalation of one alarm stands: how many steps were sent, how often the last one
 * repeated, when the next is due; done once the alarm is acknowledged, cleared or closed, or the
 * steps ran out. Belongs to the rule's organisation.
 */
export const pushEscalations = pgTable(
  'push_escalations',
  {
    alarmId: uuid('alarm_id')
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => pushRules.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** When the push began: the steps' delays count from here. */
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    firedSteps: integer('fired_steps').notNull().default(0),
    repeats: integer('repeats').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }),
    done: boolean('done').notNull().default(false),
    /** The cleared notice went out (at most once). */
    clearedSent: boolean('cleared_sent').notNull().default(false),
  },
  (t) => [primaryKey({ name: 'push_escalations_pk', columns: [t.alarmId, t.ruleId] }), index('push_escalations_due_idx').on(t.nextAt).where(sql`not done`)],
);

/**
 * The delivery log: one row per alarm, rule, event, step (and repeat), channel and target, with
 * its status, attempts and next attempt; each attempt in `delivery_attempts`. Belongs to the
 * rule's organisation.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    alarmId: uuid('alarm_id')
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id').references(() => pushRules.id, { onDelete: 'set null' }),
    ruleName: text('rule_name').notNull(),
    event: text('event', { enum: ['opened', 'cleared'] }).notNull(),
    step: integer('step').notNull(),
    round: integer('round').notNull().default(0),
    channel: text('channel', { enum: ['in_app', 'email', 'sms', 'webhook'] }).notNull(),
    target: text('target').notNull(),
    /** Who it reaches on the channel (e-mail lower-cased): one message per alarm, event, round, channel and recipient whatever the rules. Null on rows older than the guard. */
    recipient: text('recipient'),
    /** Waits for its rule's digest: sent together with the recipient's other digest deliveries due. */
    digest: boolean('digest').notNull().default(false),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Webhooks: the signing key at the time the step fired (never read back by the API). */
    secret: text('secret'),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'outbox'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** Pending: when it is due (or, while a node sends it, when that claim lapses). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    responseCode: integer('response_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('deliveries_once_uq').on(t.alarmId, t.ruleId, t.event, t.step, t.round, t.channel, t.target),
    uniqueIndex('deliveries_recipient_uq').on(t.alarmId, t.event, t.round, t.channel, t.recipient),
    index('deliveries_org_created_idx').on(t.orgId, t.createdAt),
    index('deliveries_alarm_idx').on(t.alarmId, t.createdAt),
    index('deliveries_user_idx').on(t.userId, t.createdAt),
    index('deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);

/** Every attempt of a delivery, with its result: appended, never changed. */
export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['sent', 'failed', 'outbox'] }).notNull(),
    responseCode: integer('response_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    resend: boolean('resend').notNull().default(false),
  },
  (t) => [index('delivery_attempts_delivery_idx').on(t.deliveryId, t.id)],
);
