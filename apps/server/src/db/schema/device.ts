// Devices, their latest state, assets and bindings, refused reports (modules/device, modules/asset, ingest).
import { sql } from 'drizzle-orm';
import { bigserial, doublePrecision, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { orgs } from './org.ts';
import { places } from './place.ts';

/**
 * Devices (trackers, gateways, data loggers): an id (IMEI or serial) unique on the platform,
 * an owning organisation, and a secret kept only as a hash (it authenticates MQTT and HTTP reports).
 */
export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    deviceId: text('device_id').notNull().unique(),
    name: text('name').notNull(),
    model: text('model'),
    /** How the device reports: 'json' (MQTT or HTTP, DESIGN.md's report format) or 'jt808' (its device id is the terminal phone number). */
    protocol: text('protocol', { enum: ['json', 'jt808'] }).notNull().default('json'),
    sim: text('sim'),
    firmware: text('firmware'),
    secretHash: text('secret_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('devices_org_idx').on(t.orgId)],
);

/** Refused reports with their reason, per device (null when the device itself is unknown). */
export const intakeLog = pgTable(
  'intake_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceRef: uuid('device_ref').references(() => devices.id, { onDelete: 'cascade' }),
    deviceId: text('device_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    channel: text('channel', { enum: ['mqtt', 'http', 'jt808'] }).notNull(),
    reason: text('reason').notNull(),
    payload: text('payload'),
  },
  (t) => [index('intake_log_device_at_idx').on(t.deviceRef, t.at)],
);

/**
 * The newest state of each device, kept current by the intake: the newest device time's
 * position, each sensor's last known value, and when the platform last heard from it. The
 * status (unused / shutdown / offline / parked / driving) is derived from it when read.
 */
export const deviceStates = pgTable(
  'device_states',
  {
    deviceRef: uuid('device_ref')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id').notNull(),
    time: timestamp('time', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    positioning: text('positioning'),
    network: text('network'),
    speed: doublePrecision('speed'),
    course: doublePrecision('course'),
    acc: boolean('acc'),
    sensors: jsonb('sensors').notNull(),
  },
  (t) => [index('device_states_org_received_idx').on(t.orgId, t.receivedAt)],
);

/**
 * Assets devices are mounted on. `code` is the plate, container number, warehouse or gateway
 * code; the kind's own fields are in `attrs`; the ranges are the goods' limits.
 */
export const assets = pgTable(
  'assets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    kind: text('kind', { enum: ['vehicle', 'container', 'warehouse', 'cold_room', 'refrigerator', 'gateway'] }).notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    parentId: uuid('parent_id').references((): AnyPgColumn => assets.id),
    attrs: jsonb('attrs').notNull(),
    tempMin: doublePrecision('temp_min'),
    tempMax: doublePrecision('temp_max'),
    humidityMin: doublePrecision('humidity_min'),
    humidityMax: doublePrecision('humidity_max'),
    /** A warehouse's place in the library (schema/place.ts): where it is on the map. */
    placeId: uuid('place_id').references(() => places.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('assets_org_kind_code_uq').on(t.orgId, t.kind, t.code), index('assets_parent_idx').on(t.parentId)],
);

/**
 * Which device is mounted on which asset, and since when: a row per binding, ended (never
 * deleted) by an unbind. The asset's kind, code and name are copied so the history reads the
 * same after the asset is gone.
 */
export const deviceBindings = pgTable(
  'device_bindings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull(),
    deviceRef: uuid('device_ref').references(() => devices.id, { onDelete: 'set null' }),
    deviceId: text('device_id').notNull(),
    assetRef: uuid('asset_ref').references(() => assets.id, { onDelete: 'set null' }),
    assetKind: text('asset_kind', { enum: ['vehicle', 'container', 'warehouse', 'cold_room', 'refrigerator', 'gateway'] }).notNull(),
    assetCode: text('asset_code').notNull(),
    assetName: text('asset_name').notNull(),
    boundAt: timestamp('bound_at', { withTimezone: true }).notNull().defaultNow(),
    boundBy: text('bound_by').notNull(),
    unboundAt: timestamp('unbound_at', { withTimezone: true }),
    unboundBy: text('unbound_by'),
  },
  (t) => [
    uniqueIndex('device_bindings_active_uq').on(t.deviceRef).where(sql`unbound_at is null`),
    index('device_bindings_asset_idx').on(t.assetRef, t.boundAt),
    index('device_bindings_device_idx').on(t.deviceRef, t.boundAt),
  ],
);
