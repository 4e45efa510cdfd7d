// Warehouse operations: inbound and outbound records of goods at a warehouse, or at one of its
// cold rooms or refrigerators, with the temperature at hand-over read from the room's sensor at
// that time; each record is reviewed (approved or rejected) by someone other than its author, and
// only approved records count in the stock. The service is apps/server/src/modules/warehouse.
//
// The spec's mock "frost table" rows (id, IsAudit, date, name, province, city, address, zip,
// uploadId) map onto a record row as: id = id, IsAudit = isAudit (0 pending, 1 approved,
// 2 rejected), date = time, name = warehouseName, province / city / address / zip = the
// warehouse's, uploadId = createdBy (the account that entered the record). The mock "warehouse
// amount by province" (name, value) is a ProvinceAmount's province and warehouses.
import { z } from 'zod';
import { blankAsUndefined, isoInstant, listQuerySchema } from './list.ts';
import { signatureFieldsSchema } from './signature.ts';

export const WAREHOUSE_DIRECTIONS = ['in', 'out'] as const;
export type WarehouseDirection = (typeof WAREHOUSE_DIRECTIONS)[number];

export const WAREHOUSE_AUDIT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type WarehouseAuditStatus = (typeof WAREHOUSE_AUDIT_STATUSES)[number];

/** The spec's `IsAudit` value of each audit status. */
export const IS_AUDIT: Record<WarehouseAuditStatus, 0 | 1 | 2> = { pending: 0, approved: 1, rejected: 2 };

/** A reading counts as the temperature at hand-over when it is at most this much older than the record. */
export const HANDOVER_READING_WINDOW_MS = 30 * 60_000;
/** A record's time may be this much ahead of the server's clock (a browser clock a little fast). */
export const RECORD_TIME_SKEW_MS = 60_000;

/** Asset kinds a record may be at: the warehouse itself, or a cold room or refrigerator of it. */
export const WAREHOUSE_LOCATION_KINDS = ['warehouse', 'cold_room', 'refrigerator'] as const;
export type WarehouseLocationKind = (typeof WAREHOUSE_LOCATION_KINDS)[number];

const text = (max: number) => z.preprocess((v) => v ?? '', z.string().trim().max(max));

/** Create / update body. `time` absent: now. */
export const recordBodySchema = z.object({
  /** The warehouse, cold room or refrigerator (asset id) the goods went in or out of. */
  locationId: z.uuid({ message: 'WAREHOUSE_LOCATION_REQUIRED' }),
  direction: z.enum(WAREHOUSE_DIRECTIONS, { message: 'WAREHOUSE_DIRECTION_REQUIRED' }),
  goodsName: z.string({ message: 'WAREHOUSE_GOODS_REQUIRED' }).trim().min(1, { message: 'WAREHOUSE_GOODS_REQUIRED' }).max(100),
  batchNo: text(64),
  quantity: z
    .number({ message: 'WAREHOUSE_QUANTITY_POSITIVE' })
    .gt(0, { message: 'WAREHOUSE_QUANTITY_POSITIVE' })
    .max(1_000_000_000, { message: 'WAREHOUSE_QUANTITY_POSITIVE' }),
  unit: text(16),
  time: z
    .preprocess(blankAsUndefined, isoInstant.optional())
    .refine((t) => t === undefined || Date.parse(t) <= Date.now() + RECORD_TIME_SKEW_MS, { message: 'WAREHOUSE_TIME_FUTURE' }),
  handler: z.string({ message: 'WAREHOUSE_HANDLER_REQUIRED' }).trim().min(1, { message: 'WAREHOUSE_HANDLER_REQUIRED' }).max(64),
  remark: text(500),
});
export type RecordBody = z.infer<typeof recordBodySchema>;
export type RecordInput = z.input<typeof recordBodySchema>;

export const recordRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  /** The warehouse (null once deleted; its code and name stay). */
  warehouseId: z.string().nullable(),
  warehouseCode: z.string(),
  warehouseName: z.string(),
  /** The cold room or refrigerator; null for a record at the warehouse itself. */
  roomId: z.string().nullable(),
  roomKind: z.enum(['cold_room', 'refrigerator']).nullable(),
  roomCode: z.string().nullable(),
  roomName: z.string().nullable(),
  /** As written on the warehouse. */
  province: z.string().nullable(),
  /** The province dictionary's code (region.ts) of `province`; null when it names none. Screens show the dictionary's name in their language. */
  provinceCode: z.string().nullable(),
  city: z.string().nullable(),
  address: z.string().nullable(),
  zip: z.string().nullable(),
  direction: z.enum(WAREHOUSE_DIRECTIONS),
  goodsName: z.string(),
  batchNo: z.string(),
  quantity: z.number(),
  unit: z.string(),
  time: z.string(),
  handler: z.string(),
  remark: z.string(),
  /** Read from the room's sensor at `time` (the newest reading at or before it, within 30 minutes). */
  temperature: z.number().nullable(),
  humidity: z.number().nullable(),
  readingTime: z.string().nullable(),
  /** The device the reading came from. */
  readingDeviceId: z.string().nullable(),
  /** A room's record for which no reading was found (a warehouse's record reads nothing: false). */
  noReading: z.boolean(),
  /** The room's (or the warehouse's) ranges now, to mark the hand-over values. */
  tempMin: z.number().nullable(),
  tempMax: z.number().nullable(),
  humidityMin: z.number().nullable(),
  humidityMax: z.number().nullable(),
  auditStatus: z.enum(WAREHOUSE_AUDIT_STATUSES),
  /** The spec's IsAudit: 0 pending, 1 approved, 2 rejected. */
  isAudit: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  reviewer: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  /** The reviewer's reason (required to reject, optional to approve). */
  auditReason: z.string(),
  createdBy: z.string(),
  createdById: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RecordRow = z.infer<typeof recordRowSchema>;

export const recordQuerySchema = listQuerySchema.extend({
  warehouseId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  /** A cold room or refrigerator; `warehouse` for the records at the warehouse itself is not a filter. */
  roomId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  direction: z.preprocess(blankAsUndefined, z.enum(WAREHOUSE_DIRECTIONS).optional()),
  auditStatus: z.preprocess(blankAsUndefined, z.enum(WAREHOUSE_AUDIT_STATUSES).optional()),
  /** Goods name or batch number contains. */
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  /** Record time in [from, to). */
  from: z.preprocess(blankAsUndefined, isoInstant.optional()),
  to: z.preprocess(blankAsUndefined, isoInstant.optional()),
  /** A province dictionary code or a province as written (any of its spellings matches). */
  province: z.preprocess(blankAsUndefined, z.string().trim().max(32).optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type RecordQuery = z.infer<typeof recordQuerySchema>;

/** Records per audit tab for the same filters (the audit status filter left out). */
export const recordCountsSchema = z.object({ all: z.number().int(), pending: z.number().int(), approved: z.number().int(), rejected: z.number().int() });
export type RecordCounts = z.infer<typeof recordCountsSchema>;

/** A page of records with the tab counts. */
export const recordPageSchema = z.object({
  rows: z.array(recordRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  counts: recordCountsSchema,
});
export type RecordPage = z.infer<typeof recordPageSchema>;

/** Approving takes an optional note (the body may be left out). */
/** Approving signs the record: the password again and the meaning (approved by default, or reviewed). */
export const approveBodySchema = z.object({ reason: text(500) }).extend(signatureFieldsSchema.shape);
export type ApproveBody = z.infer<typeof approveBodySchema>;
/** Rejecting signs the record too (meaning rejected). */
export const rejectBodySchema = z
  .object({ reason: z.string({ message: 'WAREHOUSE_REJECT_REASON_REQUIRED' }).trim().min(1, { message: 'WAREHOUSE_REJECT_REASON_REQUIRED' }).max(500) })
  .extend(signatureFieldsSchema.shape);
export type RejectBody = z.infer<typeof rejectBodySchema>;

export const stockQuerySchema = z.object({
  warehouseId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  roomId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  province: z.preprocess(blankAsUndefined, z.string().trim().max(32).optional()),
  /** Also the goods whose stock is back to zero. */
  includeEmpty: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type StockQuery = z.infer<typeof stockQuerySchema>;

/** Stock of one goods / batch / unit at one room (or at the warehouse itself): approved in − out. */
export const stockRowSchema = z.object({
  warehouseId: z.string().nullable(),
  warehouseCode: z.string(),
  warehouseName: z.string(),
  roomId: z.string().nullable(),
  roomCode: z.string().nullable(),
  roomName: z.string().nullable(),
  province: z.string().nullable(),
  goodsName: z.string(),
  batchNo: z.string(),
  unit: z.string(),
  inQuantity: z.number(),
  outQuantity: z.number(),
  quantity: z.number(),
  lastMovementAt: z.string(),
});
export type StockRow = z.infer<typeof stockRowSchema>;

/** Most stock rows one answer holds (ordered by warehouse, room, goods, batch). */
export const MAX_STOCK_ROWS = 5000;
export const stockAnswerSchema = z.object({ rows: z.array(stockRowSchema), truncated: z.boolean() });
export type StockAnswer = z.infer<typeof stockAnswerSchema>;

/**
 * Warehouses and stock (approved in − out, every unit added up) per province; '' has no
 * province. The ways one province is written ("上海", "上海市", "Shanghai") are one entry:
 * `province` is then the dictionary's code (region.ts), else the text as written; it is what the
 * `province` filters take. `code` is the dictionary's code or null: screens name it in their language.
 */
export const provinceAmountSchema = z.object({ province: z.string(), code: z.string().nullable(), warehouses: z.number().int(), quantity: z.number() });
export type ProvinceAmount = z.infer<typeof provinceAmountSchema>;

export const provinceQuerySchema = z.object({ orgId: z.preprocess(blankAsUndefined, z.uuid().optional()) });

export const WAREHOUSE_API = {
  /** GET list (with counts), POST create; /:id GET, PUT, DELETE; /:id/approve|reject POST; /export, /import, /import-template. */
  records: '/api/iot/v2/warehouse-records',
  /** GET → StockAnswer (stockQuerySchema). */
  stock: '/api/iot/v2/warehouse-records/stock',
  /** GET → ProvinceAmount[]. */
  provinces: '/api/iot/v2/warehouse-records/provinces',
  record: (id: string) => `/api/iot/v2/warehouse-records/${id}`,
  approve: (id: string) => `/api/iot/v2/warehouse-records/${id}/approve`,
  reject: (id: string) => `/api/iot/v2/warehouse-records/${id}/reject`,
} as const;
