// Electronic signatures (21 CFR Part 11 / GSP style): approving a warehouse record or a remote
// command, closing a work order, and signing a transport task's GSP record or shipment report ask
// the signer for their password again (or a sign-in again at the external provider) and a meaning; the signature (name, time, meaning and the
// hash of the record as signed) is kept with the record, logged in the ledger, and checked
// against the record as it is now (`matches`). The service is apps/server/src/modules/signature.
// The GSP temperature and humidity record of an asset (a cold room's day, a vehicle's month) is
// signed too, as 'asset_gsp_record': its record id names the asset, the period and the time zone
// the days are cut in (gspRecordId), since the same day cut in another zone is another record.
import { z } from 'zod';
import { GSP_PERIODS, isGspDate, type GspPeriod } from './gsp-report.ts';

export const SIGNATURE_RECORD_TYPES = ['warehouse_record', 'command', 'work_order', 'gsp_record', 'shipment_report', 'asset_gsp_record'] as const;
export type SignatureRecordType = (typeof SIGNATURE_RECORD_TYPES)[number];

export const SIGNATURE_MEANINGS = ['approved', 'rejected', 'reviewed', 'responsible'] as const;
export type SignatureMeaning = (typeof SIGNATURE_MEANINGS)[number];

/** The documents of a transport task that are signed on their own. */
export const TASK_DOCUMENTS = ['gsp_record', 'shipment_report'] as const;
export type TaskDocument = (typeof TASK_DOCUMENTS)[number];

/** What a signature on a task document may mean: the person responsible, or the reviewer. */
export const TASK_DOCUMENT_MEANINGS = ['reviewed', 'responsible'] as const;

/** The re-entered password of a signature (never stored, never logged). */
export const signaturePasswordSchema = z.string({ message: 'SIGNATURE_PASSWORD_REQUIRED' }).min(1, { message: 'SIGNATURE_PASSWORD_REQUIRED' }).max(128);

/** The single-use proof of a sign-in again at the external provider (POST /sso/reauth, then the provider), in place of the password. */
export const signatureSsoProofSchema = z.string().min(20).max(200);

/** How a signer proves who they are: the password again, or the proof of a sign-in again at the external provider (one of them; the service asks for the password when neither is given). */
export const signatureProofFields = {
  password: signaturePasswordSchema.optional(),
  ssoProof: signatureSsoProofSchema.optional(),
};
export interface SignatureProof {
  password?: string | undefined;
  ssoProof?: string | undefined;
}

/** What an approval, rejection or close carries to sign it: the password again (or the external proof) and, optionally, the meaning (the action's default otherwise). */
export const signatureFieldsSchema = z.object({
  ...signatureProofFields,
  meaning: z.enum(SIGNATURE_MEANINGS).optional(),
});
export type SignatureFields = z.infer<typeof signatureFieldsSchema>;

/** POST /transport-tasks/:id/signatures: sign the task's GSP record or shipment report. */
export const taskSignBodySchema = z.object({
  document: z.enum(TASK_DOCUMENTS),
  meaning: z.enum(TASK_DOCUMENT_MEANINGS),
  ...signatureProofFields,
});
export type TaskSignBody = z.infer<typeof taskSignBodySchema>;

export const signatureRowSchema = z.object({
  id: z.string(),
  recordType: z.enum(SIGNATURE_RECORD_TYPES),
  recordId: z.string(),
  meaning: z.enum(SIGNATURE_MEANINGS),
  signerId: z.string(),
  signerAccount: z.string(),
  signerName: z.string(),
  method: z.enum(['password', 'sso']),
  /** SHA-256 (hex) of the record's canonical content as signed. */
  recordHash: z.string(),
  signedAt: z.string(),
  /** Whether the record as it is now still hashes to `recordHash` (false: changed after signing). */
  matches: z.boolean(),
});
export type SignatureRow = z.infer<typeof signatureRowSchema>;

export const signatureQuerySchema = z.object({
  recordType: z.enum(SIGNATURE_RECORD_TYPES),
  recordId: z.string().min(1).max(200),
});
export type SignatureQuery = z.infer<typeof signatureQuerySchema>;

export const taskSignatureQuerySchema = z.object({ document: z.enum(TASK_DOCUMENTS).optional() });

/** What names an asset's GSP record: the asset, day or month, and the date (YYYY-MM-DD or YYYY-MM). */
export const gspRecordKeySchema = z
  .object({
    assetId: z.uuid(),
    period: z.enum(GSP_PERIODS).default('day'),
    date: z.string(),
  })
  .refine((q) => isGspDate(q.period, q.date), { path: ['date'], message: 'date must be YYYY-MM-DD for a day or YYYY-MM for a month' });
export type GspRecordKey = z.infer<typeof gspRecordKeySchema>;

/** POST /reports/temperature/signatures: sign an asset's GSP record as recorded (responsible) or reviewed. */
export const gspSignBodySchema = z
  .object({
    assetId: z.uuid(),
    period: z.enum(GSP_PERIODS).default('day'),
    date: z.string(),
    meaning: z.enum(TASK_DOCUMENT_MEANINGS),
    ...signatureProofFields,
  })
  .refine((q) => isGspDate(q.period, q.date), { path: ['date'], message: 'date must be YYYY-MM-DD for a day or YYYY-MM for a month' });
export type GspSignBody = z.infer<typeof gspSignBodySchema>;

/** The record id of an asset's GSP record: `<assetId>/<day|month>/<date>/<time zone>`. */
export const gspRecordId = (key: { assetId: string; period: GspPeriod; date: string }, tz: string): string => `${key.assetId}/${key.period}/${key.date}/${tz}`;

/** The parts of a GSP record id, or null when it is not one. */
export function parseGspRecordId(id: string): { assetId: string; period: GspPeriod; date: string; tz: string } | null {
  const m = /^([0-9a-f-]{36})\/(day|month)\/([0-9-]{7,10})\/(.{1,64})$/i.exec(id);
  if (!m) return null;
  const period = m[2] as GspPeriod;
  return isGspDate(period, m[3]!) ? { assetId: m[1]!, period, date: m[3]!, tz: m[4]! } : null;
}

export const SIGNATURE_API = {
  /** GET ?recordType&recordId → SignatureRow[] (with matches). */
  signatures: '/api/iot/v2/signatures',
  /** GET (?document) → SignatureRow[]; POST TaskSignBody → SignatureRow. */
  taskSignatures: (taskId: string) => `/api/iot/v2/transport-tasks/${taskId}/signatures`,
  /** GET GspRecordKey → SignatureRow[] of the asset's GSP record in the request's time zone; POST GspSignBody → SignatureRow. */
  gspSignatures: '/api/iot/v2/reports/temperature/signatures',
} as const;

/** The meaning an action's signature takes when none is given. */
export const DEFAULT_MEANING = { approve: 'approved', reject: 'rejected', close: 'responsible' } as const satisfies Record<string, SignatureMeaning>;
