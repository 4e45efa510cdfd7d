// The ledger's calls (DESIGN.md, "Ledger (traceability) interface"): request and response
// schemas shared by the server, the verification screens and the command-line verifier.
//
// Hashes, proofs and leaf bytes travel as standard base64 (bytes.ts `toBase64`). The JSON calls
// answer in the usual envelope; the checkpoint and the public key are plain text, as
// transparency-log tools read them.
import { z } from 'zod';
import { blankAsUndefined, isoInstant, listQuerySchema } from '../list.ts';
import { jsonValueSchema, ledgerRecordSchema } from './leaf.ts';

export const LEDGER_API = {
  /** GET: the latest signed checkpoint, text/plain (C2SP signed note). No login. */
  checkpoint: '/api/iot/v2/ledger/checkpoint',
  /** GET: the verifier key, text/plain; `?format=json` → PublicKeyAnswer. No login. */
  publicKey: '/api/iot/v2/ledger/public-key',
  /** GET ?index=I&size=N → InclusionProof. No login. */
  inclusion: '/api/iot/v2/ledger/proof/inclusion',
  /** GET ?from=M&to=N → ConsistencyProof. No login. */
  consistency: '/api/iot/v2/ledger/proof/consistency',
  /** GET → LeafAnswer, for a user of the record's organisation tree. */
  leaf: (index: number) => `/api/iot/v2/ledger/leaves/${index}`,
  /** GET ?taskId= | ?deviceId=&from=&to= | ?warehouseBatch= | ?warehouseRecordId= (&after=) → RecordsAnswer. */
  records: '/api/iot/v2/ledger/records',
  /** POST ShareBody → ShareAnswer; GET ShareQuery → Page<ShareRow> (the organisation tree's links). */
  shares: '/api/iot/v2/ledger/shares',
  /** POST → ShareRow: the link ends now (its token answers LEDGER_SHARE_REVOKED). */
  revoke: (id: string) => `/api/iot/v2/ledger/shares/${id}/revoke`,
  /** GET (&after=) → PublicRecordsAnswer. No login. */
  public: (token: string) => `/api/iot/v2/ledger/public/${token}`,
  /**
   * GET: the share's verification certificate, a PDF in the request's `language` and `timezone`,
   * verified when downloaded, with a QR code of the public verification page. No login.
   */
  certificate: (token: string) => `/api/iot/v2/ledger/public/${token}/certificate`,
} as const;

/** The web page a share link opens (the public verification page). */
export const ledgerSharePage = (token: string) => `/verify/${token}`;

/** Most leaves one records call answers; page on with `after` = the answer's `next`. */
export const MAX_RECORDS_PAGE = 200;
/** Longest device range of a records call or a share. */
export const MAX_LEDGER_RANGE_DAYS = 366;

const treeIndex = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const treeSize = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const b64 = z.string();

export const inclusionQuerySchema = z.object({
  index: treeIndex,
  /** Default: the size of the latest signed checkpoint. */
  size: z.preprocess(blankAsUndefined, treeSize.optional()),
});
export type InclusionQuery = z.infer<typeof inclusionQuerySchema>;

export const inclusionProofSchema = z.object({ index: z.number(), size: z.number(), leafHash: b64, proof: z.array(b64) });
export type InclusionProof = z.infer<typeof inclusionProofSchema>;

export const consistencyQuerySchema = z.object({ from: treeSize, to: treeSize });
export type ConsistencyQuery = z.infer<typeof consistencyQuerySchema>;

export const consistencyProofSchema = z.object({ from: z.number(), to: z.number(), proof: z.array(b64) });
export type ConsistencyProof = z.infer<typeof consistencyProofSchema>;

export const leafParamsSchema = z.object({ index: treeIndex });

export const leafAnswerSchema = z.object({ index: z.number(), leafHash: b64, data: b64 });
export type LeafAnswer = z.infer<typeof leafAnswerSchema>;

export const publicKeyAnswerSchema = z.object({ verifierKey: z.string(), origin: z.string() });
export type PublicKeyAnswer = z.infer<typeof publicKeyAnswerSchema>;

const rangeOk = (q: { from?: string; to?: string }) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to);
const rangeShort = (q: { from?: string; to?: string }) =>
  !q.from || !q.to || Date.parse(q.to) - Date.parse(q.from) <= MAX_LEDGER_RANGE_DAYS * 86_400_000;

/** Longest warehouse batch number a scope names (the warehouse record's batchNo). */
export const MAX_BATCH_NO = 64;

/** One scope: a task, a device over [from, to), the approved records of a warehouse batch, or one warehouse record. */
const scopeFields = {
  taskId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  /** The device's row id (uuid). */
  deviceId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  from: z.preprocess(blankAsUndefined, isoInstant.optional()),
  to: z.preprocess(blankAsUndefined, isoInstant.optional()),
  /** A batch number: every approved record of it in the caller's organisation tree. */
  warehouseBatch: z.preprocess(blankAsUndefined, z.string().trim().min(1).max(MAX_BATCH_NO).optional()),
  warehouseRecordId: z.preprocess(blankAsUndefined, z.uuid().optional()),
};

/** The one thing a records call or a share covers (a share stores it as is). */
export type LedgerScope = { taskId: string } | { deviceId: string; from: string; to: string } | { warehouseBatch: string } | { warehouseRecordId: string };

type ScopeShape = { taskId?: string; deviceId?: string; from?: string; to?: string; warehouseBatch?: string; warehouseRecordId?: string };

function scopeChecks<T extends z.ZodType<ScopeShape>>(s: T) {
  return s
    .refine((q) => [q.taskId, q.deviceId, q.warehouseBatch, q.warehouseRecordId].filter(Boolean).length === 1 && (!q.deviceId || (q.from && q.to)), {
      message: 'LEDGER_SCOPE_REQUIRED',
      path: ['taskId'],
    })
    .refine(rangeOk, { message: 'TRACK_RANGE_INVERTED', path: ['to'] })
    .refine(rangeShort, { message: 'LEDGER_RANGE_TOO_LONG', path: ['to'] });
}

export const recordsQuerySchema = scopeChecks(
  z.object({
    ...scopeFields,
    /** Leaves after this index (the previous answer's `next`). */
    after: z.preprocess(blankAsUndefined, treeIndex.optional()),
  }),
);
export type RecordsQuery = z.infer<typeof recordsQuerySchema>;

export const publicRecordsQuerySchema = z.object({ after: z.preprocess(blankAsUndefined, treeIndex.optional()) });

/** One reading as the sensor-minute digest covers it (see modules/ledger/sources.ts). */
export const ledgerReadingSchema = z.object({ time: z.string() }).catchall(jsonValueSchema);

export const ledgerItemSchema = z.object({
  index: z.number(),
  ref: z.string(),
  kind: z.enum(['sensor.minute', 'custody', 'alarm', 'retention.removal']),
  /** The leaf bytes (canonical record) and their RFC 6962 leaf hash. */
  data: b64,
  leafHash: b64,
  /** The decoded leaf. */
  record: ledgerRecordSchema,
  /** Audit path to the checkpoint's size; null while the leaf is newer than the checkpoint. */
  proof: z.array(b64).nullable(),
  /** sensor.minute: the minute's readings as stored now, to recompute the digest from. */
  readings: z.array(ledgerReadingSchema).optional(),
  /** custody and alarm: the record rebuilt from the rows as stored now (null: the rows are gone). */
  currentRecord: ledgerRecordSchema.nullable().optional(),
  /**
   * sensor.minute: the logged retention removal (leaf kind retention.removal) whose span holds
   * this minute, with its own proof to the same checkpoint; a minute whose readings are gone
   * verifies as removed under its policy only through it.
   */
  removal: z.object({ index: z.number(), data: b64, proof: z.array(b64).nullable() }).optional(),
});
export type LedgerItem = z.infer<typeof ledgerItemSchema>;

export const recordsAnswerSchema = z.object({
  /** The latest signed checkpoint (null before the first). */
  checkpoint: z.string().nullable(),
  /** When the server signed that checkpoint (ISO 8601; the server's word, not part of the signed note). */
  signedAt: z.string().nullable(),
  verifierKey: z.string(),
  origin: z.string(),
  items: z.array(ledgerItemSchema),
  /** `after` for the next page; null on the last. */
  next: z.number().nullable(),
});
export type RecordsAnswer = z.infer<typeof recordsAnswerSchema>;

/** The expiries the console offers, in days; the maker may also pick a date up to the longest. */
export const SHARE_EXPIRY_DAYS = [1, 7, 30, 90, 365] as const;
/** A link made without an expiry ends after this many days. */
export const DEFAULT_SHARE_EXPIRY_DAYS = 30;
/**
 * The longest a link lives: five years, the time GSP keeps cold-chain records, so a link can
 * serve an inspection for as long as the records themselves must be kept. No link is endless.
 */
export const MAX_SHARE_EXPIRY_DAYS = 1826;

export const shareBodySchema = scopeChecks(
  z.object({
    ...scopeFields,
    /** Days from now; default DEFAULT_SHARE_EXPIRY_DAYS. */
    expiresInDays: z.number().int().min(1).max(MAX_SHARE_EXPIRY_DAYS).optional(),
    /** An instant instead (in the future, at most MAX_SHARE_EXPIRY_DAYS away: the server checks it). */
    expiresAt: z.preprocess(blankAsUndefined, isoInstant.optional()),
  }),
).refine((b) => b.expiresInDays === undefined || b.expiresAt === undefined, { message: 'LEDGER_SHARE_EXPIRY_ONE', path: ['expiresAt'] });
export type ShareBody = z.infer<typeof shareBodySchema>;

export const shareAnswerSchema = z.object({
  /** The link's id: the share list and the revoke call name it (never the token). */
  id: z.string(),
  token: z.string(),
  /** The public verification page (absolute when PUBLIC_URL is set). */
  url: z.string(),
  apiUrl: z.string(),
  expiresAt: z.string(),
});
export type ShareAnswer = z.infer<typeof shareAnswerSchema>;

export const SHARE_KINDS = ['task', 'device', 'batch', 'warehouseRecord'] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];
export const SHARE_STATUSES = ['active', 'expired', 'revoked'] as const;
export type ShareStatus = (typeof SHARE_STATUSES)[number];

export const shareQuerySchema = listQuerySchema.extend({
  status: z.preprocess(blankAsUndefined, z.enum(SHARE_STATUSES).optional()),
  kind: z.preprocess(blankAsUndefined, z.enum(SHARE_KINDS).optional()),
});
export type ShareQuery = z.infer<typeof shareQuerySchema>;

/** One link of the organisation tree, as its list shows it (the token is never shown again). */
export const shareRowSchema = z.object({
  id: z.string(),
  kind: z.enum(SHARE_KINDS),
  /**
   * What it covers, in words the same in every language: a task's code and goods, a device's id
   * and name, a batch number, or a warehouse record's goods and batch ('' when the subject is gone).
   */
  subject: z.string(),
  /** A device range's bounds (null for the other kinds). */
  from: z.string().nullable(),
  to: z.string().nullable(),
  orgName: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
  status: z.enum(SHARE_STATUSES),
});
export type ShareRow = z.infer<typeof shareRowSchema>;

/** What a share publishes about its subject besides the records. */
export const shareSubjectSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('task'), code: z.string(), goodsName: z.string(), origin: z.string(), destination: z.string() }),
  z.object({ kind: z.literal('device'), deviceId: z.string(), name: z.string(), from: z.string(), to: z.string() }),
  /** `records`: approved records of the batch; `goods`: their distinct goods names, the first few. */
  z.object({ kind: z.literal('batch'), batchNo: z.string(), records: z.number(), goods: z.array(z.string()) }),
  z.object({
    kind: z.literal('warehouseRecord'),
    batchNo: z.string(),
    goodsName: z.string(),
    warehouse: z.string(),
    direction: z.enum(['in', 'out']),
    time: z.string(),
  }),
]);
export type ShareSubject = z.infer<typeof shareSubjectSchema>;

export const publicRecordsAnswerSchema = recordsAnswerSchema.extend({ subject: shareSubjectSchema, expiresAt: z.string() });
export type PublicRecordsAnswer = z.infer<typeof publicRecordsAnswerSchema>;

/**
 * Why a record does not verify (null: it does). `removed`: its readings were removed by a
 * retention rule that the ledger logged (not a problem, not a verification either).
 */
export const VERIFY_REASONS = ['digest-mismatch', 'not-included', 'bad-signature', 'pending', 'removed'] as const;
export type VerifyReason = (typeof VERIFY_REASONS)[number];
/** The logged removal a `removed` verdict rests on. */
export interface RemovalInfo {
  policy: string;
  removedAt: string;
  /** Its leaf index. */
  index: number;
}
export interface RecordVerdict {
  index: number;
  ref: string;
  ok: boolean;
  reason: VerifyReason | null;
  removal?: RemovalInfo;
}
