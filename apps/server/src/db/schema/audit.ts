// The audit log (modules/audit).
import { bigserial, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orgs, users } from './org.ts';

/** Who did what, when, from where: sign-ins, sign-outs and, as areas land, their changes. */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    account: text('account').notNull(),
    action: text('action').notNull(),
    result: text('result', { enum: ['success', 'failure'] }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    detail: text('detail'),
  },
  // (org, time, id) serves one organisation's newest-first pages straight from the index;
  // (time, id) the same across a whole organisation tree.
  (t) => [index('audit_logs_org_at_id_idx').on(t.orgId, t.at, t.id), index('audit_logs_at_id_idx').on(t.at, t.id)],
);
