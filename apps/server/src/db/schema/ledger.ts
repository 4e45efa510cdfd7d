// The ledger: leaves, subtrees, signed heads, watermarks, share links (modules/ledger, packages/shared/src/ledger).
import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid, bigint, smallint } from 'drizzle-orm/pg-core';
import { createdAt, bytea } from './columns.ts';
import { orgs } from './org.ts';

/**
 * The ledger's leaves, appended in index order and never changed: the canonical record bytes
 * (leaf.ts) and their RFC 6962 leaf hash, with the ids the verification screens look them up by.
 */
export const ledgerLeaves = pgTable(
  'ledger_leaves',
  {
    idx: bigint('idx', { mode: 'number' }).primaryKey(),
    orgId: uuid('org_id').notNull(),
    kind: text('kind', { enum: ['sensor.minute', 'custody', 'alarm', 'retention.removal'] }).notNull(),
    /** A stable key of the logged record: each is logged once. */
    ref: text('ref').notNull().unique(),
    data: bytea('data').notNull(),
    leafHash: bytea('leaf_hash').notNull(),
    /** The record's own time: the minute of a sensor minute, the time of an event. */
    at: timestamp('at', { withTimezone: true }).notNull(),
    deviceRef: uuid('device_ref'),
    taskId: uuid('task_id'),
    warehouseRecordId: uuid('warehouse_record_id'),
    alarmId: uuid('alarm_id'),
    loggedAt: timestamp('logged_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ledger_leaves_device_idx').on(t.deviceRef, t.at),
    index('ledger_leaves_task_idx').on(t.taskId),
    index('ledger_leaves_warehouse_idx').on(t.warehouseRecordId),
  ],
);

/** Every complete subtree of the ledger's tree (level 0: the leaves), for proofs in O(log n) reads. */
export const ledgerNodes = pgTable(
  'ledger_nodes',
  {
    level: smallint('level').notNull(),
    idx: bigint('idx', { mode: 'number' }).notNull(),
    hash: bytea('hash').notNull(),
  },
  (t) => [primaryKey({ name: 'ledger_nodes_pk', columns: [t.level, t.idx] })],
);

/** Signed tree heads (C2SP signed notes), one per tree size. */
export const ledgerCheckpoints = pgTable('ledger_checkpoints', {
  size: bigint('size', { mode: 'number' }).primaryKey(),
  rootHash: bytea('root_hash').notNull(),
  note: text('note').notNull(),
  signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** How far the ledger's feeder has read each source. */
export const ledgerWatermarks = pgTable('ledger_watermarks', {
  source: text('source').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Links that publish a task's, a device range's or a warehouse batch's records without login;
 * only the token's SHA-256 is kept. Every link ends: at its expiry, or when it is revoked.
 */
export const ledgerShares = pgTable(
  'ledger_shares',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique('ledger_shares_token_hash_key'),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** 'task' | 'device' | 'batch' | 'warehouseRecord': the key `scope` holds. */
    kind: text('kind').notNull(),
    /** { taskId }, { deviceId (the device row id), from, to }, { warehouseBatch } or { warehouseRecordId }. */
    scope: jsonb('scope').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: text('revoked_by'),
  },
  (t) => [index('ledger_shares_org_idx').on(t.orgId, t.createdAt)],
);
