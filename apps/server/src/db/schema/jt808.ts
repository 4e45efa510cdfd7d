// JT/T 808 terminals, their frames and models (modules/jt808).
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { orgs } from './org.ts';
import { devices } from './device.ts';

/**
 * A JT/T 808 terminal's registration (0x0100) and session record, one per device of protocol
 * jt808. Its authentication code is kept as SHA-256 only: any node checks a reconnecting
 * terminal's 0x0102 against it, so nothing a node keeps in memory is needed by another.
 */
export const jt808Terminals = pgTable('jt808_terminals', {
  deviceRef: uuid('device_ref')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  orgId: uuid('org_id').notNull(),
  /** SHA-256 (hex) of the code sent in the last 0x8100; null after a deregistration. */
  authCodeHash: text('auth_code_hash'),
  province: integer('province'),
  city: integer('city'),
  manufacturer: text('manufacturer'),
  model: text('model'),
  terminalId: text('terminal_id'),
  plateColour: integer('plate_colour'),
  plate: text('plate'),
  edition: integer('edition'),
  registeredAt: timestamp('registered_at', { withTimezone: true }),
  lastConnectedAt: timestamp('last_connected_at', { withTimezone: true }),
  lastAddress: text('last_address'),
  /** NODE_ID of the node that took its last authentication. */
  nodeId: text('node_id'),
  /** True from an authentication to the close of that connection; a node that dies leaves it true, so it counts only with a recent last_frame_at. */
  connected: boolean('connected').notNull().default(false),
  /** When a frame of the authenticated connection was last seen, written at most every 30 s per terminal. */
  lastFrameAt: timestamp('last_frame_at', { withTimezone: true }),
  lastDisconnectedAt: timestamp('last_disconnected_at', { withTimezone: true }),
});

/**
 * The last frames of an authenticated JT/T 808 terminal, in and out, for troubleshooting: decoded
 * summary and raw hex, a few per terminal and second, the newest 50 per terminal kept.
 */
export const jt808Frames = pgTable(
  'jt808_frames',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    messageId: integer('message_id').notNull(),
    serial: integer('serial').notNull(),
    summary: jsonb('summary').notNull(),
    hex: text('hex').notNull(),
  },
  (t) => [index('jt808_frames_device_id_idx').on(t.deviceRef, t.id)],
);

/**
 * Vendor mappings of JT/T 808 additional items for one terminal model (jt808-models.ts `items`),
 * owned by an organisation: a terminal uses its organisation's mapping of its model, else the
 * nearest ancestor's, so the platform's mappings serve every organisation that sets none.
 */
export const jt808Models = pgTable(
  'jt808_models',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    model: text('model').notNull(),
    description: text('description').notNull().default(''),
    items: jsonb('items').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('jt808_models_org_model_uq').on(t.orgId, t.model)],
);
