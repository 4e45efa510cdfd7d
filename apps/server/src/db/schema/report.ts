// Scheduled reports and their runs (modules/report-schedule).
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { orgs, users } from './org.ts';

/** A report mailed to recipients every day, week or month; made as its creator would see it. */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['temperature', 'alarm', 'online', 'mileage'] }).notNull(),
    frequency: text('frequency', { enum: ['daily', 'weekly', 'monthly'] }).notNull(),
    hour: integer('hour').notNull(),
    timezone: text('timezone').notNull(),
    lang: text('lang', { enum: ['zh', 'en'] }).notNull(),
    format: text('format', { enum: ['pdf', 'xlsx'] }).notNull(),
    /** Asset or device ids (see scheduleBodySchema); empty: all of the organisation's. */
    subjectIds: jsonb('subject_ids').notNull().$type<string[]>(),
    recipients: jsonb('recipients').notNull().$type<string[]>(),
    enabled: boolean('enabled').notNull().default(true),
    /** Null while disabled. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    lastStatus: text('last_status', { enum: ['sent', 'outbox', 'failed'] }),
    /** Whose view of the data a scheduled run reports (null once that user is deleted). */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('report_schedules_org_idx').on(t.orgId, t.updatedAt), index('report_schedules_due_idx').on(t.enabled, t.nextRunAt)],
);

/** Each run of a schedule: by the scheduler or a user's "send now"; appended, never changed. */
export const reportScheduleRuns = pgTable(
  'report_schedule_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => reportSchedules.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** The local days reported, YYYY-MM-DD. */
    periodStart: text('period_start').notNull(),
    periodEnd: text('period_end').notNull(),
    status: text('status', { enum: ['sent', 'outbox', 'failed'] }).notNull(),
    manual: boolean('manual').notNull().default(false),
    filename: text('filename'),
    recipients: jsonb('recipients').notNull().$type<string[]>(),
    error: text('error'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('report_schedule_runs_schedule_idx').on(t.scheduleId, t.at)],
);
