// Share links of the ledger (issue 9, ended by issue 19): a link publishes one scope's records
// (a task, a device range, a warehouse batch or one warehouse record) without login until it
// ends, at its expiry (DEFAULT_SHARE_EXPIRY_DAYS unless the maker picks another, never more than
// MAX_SHARE_EXPIRY_DAYS) or when someone of its organisation tree revokes it. Only the token's
// SHA-256 is stored and the token is shown once, in the answer that makes it: the list, the
// revoke call and the audit log name a link by its id. An ended link answers 410 with why
// (LEDGER_SHARE_EXPIRED, LEDGER_SHARE_REVOKED), a token never made 404 (LEDGER_SHARE_UNKNOWN).
import type { SQL } from 'drizzle-orm';
import type { Page } from '@iotc/shared/envelope';
import {
  DEFAULT_SHARE_EXPIRY_DAYS,
  LEDGER_API,
  MAX_SHARE_EXPIRY_DAYS,
  SHARE_KINDS,
  ledgerSharePage,
  type LedgerScope,
  type PublicRecordsAnswer,
  type RecordsAnswer,
  type ShareAnswer,
  type ShareBody,
  type ShareKind,
  type ShareQuery,
  type ShareRow,
  type ShareSubject,
  type VerifyReason,
} from '@iotc/shared/ledger/api';
import { toBase64 } from '@iotc/shared/ledger/bytes';
import { parseCheckpoint, splitNote } from '@iotc/shared/ledger/checkpoint';
import type { LedgerRecord } from '@iotc/shared/ledger/leaf';
import type { Permission } from '@iotc/shared/platform';
import type { Db } from '../../db/client.ts';
import { orgTree, toPage } from '../../db/list.ts';
import { AppError } from '../../lib/errors.ts';
import { linkExpiry, linkTokenHash, newLinkToken, openLink, publicLinkUrl, type LinkKind } from '../../lib/public-link.ts';
import type { ClientMeta } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import type { Caller } from '../../lib/caller.ts';
import { insertShare, revokeShare, shareById, shareByTokenHash, sharePage, shareRow, type ShareRecord } from './share-repo.ts';
import { verifyRecords } from './verify.ts';

/** Most records a certificate verifies (a device over a year is ~500,000 minutes). */
export const MAX_CERTIFICATE_RECORDS = 100_000;

/** What a share's certificate states, verified when it is asked for. */
export interface ShareVerification {
  subject: ShareSubject;
  orgName: string;
  expiresAt: string;
  /** The latest signed checkpoint the records were checked against (null before the first). */
  checkpoint: { note: string; origin: string; size: number; rootHash: string; signedAt: string | null } | null;
  verifierKey: string;
  origin: string;
  /** Records covered (at most MAX_CERTIFICATE_RECORDS are checked; truncated says more exist). */
  total: number;
  verified: number;
  /** Newer than the checkpoint: in the log, not yet under a signed head. */
  pending: number;
  /** Records whose readings a logged retention rule removed (not failures). */
  removed: number;
  /** The distinct removals those rest on (policy and date). */
  removals: { policy: string; removedAt: string }[];
  failures: { index: number; ref: string; kind: LedgerRecord['kind']; reason: VerifyReason; record: LedgerRecord }[];
  truncated: boolean;
  checkedAt: string;
  /** The public verification page the certificate's QR code opens. */
  url: string;
}

/** The read permission a scope of each kind needs (to make, list or revoke its links). */
export const SHARE_PERMISSION: Record<ShareKind, Permission> = {
  task: 'transport:read',
  device: 'device:read',
  batch: 'warehouse:read',
  warehouseRecord: 'warehouse:read',
};

export function scopeKind(scope: LedgerScope): ShareKind {
  if ('taskId' in scope) return 'task';
  if ('deviceId' in scope) return 'device';
  if ('warehouseBatch' in scope) return 'batch';
  return 'warehouseRecord';
}

/** What the ledger service lends the links: a scope's leaves and subject, a page of its records. */
export interface ScopeReader {
  /** The leaves of a scope inside the organisations `tree` and its subject; 404 when the subject is not there. */
  resolve(scope: LedgerScope, tree: readonly string[]): Promise<{ where: SQL; subject: ShareSubject; orgId: string }>;
  page(where: SQL, after: number | undefined): Promise<RecordsAnswer>;
  orgName(orgId: string): Promise<string>;
}

export interface ShareOptions {
  scopes: ScopeReader;
  /** The audit log's recorder; without it nothing is recorded (a test's bare service). */
  audit?: AuditWriter;
  /** PUBLIC_URL, for absolute share links. */
  publicUrl?: string;
  now: () => Date;
}

const SHARE_LINK: LinkKind = {
  defaultDays: DEFAULT_SHARE_EXPIRY_DAYS,
  maxDays: MAX_SHARE_EXPIRY_DAYS,
  codes: { range: 'LEDGER_SHARE_EXPIRY_RANGE', unknown: 'LEDGER_SHARE_UNKNOWN', revoked: 'LEDGER_SHARE_REVOKED', expired: 'LEDGER_SHARE_EXPIRED' },
};

/** A link's subject in the audit log: its kind and id, never its token. */
const auditDetail = (share: Pick<ShareRecord, 'id' | 'kind'>, extra = '') => `${share.kind} ${share.id}${extra}`;

export function shareService(db: Db, opts: ShareOptions) {
  const { scopes, now } = opts;
  const record = opts.audit ? successRecorder(opts.audit) : async (..._: unknown[]) => {};

  async function need(caller: Caller, permission: Permission) {
    if (!caller.permissions.includes(permission)) throw new AppError(403, 'NO_PERMISSION');
  }

  /** A live link by its token with what it covers; 404 for a token never made, 410 for an ended link. */
  async function open(token: string) {
    const share = openLink(SHARE_LINK, await shareByTokenHash(db, linkTokenHash(token)), now());
    const { where, subject } = await scopes.resolve(share.scope as LedgerScope, await orgTree(db, share.orgId));
    return { share, where, subject };
  }

  /** A link of the caller's organisation tree (404 for any other) of a kind the caller may read (else 403). */
  async function visible(caller: Caller, id: string): Promise<ShareRecord> {
    const share = await shareById(db, id);
    if (!share || !caller.scope.has(share.orgId)) throw new AppError(404, 'NOT_FOUND');
    await need(caller, SHARE_PERMISSION[share.kind as ShareKind]);
    return share;
  }

  return {
    /** Makes a link of one scope; the token is in this answer only. */
    async create(caller: Caller, body: ShareBody, meta: ClientMeta): Promise<ShareAnswer> {
      const scope = scopeOf(body);
      const kind = scopeKind(scope);
      await need(caller, SHARE_PERMISSION[kind]);
      const expiresAt = linkExpiry(SHARE_LINK, body, now());
      const { orgId } = await scopes.resolve(scope, caller.scope.orgs);
      const { token, tokenHash } = newLinkToken();
      const share = await db.transaction(async (tx) => {
        const made = await insertShare(tx, { tokenHash, orgId, kind, scope, createdBy: caller.account, expiresAt });
        await record(tx, caller, orgId, 'ledger_share_create', auditDetail(made, ` until ${expiresAt.toISOString()}`), meta);
        return made;
      });
      return {
        id: share.id,
        token,
        url: publicLinkUrl(opts.publicUrl, ledgerSharePage(token)),
        apiUrl: LEDGER_API.public(token),
        expiresAt: expiresAt.toISOString(),
      };
    },

    /** The links of the caller's organisation tree whose kind the caller may read. */
    async list(caller: Caller, q: ShareQuery): Promise<Page<ShareRow>> {
      const held = caller.permissions;
      const kinds = SHARE_KINDS.filter((k) => held.includes(SHARE_PERMISSION[k]));
      if (kinds.length === 0) throw new AppError(403, 'NO_PERMISSION');
      const { rows, total } = await sharePage(db, q, caller.scope.orgs, kinds, now());
      return toPage(rows, total, q);
    },

    /** Ends a link now; revoking an ended link again changes nothing and records nothing. */
    async revoke(caller: Caller, id: string, meta: ClientMeta): Promise<ShareRow> {
      const share = await visible(caller, id);
      await db.transaction(async (tx) => {
        const { changed } = await revokeShare(tx, share.id, caller.account, now());
        if (changed) await record(tx, caller, share.orgId, 'ledger_share_revoke', auditDetail(share), meta);
      });
      return (await shareRow(db, share.id, now()))!;
    },

    /** The records a live link publishes. */
    async publicRecords(token: string, after?: number): Promise<PublicRecordsAnswer> {
      const { share, where, subject } = await open(token);
      return { ...(await scopes.page(where, after)), subject, expiresAt: share.expiresAt.toISOString() };
    },

    /**
     * Every record of a live link verified now, as the public page verifies them (verify.ts), for
     * its certificate. `origin`: the request's, when PUBLIC_URL is unset.
     */
    async verification(token: string, origin: string): Promise<ShareVerification> {
      const { share, where, subject } = await open(token);
      const out: ShareVerification = {
        subject,
        orgName: await scopes.orgName(share.orgId),
        expiresAt: share.expiresAt.toISOString(),
        checkpoint: null,
        verifierKey: '',
        origin: '',
        total: 0,
        verified: 0,
        pending: 0,
        removed: 0,
        removals: [],
        failures: [],
        truncated: false,
        checkedAt: now().toISOString(),
        url: `${(opts.publicUrl ?? origin).replace(/\/$/, '')}${ledgerSharePage(token)}`,
      };
      let after: number | undefined;
      for (;;) {
        const answer = await scopes.page(where, after);
        if (out.checkpoint === null && answer.checkpoint) {
          const cp = parseCheckpoint(splitNote(answer.checkpoint).body);
          out.checkpoint = { note: answer.checkpoint, origin: cp.origin, size: cp.size, rootHash: toBase64(cp.rootHash), signedAt: answer.signedAt };
        }
        out.verifierKey = answer.verifierKey;
        out.origin = answer.origin;
        const verdicts = await verifyRecords({ ...answer, origin: answer.origin });
        verdicts.forEach((v, i) => {
          out.total++;
          if (v.ok) out.verified++;
          else if (v.reason === 'pending') out.pending++;
          else if (v.reason === 'removed') {
            out.removed++;
            if (v.removal && !out.removals.some((r) => r.policy === v.removal!.policy && r.removedAt === v.removal!.removedAt)) {
              out.removals.push({ policy: v.removal.policy, removedAt: v.removal.removedAt });
            }
          }
          else out.failures.push({ index: v.index, ref: v.ref, kind: answer.items[i]!.kind, reason: v.reason!, record: answer.items[i]!.record });
        });
        if (answer.next === null) break;
        if (out.total >= MAX_CERTIFICATE_RECORDS) {
          out.truncated = true;
          break;
        }
        after = answer.next;
      }
      return out;
    },
  };
}
export type ShareService = ReturnType<typeof shareService>;

/** The one scope a records query or a share body names. */
export function scopeOf(q: { taskId?: string; deviceId?: string; from?: string; to?: string; warehouseBatch?: string; warehouseRecordId?: string }): LedgerScope {
  if (q.taskId) return { taskId: q.taskId };
  if (q.deviceId && q.from && q.to) return { deviceId: q.deviceId, from: q.from, to: q.to };
  if (q.warehouseBatch) return { warehouseBatch: q.warehouseBatch };
  if (q.warehouseRecordId) return { warehouseRecordId: q.warehouseRecordId };
  throw new AppError(400, 'LEDGER_SCOPE_REQUIRED');
}
