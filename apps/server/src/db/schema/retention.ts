// How long readings stay, legal holds, what was removed, storage figures (modules/retention, modules/storage).
import { boolean, index, integer, date, pgTable, primaryKey, text, timestamp, uuid, bigint } from 'drizzle-orm/pg-core';
import { orgs, users } from './org.ts';

/**
 * How long an organisation keeps its readings (issue 24, retention). Each part either inherits
 * from the parent organisation (`*Inherit`) or sets a number of days, null meaning forever:
 * `rows` is how long reading rows stay before only their day's pack remains (only rows a fresh
 * pack holds are ever removed), `packs` how long the packs (and with them the readings) stay.
 * Organisations without a row inherit everything. On the platform organisation the row is the
 * default of the whole tree, and `packsFloorDays` the floor no organisation may go below.
 */
export const retentionRules = pgTable('retention_rules', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  rowsInherit: boolean('rows_inherit').notNull().default(true),
  rowsDays: integer('rows_days'),
  packsInherit: boolean('packs_inherit').notNull().default(true),
  packsDays: integer('packs_days'),
  /** Platform organisation only: the fewest days any organisation may keep packs (null: no floor). */
  packsFloorDays: integer('packs_floor_days'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

/**
 * A legal hold: while it is not released, nothing of its subject is removed by retention (an
 * organisation: every device of it and of its sub-organisations; a device; a transport task: its
 * devices over the task's time).
 */
export const legalHolds = pgTable(
  'legal_holds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The organisation the hold was placed in (whose users see and release it). */
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    subjectKind: text('subject_kind', { enum: ['org', 'device', 'task'] }).notNull(),
    subjectId: uuid('subject_id').notNull(),
    reason: text('reason').notNull(),
    placedAt: timestamp('placed_at', { withTimezone: true }).notNull().defaultNow(),
    placedBy: uuid('placed_by').references(() => users.id, { onDelete: 'set null' }),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    releasedBy: uuid('released_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('legal_holds_org_idx').on(t.orgId, t.placedAt), index('legal_holds_subject_idx').on(t.subjectKind, t.subjectId)],
);

/**
 * What retention removed, one row per device and run: `rows` (reading rows whose pack holds them:
 * nothing is lost) or `packs` (the readings themselves). `policy` says which rule, in words kept
 * as they were on the day; the ledger's record checks answer "removed under policy X on date Y"
 * for the readings in [fromTime, toTime) received in [receivedFrom, receivedTo].
 */
export const retentionRemovals = pgTable(
  'retention_removals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull(),
    /** The device row id (no foreign key: the record outlives a deleted device). */
    deviceRef: uuid('device_ref').notNull(),
    what: text('what', { enum: ['rows', 'packs'] }).notNull(),
    fromTime: timestamp('from_time', { withTimezone: true }).notNull(),
    toTime: timestamp('to_time', { withTimezone: true }).notNull(),
    receivedFrom: timestamp('received_from', { withTimezone: true }),
    receivedTo: timestamp('received_to', { withTimezone: true }),
    readings: bigint('readings', { mode: 'number' }).notNull(),
    /** The organisation whose rule applied, and the rule in words (e.g. "packs kept 1825 days"). */
    policyOrgId: uuid('policy_org_id'),
    policy: text('policy').notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }).notNull().defaultNow(),
    /** The ledger leaf that logs this removal (packs only), once appended. */
    ledgerIndex: bigint('ledger_index', { mode: 'number' }),
  },
  (t) => [index('retention_removals_device_idx').on(t.deviceRef, t.fromTime), index('retention_removals_org_idx').on(t.orgId, t.removedAt)],
);

/**
 * Storage per organisation and day (UTC), taken by the storage job: readings still as rows and
 * readings in packs, with their bytes (rows: the organisation's share of the readings table's
 * size; packs: the packs' own bytes). Growth per day and the days left come from these.
 */
export const storageDaily = pgTable(
  'storage_daily',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    rowReadings: bigint('row_readings', { mode: 'number' }).notNull(),
    rowBytes: bigint('row_bytes', { mode: 'number' }).notNull(),
    packedReadings: bigint('packed_readings', { mode: 'number' }).notNull(),
    packs: bigint('packs', { mode: 'number' }).notNull(),
    packBytes: bigint('pack_bytes', { mode: 'number' }).notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'storage_daily_pk', columns: [t.orgId, t.day] })],
);
