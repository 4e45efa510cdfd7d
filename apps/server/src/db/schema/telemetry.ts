// Stored readings and their packed days (ingest, modules/telemetry, modules/archive).
import { doublePrecision, boolean, index, integer, date, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea } from './columns.ts';

/**
 * Every accepted report: raw blocks and decoded values side by side; one row per device and device time.
 * Range-partitioned by `time` (migration 0025; drizzle-kit does not express it): one partition per
 * UTC month, telemetry_pYYYY_MM, and telemetry_default for a month without one (db/partitions.ts).
 */
export const telemetry = pgTable(
  'telemetry',
  {
    orgId: uuid('org_id').notNull(),
    // No foreign key: a check of the device per stored reading costs more than the rest of
    // the insert at full intake; deleting a device deletes its readings itself.
    deviceRef: uuid('device_ref').notNull(),
    time: timestamp('time', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    positioning: text('positioning'),
    network: text('network'),
    speed: doublePrecision('speed'),
    course: doublePrecision('course'),
    raw: jsonb('raw').notNull(),
    sensors: jsonb('sensors').notNull(),
  },
  (t) => [
    primaryKey({ name: 'telemetry_pk', columns: [t.deviceRef, t.time] }),
    index('telemetry_org_time_idx').on(t.orgId, t.time),
    // The ledger reads readings by the minute they were stored; rows arrive in that order, so a
    // block-range index serves it at almost no cost to the intake.
    index('telemetry_received_brin').using('brin', t.receivedAt),
  ],
);

/**
 * The readings archive (modules/archive): each device's readings of one closed UTC day packed
 * into one value, every column kept (pack.ts), so that a month of history reads as 30 values
 * instead of hundreds of thousands of rows and takes a few bytes a reading. `data` holds all but
 * the raw reports, which are in `raw`, so that curves and tracks never read those. A reading that
 * arrives late for a packed day marks its pack stale (readers then merge the pack with that day's
 * rows, the pack winning on a repeated time) until the job packs the day again.
 */
export const readingDays = pgTable(
  'reading_days',
  {
    deviceRef: uuid('device_ref').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    /** The organisation of the day's readings (the last one's, when the device moved that day). */
    orgId: uuid('org_id').notNull(),
    readings: integer('readings').notNull(),
    firstTime: timestamp('first_time', { withTimezone: true }).notNull(),
    lastTime: timestamp('last_time', { withTimezone: true }).notNull(),
    /** The earliest and latest time received among the readings: the ledger finds a minute's readings by these. */
    receivedFrom: timestamp('received_from', { withTimezone: true }).notNull(),
    receivedTo: timestamp('received_to', { withTimezone: true }).notNull(),
    data: bytea('data').notNull(),
    raw: bytea('raw').notNull(),
    /** Readings received up to this time are in the pack (set a little early, so that none committing late is assumed in). */
    packedAt: timestamp('packed_at', { withTimezone: true }).notNull(),
    /** A reading of this day arrived after the pack was made: readers merge the day's rows in. */
    stale: boolean('stale').notNull().default(false),
  },
  (t) => [
    primaryKey({ name: 'reading_days_pk', columns: [t.deviceRef, t.day] }),
    index('reading_days_org_day_idx').on(t.orgId, t.day),
    // The ledger reads a device's readings received in a recent minute: only packs that received one since.
    index('reading_days_received_idx').on(t.deviceRef, t.receivedTo),
  ],
);

/**
 * Where the archive's job is (one row): days before `closedThrough` have been swept, readings
 * received before `receivedMark` looked at; `lease` names the node's run holding the job until
 * `leaseUntil`.
 */
export const readingArchiveState = pgTable('reading_archive_state', {
  id: integer('id').primaryKey(),
  closedThrough: date('closed_through', { mode: 'string' }),
  receivedMark: timestamp('received_mark', { withTimezone: true }),
  lease: text('lease'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
});
