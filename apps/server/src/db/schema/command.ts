// Remote control: commands to devices and their stories (modules/command).
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, eventTimeline } from './columns.ts';
import { orgs, users } from './org.ts';
import { devices } from './device.ts';

/** Commands to devices: requested, reviewed, sent over MQTT, acknowledged or failed. */
export const commands = pgTable(
  'commands',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['report_interval', 'set_point', 'lock', 'unlock', 'reboot', 'custom', 'position_query', 'text_message', 'terminal_control'] }).notNull(),
    params: jsonb('params').notNull().default({}),
    remark: text('remark').notNull().default(''),
    status: text('status', { enum: ['pending_review', 'rejected', 'sent', 'acknowledged', 'failed', 'cancelled'] })
      .notNull()
      .default('pending_review'),
    // Accounts are kept beside the ids: the history reads the same after a user is removed.
    requesterId: uuid('requester_id').references(() => users.id, { onDelete: 'set null' }),
    requesterAccount: text('requester_account').notNull(),
    reviewerId: uuid('reviewer_id').references(() => users.id, { onDelete: 'set null' }),
    reviewerAccount: text('reviewer_account'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewReason: text('review_reason').notNull().default(''),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    ackAt: timestamp('ack_at', { withTimezone: true }),
    failure: text('failure', { enum: ['timeout', 'device', 'send'] }),
    result: text('result'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('commands_org_created_idx').on(t.orgId, t.createdAt),
    index('commands_device_idx').on(t.deviceRef),
    // The time-out check reads the sent ones only.
    index('commands_sent_idx').on(t.sentAt).where(sql`status = 'sent'`),
  ],
);

/** Each command's story: appended, never changed. */
export const commandEvents = eventTimeline('command_events', { key: 'commandId', column: 'command_id', references: () => commands.id }, { index: 'command_events_command_idx', by: 'id' });
