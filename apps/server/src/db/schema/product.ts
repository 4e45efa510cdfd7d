// Product profiles and batches with their excursion budgets (modules/product, issue 27 item 3).
import { doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { orgs } from './org.ts';
import { transportTasks } from './transport.ts';

/**
 * What a product tolerates over its whole life: the range (low..high °C), the minutes it may
 * spend above the high limit and below the low limit, summed across every task and storage
 * period, the absolute limits never to be crossed, and the share of a budget that raises the
 * early alarm.
 */
export const productProfiles = pgTable(
  'product_profiles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    lowC: doublePrecision('low_c').notNull(),
    highC: doublePrecision('high_c').notNull(),
    aboveBudgetMin: integer('above_budget_min').notNull(),
    belowBudgetMin: integer('below_budget_min').notNull(),
    absoluteMaxC: doublePrecision('absolute_max_c').notNull(),
    absoluteMinC: doublePrecision('absolute_min_c'),
    alertPercent: integer('alert_percent').notNull().default(80),
    remark: text('remark').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('product_profiles_org_name_uq').on(t.orgId, t.name)],
);

/**
 * A batch of goods, by its batch number within the organisation (the number warehouse records
 * and the ledger's 'batch' scope use). `raised` remembers the budget alarms already raised
 * ({ "above:alert": iso, "above:exhausted": iso, "below:...", "absoluteMax": iso, ... }; shared excursion-budget.ts budgetAlarmKeys) so each
 * is raised once; `used` is the last computed budget, for lists.
 */
export const productBatches = pgTable(
  'product_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    batchNo: text('batch_no').notNull(),
    goodsName: text('goods_name').notNull().default(''),
    profileId: uuid('profile_id').references(() => productProfiles.id, { onDelete: 'set null' }),
    raised: jsonb('raised').notNull().default({}).$type<Record<string, string>>(),
    used: jsonb('used').$type<Record<string, unknown>>(),
    computedAt: timestamp('computed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('product_batches_org_batch_uq').on(t.orgId, t.batchNo), index('product_batches_profile_idx').on(t.profileId)],
);

/** The batches a transport task carries (a task may carry several, a batch may travel on several tasks). */
export const productBatchTasks = pgTable(
  'product_batch_tasks',
  {
    batchId: uuid('batch_id')
      .notNull()
      .references(() => productBatches.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id')
      .notNull()
      .references(() => transportTasks.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ name: 'product_batch_tasks_pk', columns: [t.batchId, t.taskId] }), index('product_batch_tasks_task_idx').on(t.taskId)],
);

/**
 * The product profile a transport task is judged against (at most one per task): the shipment
 * report shows the trip's time out of range against it, and batches on the task without a
 * profile of their own take it. A profile in use by a task is not deleted (no cascade).
 */
export const productTaskProfiles = pgTable(
  'product_task_profiles',
  {
    taskId: uuid('task_id')
      .primaryKey()
      .references(() => transportTasks.id, { onDelete: 'cascade' }),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => productProfiles.id),
  },
  (t) => [index('product_task_profiles_profile_idx').on(t.profileId)],
);
