// Electronic signatures: the signer proves who they are again (their password, checked as the
// sign-in checks it and counted toward the same lock-out), then the signature (who, when, what it
// means, and the hash of the record as signed) is written in the transaction of the approval or
// close it signs, with its audit row. `list` answers each signature with whether the record as it
// is now still hashes the same. A user whose account is bound to an external identity may prove
// who they are by signing in again at the provider instead (modules/sso `reauthStart`, a forced
// sign-in whose single-use proof comes back here): the signature's method is then 'sso'.
import { and, asc, eq } from 'drizzle-orm';
import { LOGIN_FAILURE_WINDOW_MS, LOGIN_MAX_FAILURES } from '@iotc/shared/constants';
import { GSP_ASSET_KINDS, gspDays, gspMode } from '@iotc/shared/gsp-report';
import { gspRecordId, type GspRecordKey, type GspSignBody, type SignatureMeaning, type SignatureProof, type SignatureRecordType, type SignatureRow, type TaskSignBody } from '@iotc/shared/signature';
import type { Db, Tx } from '../../db/client.ts';
import { assets, signatures, transportTasks, users } from '../../db/schema.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { verifyPassword } from '../../lib/password.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { authRepo } from '../auth/repo.ts';
import { takeReauthProof } from '../sso/service.ts';
import { contentHash, recordContent } from './content.ts';

/** A caller who has just proven who they are: what a signature is made from. */
export interface Signer {
  userId: string;
  account: string;
  name: string;
  method: 'password' | 'sso';
  meta: ClientMeta;
}

type SignatureRecord = typeof signatures.$inferSelect;

const toRow = (s: SignatureRecord, current: string | null): SignatureRow => ({
  id: s.id,
  recordType: s.recordType,
  recordId: s.recordId,
  meaning: s.meaning,
  signerId: s.signerId,
  signerAccount: s.signerAccount,
  signerName: s.signerName,
  method: s.method,
  recordHash: s.recordHash,
  signedAt: s.signedAt.toISOString(),
  matches: current !== null && current === s.recordHash,
});

/** The signatures of one record of an organisation, oldest first. */
function rowsOf(q: Db | Tx, orgId: string, type: SignatureRecordType, id: string): Promise<SignatureRecord[]> {
  return q
    .select()
    .from(signatures)
    .where(and(eq(signatures.orgId, orgId), eq(signatures.recordType, type), eq(signatures.recordId, id)))
    .orderBy(asc(signatures.signedAt), asc(signatures.id));
}

/** The signatures of a record, oldest first, each with whether the record as it is now still matches; null when the record is gone. */
async function withMatches(db: Db, type: SignatureRecordType, id: string): Promise<{ orgId: string; rows: SignatureRow[] } | null> {
  const c = await recordContent(db, type, id);
  if (!c) return null;
  const current = contentHash(c.content);
  return { orgId: c.orgId, rows: (await rowsOf(db, c.orgId, type, id)).map((s) => toRow(s, current)) };
}

/** The signatures of a record, oldest first, each with whether the record as it is now still matches (for documents such as the PDFs; no scope check). */
export async function signaturesOfRecord(db: Db, type: SignatureRecordType, id: string): Promise<SignatureRow[]> {
  return (await withMatches(db, type, id))?.rows ?? [];
}

/**
 * The two-person rule of a document: nobody signs it twice with one meaning, and whoever signed
 * it with one meaning (responsible) does not sign it with the other (reviewed).
 */
async function twoPeople(tx: Tx, orgId: string, type: SignatureRecordType, id: string, signer: Signer, meaning: SignatureMeaning): Promise<void> {
  const mine = (await rowsOf(tx, orgId, type, id)).filter((s) => s.signerId === signer.userId);
  if (mine.some((s) => s.meaning === meaning)) throw new AppError(409, 'SIGNATURE_ALREADY_SIGNED');
  if (mine.some((s) => s.meaning !== meaning)) throw new AppError(403, 'SIGNATURE_SAME_PERSON');
}

export interface SignatureOptions {
  audit: AuditWriter;
  now?: () => Date;
}

export function signatureService(db: Db, opts: SignatureOptions) {
  const now = opts.now ?? (() => new Date());
  // The sign-in's failure count: a wrong signing password counts toward the same lock-out.
  const failures = authRepo(db);

  /** The asset of a GSP record, in the caller's tree (404 otherwise) and of a kind with a GSP record. */
  async function gspAsset(caller: Caller, key: GspRecordKey): Promise<{ id: string; orgId: string; kind: string }> {
    const [a] = await db.select({ id: assets.id, orgId: assets.orgId, kind: assets.kind }).from(assets).where(eq(assets.id, key.assetId));
    if (!a || !caller.scope.has(a.orgId)) throw new AppError(404, 'NOT_FOUND');
    if (!(GSP_ASSET_KINDS as readonly string[]).includes(a.kind)) throw new AppError(400, 'GSP_ASSET_KIND');
    return a;
  }

  const service = {
    /**
     * Checks the caller's password again, before the transaction of the change (a wrong one is
     * counted toward the sign-in lock-out and audited, which must not roll back with the change),
     * or takes the proof of their sign-in again at the external provider.
     */
    async prove(caller: Caller, proof: SignatureProof, meta: ClientMeta): Promise<Signer> {
      const [u] = await db.select({ id: users.id, account: users.account, name: users.name, passwordHash: users.passwordHash }).from(users).where(eq(users.id, caller.userId));
      if (!u) throw new AppError(401, 'TOKEN_INVALID');
      const refuse = async (status: number, code: 'TOO_MANY_ATTEMPTS' | 'SIGNATURE_PASSWORD_WRONG' | 'SSO_REAUTH_INVALID'): Promise<never> => {
        await opts.audit(db, { orgId: caller.orgId, userId: caller.userId, account: caller.account, action: 'signature', result: 'failure', detail: code, ...meta });
        throw new AppError(status, code);
      };
      if (proof.ssoProof) {
        if (!(await takeReauthProof(db, u.id, proof.ssoProof))) return refuse(400, 'SSO_REAUTH_INVALID');
        return { userId: u.id, account: u.account, name: u.name, method: 'sso', meta };
      }
      const password = proof.password;
      if (!password) throw new AppError(400, 'SIGNATURE_PASSWORD_REQUIRED');
      if ((await failures.recentFailures(u.account, new Date(now().getTime() - LOGIN_FAILURE_WINDOW_MS))) >= LOGIN_MAX_FAILURES) return refuse(429, 'TOO_MANY_ATTEMPTS');
      if (!(await verifyPassword(u.passwordHash, password))) {
        await failures.recordFailure(u.account, meta.ip);
        // 400, not 401: the session stands, only this signature is refused.
        return refuse(400, 'SIGNATURE_PASSWORD_WRONG');
      }
      return { userId: u.id, account: u.account, name: u.name, method: 'password', meta };
    },

    /**
     * Signs the record in `tx` (the transaction of the change it signs, after the change): the
     * hash of the record as it now stands, the signature row and its audit row.
     */
    async sign(tx: Tx, signer: Signer, what: { recordType: SignatureRecordType; recordId: string; meaning: SignatureMeaning }): Promise<SignatureRow> {
      const c = await recordContent(tx, what.recordType, what.recordId);
      if (!c) throw new AppError(404, 'NOT_FOUND');
      const recordHash = contentHash(c.content);
      const [s] = await tx
        .insert(signatures)
        .values({
          orgId: c.orgId,
          recordType: what.recordType,
          recordId: what.recordId,
          meaning: what.meaning,
          signerId: signer.userId,
          signerAccount: signer.account,
          signerName: signer.name,
          method: signer.method,
          recordHash,
          signedAt: now(),
        })
        .returning();
      await opts.audit(tx, {
        orgId: c.orgId,
        userId: signer.userId,
        account: signer.account,
        action: 'signature',
        result: 'success',
        detail: `${what.recordType} ${what.recordId} ${what.meaning} sha256:${recordHash}`,
        ...signer.meta,
      });
      return toRow(s!, recordHash);
    },

    /** The record's signatures, oldest first, each with whether the record still matches it; 404 outside the caller's tree. */
    async list(caller: Caller, type: SignatureRecordType, id: string): Promise<SignatureRow[]> {
      const found = await withMatches(db, type, id);
      if (!found || !caller.scope.has(found.orgId)) throw new AppError(404, 'NOT_FOUND');
      return found.rows;
    },

    /** The signatures of a record as it is now, for the PDFs (no scope check: the caller already read the record). */
    ofRecord: (type: SignatureRecordType, id: string) => signaturesOfRecord(db, type, id),

    /**
     * Signs a task's GSP record or shipment report as reviewed or responsible: the reviewer is
     * not the person responsible (and the other way round), and nobody signs twice with one meaning.
     */
    async signTask(caller: Caller, taskId: string, body: TaskSignBody, meta: ClientMeta): Promise<SignatureRow> {
      const [task] = /^[0-9a-f-]{36}$/i.test(taskId) ? await db.select({ orgId: transportTasks.orgId }).from(transportTasks).where(eq(transportTasks.id, taskId)) : [];
      if (!task || !caller.scope.has(task.orgId)) throw new AppError(404, 'NOT_FOUND');
      const signer = await service.prove(caller, body, meta);
      return db.transaction(async (tx) => {
        // One signing of a task at a time: the two-person check reads what the other wrote.
        await tx.select({ id: transportTasks.id }).from(transportTasks).where(eq(transportTasks.id, taskId)).for('update');
        await twoPeople(tx, task.orgId, body.document, taskId, signer, body.meaning);
        return service.sign(tx, signer, { recordType: body.document, recordId: taskId, meaning: body.meaning });
      });
    },

    /**
     * Signs an asset's GSP record (its day or month, cut in `tz`) as recorded (responsible) or
     * reviewed, once the period is over: the reader of the record (device:read, checked by the
     * route) who may also write in its area (storage: warehouse:write; transport:
     * transport:write, as a task's GSP record); the reviewer is not the person who recorded it.
     */
    async signGspRecord(caller: Caller, body: GspSignBody, tz: string, meta: ClientMeta): Promise<SignatureRow> {
      const a = await gspAsset(caller, body);
      if (!caller.permissions.includes(gspMode(a.kind) === 'storage' ? 'warehouse:write' : 'transport:write')) throw new AppError(403, 'NO_PERMISSION');
      const days = gspDays(body.period, body.date, tz);
      if (days[days.length - 1]!.to > now().getTime()) throw new AppError(409, 'SIGNATURE_RECORD_OPEN');
      const signer = await service.prove(caller, body, meta);
      const recordId = gspRecordId(body, tz);
      return db.transaction(async (tx) => {
        // One signing of the asset's records at a time: the two-person check reads what the other wrote.
        await tx.select({ id: assets.id }).from(assets).where(eq(assets.id, a.id)).for('update');
        await twoPeople(tx, a.orgId, 'asset_gsp_record', recordId, signer, body.meaning);
        return service.sign(tx, signer, { recordType: 'asset_gsp_record', recordId, meaning: body.meaning });
      });
    },

    /** The signatures of an asset's GSP record (its day or month cut in `tz`), oldest first, each with whether the record still matches. */
    async listGspRecord(caller: Caller, key: GspRecordKey, tz: string): Promise<SignatureRow[]> {
      await gspAsset(caller, key);
      return service.list(caller, 'asset_gsp_record', gspRecordId(key, tz));
    },

  };
  return service;
}

export type SignatureService = ReturnType<typeof signatureService>;
