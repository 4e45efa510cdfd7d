// Work orders (modules/work-order).
import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, eventTimeline } from './columns.ts';
import { orgs, users } from './org.ts';
import { alarms } from './alarm.ts';

/** Work orders (work-order.ts): opened from alarms or by hand; belong to an organisation. */
export const workOrders = pgTable(
  'work_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    priority: text('priority', { enum: ['urgent', 'high', 'medium', 'low'] }).notNull(),
    status: text('status', { enum: ['open', 'in_progress', 'resolved', 'closed'] }).notNull().default('open'),
    source: text('source', { enum: ['alarm', 'manual'] }).notNull(),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    dueAt: timestamp('due_at', { withTimezone: true }),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('work_orders_org_code_uq').on(t.orgId, t.code),
    index('work_orders_org_created_idx').on(t.orgId, t.createdAt),
    index('work_orders_assignee_idx').on(t.assigneeId),
  ],
);

/** The alarms of a work order; an alarm is in at most one. */
export const workOrderAlarms = pgTable(
  'work_order_alarms',
  {
    workOrderId: uuid('work_order_id')
      .notNull()
      .references(() => workOrders.id, { onDelete: 'cascade' }),
    alarmId: uuid('alarm_id')
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ name: 'work_order_alarms_pk', columns: [t.workOrderId, t.alarmId] }), uniqueIndex('work_order_alarms_alarm_uq').on(t.alarmId)],
);

/** Each work order's story: appended, never changed. */
export const workOrderEvents = eventTimeline('work_order_events', { key: 'workOrderId', column: 'work_order_id', references: () => workOrders.id }, { index: 'work_order_events_order_idx', by: 'id' });
