// Warehouse operations (modules/warehouse).
import { doublePrecision, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { orgs, users } from './org.ts';
import { assets } from './device.ts';

/**
 * Inbound and outbound records at a warehouse, or at one of its cold rooms or refrigerators
 * (`room_ref`). Codes and names are copied so a record reads the same after its place is gone;
 * the temperature and humidity at hand-over are read once, from the room's sensor at `time`.
 * Only approved records count in the stock.
 */
export const warehouseRecords = pgTable(
  'warehouse_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    warehouseRef: uuid('warehouse_ref').references(() => assets.id, { onDelete: 'set null' }),
    warehouseCode: text('warehouse_code').notNull(),
    warehouseName: text('warehouse_name').notNull(),
    roomRef: uuid('room_ref').references(() => assets.id, { onDelete: 'set null' }),
    roomKind: text('room_kind', { enum: ['cold_room', 'refrigerator'] }),
    roomCode: text('room_code'),
    roomName: text('room_name'),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    goodsName: text('goods_name').notNull(),
    batchNo: text('batch_no').notNull().default(''),
    quantity: doublePrecision('quantity').notNull(),
    unit: text('unit').notNull().default(''),
    time: timestamp('time', { withTimezone: true }).notNull(),
    handler: text('handler').notNull(),
    remark: text('remark').notNull().default(''),
    temperature: doublePrecision('temperature'),
    humidity: doublePrecision('humidity'),
    readingTime: timestamp('reading_time', { withTimezone: true }),
    readingDeviceId: text('reading_device_id'),
    auditStatus: text('audit_status', { enum: ['pending', 'approved', 'rejected'] }).notNull().default('pending'),
    reviewerId: uuid('reviewer_id').references(() => users.id, { onDelete: 'set null' }),
    reviewer: text('reviewer'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    auditReason: text('audit_reason').notNull().default(''),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('warehouse_records_org_time_idx').on(t.orgId, t.time),
    index('warehouse_records_warehouse_idx').on(t.warehouseRef, t.time),
    index('warehouse_records_room_idx').on(t.roomRef, t.time),
  ],
);
