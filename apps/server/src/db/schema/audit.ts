// The audit log (modules/audit).
import { bigserial, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Who did what, when, from where: sign-ins, sign-outs and every audited change, written in the
 * change's transaction. Append-only: a trigger (migration 0036) refuses every update, delete and
 * truncate, for everyone. So it has no foreign keys: a removed user or organisation leaves its
 * rows as they were (`org_tombstones` keeps a removed organisation's place in the tree).
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: uuid('org_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: uuid('user_id'),
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

/**
 * Removed organisations: their name and parent at removal, so their audit rows stay readable by
 * the organisations above them (the parent may itself be removed later: follow the chain).
 */
export const orgTombstones = pgTable(
  'org_tombstones',
  {
    id: uuid('id').primaryKey(),
    parentId: uuid('parent_id').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('org_tombstones_parent_idx').on(t.parentId)],
);
