// Transport templates, tasks, their devices and stories (modules/transport).
import { sql } from 'drizzle-orm';
import { doublePrecision, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, eventTimeline } from './columns.ts';
import { orgs } from './org.ts';
import { places } from './place.ts';
import { devices, assets } from './device.ts';

/**
 * Transport task templates: settings used again and again (places, route, ranges, alarm
 * settings, recipients, recognition thresholds), as transport.ts `templateBodySchema` gives them.
 */
export const transportTemplates = pgTable(
  'transport_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** origin, destination, routeSource, route, ranges, alarm, recipients, detection. */
    settings: jsonb('settings').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('transport_templates_org_name_uq').on(t.orgId, t.name)],
);

/**
 * Transport tasks. The places are columns (reports and the monitor read them); the rest of the
 * settings is JSON. `status` is the lifecycle; abnormal is derived when read.
 */
export const transportTasks = pgTable(
  'transport_tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    templateId: uuid('template_id').references(() => transportTemplates.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['pending', 'in_transit', 'arrived', 'completed', 'cancelled'] }).notNull().default('pending'),
    goodsName: text('goods_name').notNull(),
    goodsQuantity: doublePrecision('goods_quantity'),
    goodsUnit: text('goods_unit').notNull().default(''),
    goodsValue: doublePrecision('goods_value'),
    highValue: boolean('high_value').notNull().default(false),
    customer: text('customer').notNull().default(''),
    assetRef: uuid('asset_ref').references(() => assets.id, { onDelete: 'set null' }),
    originName: text('origin_name').notNull(),
    originLat: doublePrecision('origin_lat').notNull(),
    originLon: doublePrecision('origin_lon').notNull(),
    originRadiusM: integer('origin_radius_m').notNull(),
    destinationName: text('destination_name').notNull(),
    destinationLat: doublePrecision('destination_lat').notNull(),
    destinationLon: doublePrecision('destination_lon').notNull(),
    destinationRadiusM: integer('destination_radius_m').notNull(),
    /** The library places the origin and destination were taken from (copied above; a change to the place is copied here). */
    originPlaceId: uuid('origin_place_id').references(() => places.id),
    destinationPlaceId: uuid('destination_place_id').references(() => places.id),
    plannedDistanceM: doublePrecision('planned_distance_m').notNull(),
    plannedStart: timestamp('planned_start', { withTimezone: true }),
    plannedArrival: timestamp('planned_arrival', { withTimezone: true }),
    driverName: text('driver_name').notNull().default(''),
    driverPhone: text('driver_phone').notNull().default(''),
    /** addresses of the places, route, routeSource, ranges, alarm, recipients, detection, contacts, remark. */
    settings: jsonb('settings').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    startMode: text('start_mode', { enum: ['auto', 'manual'] }),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
    arriveMode: text('arrive_mode', { enum: ['auto', 'manual'] }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason').notNull().default(''),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('transport_tasks_org_code_uq').on(t.orgId, t.code),
    index('transport_tasks_org_created_idx').on(t.orgId, t.createdAt),
    index('transport_tasks_live_idx').on(t.status).where(sql`status in ('pending', 'in_transit', 'arrived')`),
  ],
);

/** The devices of a task, in order (position 0 is the task's position). */
export const transportTaskDevices = pgTable(
  'transport_task_devices',
  {
    taskId: uuid('task_id')
      .notNull()
      .references(() => transportTasks.id, { onDelete: 'cascade' }),
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ name: 'transport_task_devices_pk', columns: [t.taskId, t.deviceRef] }), index('transport_task_devices_device_idx').on(t.deviceRef)],
);

/** Each task's story: appended, never changed. */
export const transportTaskEvents = eventTimeline('transport_task_events', { key: 'taskId', column: 'task_id', references: () => transportTasks.id }, { index: 'transport_task_events_task_idx', by: 'id' });

/**
 * Consignee tracking links (issue 26): a public, read-only link to one task's live position,
 * status, ETA and temperature curve, until it expires or someone of the organisation tree
 * revokes it. Only the token's SHA-256 is stored; the token is shown once, when made.
 */
export const transportTrackingLinks = pgTable(
  'transport_tracking_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique('transport_tracking_links_token_hash_key'),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id')
      .notNull()
      .references(() => transportTasks.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: text('revoked_by'),
  },
  (t) => [index('transport_tracking_links_org_idx').on(t.orgId, t.createdAt), index('transport_tracking_links_task_idx').on(t.taskId)],
);
