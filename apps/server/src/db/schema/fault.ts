// Device faults, their counters and repairs (modules/fault).
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orgs } from './org.ts';
import { devices } from './device.ts';

/**
 * Device faults (fault.ts): at most one unresolved fault per device and kind; a new occurrence
 * after it was resolved opens another. Belongs to the device's organisation.
 */
export const faults = pgTable(
  'faults',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['sensor_failure', 'gps_failure', 'low_battery', 'offline_repeatedly', 'bad_reports'] }).notNull(),
    status: text('status', { enum: ['open', 'repairing', 'resolved'] }).notNull().default('open'),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(1),
    detail: jsonb('detail').notNull().default({}),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: text('resolved_by'),
  },
  (t) => [
    uniqueIndex('faults_unresolved_uq').on(t.deviceRef, t.kind).where(sql`status <> 'resolved'`),
    index('faults_org_last_idx').on(t.orgId, t.lastAt),
  ],
);

/**
 * What the detector counts between reports, per device and kind: a run of bad reports, or the
 * times within a window. Kept in the database so that several processes count together.
 */
export const faultCounters = pgTable(
  'fault_counters',
  {
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    count: integer('count').notNull().default(0),
    /** Start of the counting window, or of the run. */
    since: timestamp('since', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: 'fault_counters_pk', columns: [t.deviceRef, t.kind] })],
);

/** Repair records of a fault: appended, never changed. */
export const faultRepairs = pgTable(
  'fault_repairs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    faultId: uuid('fault_id')
      .notNull()
      .references(() => faults.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    by: text('by').notNull(),
    action: text('action').notNull(),
    result: text('result', { enum: ['in_progress', 'repaired', 'replaced', 'no_fault_found'] }).notNull(),
    note: text('note').notNull().default(''),
  },
  (t) => [index('fault_repairs_fault_idx').on(t.faultId, t.id)],
);
