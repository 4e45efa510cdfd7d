// The ledger check the verification screens make in the browser (issue 9), the same check as the
// server's modules/ledger/verify.ts: the tree head's Ed25519 signature against the published
// verifier key (Web Crypto), then each record with packages/shared's checkItem (the leaf rebuilt
// from the rows as stored now against the logged leaf bytes, a logged retention removal for
// readings that are gone, then the RFC 6962 inclusion in the signed tree). Nothing is taken on
// the server's word: the leaf hash is recomputed from the bytes and the record shown is the one
// decoded from them.
import type { LedgerItem, RemovalInfo } from '@iotc/shared/ledger/api';
import { toBase64 } from '@iotc/shared/ledger/bytes';
import { openCheckpoint, type Checkpoint } from '@iotc/shared/ledger/checkpoint';
import type { LedgerRecord } from '@iotc/shared/ledger/leaf';
import { checkItem, type RecordResult } from '@iotc/shared/ledger/verify';

export type { RecordResult };

/** What one records (or public) answer page gives the verifier. */
export interface VerifyInput {
  checkpoint: string | null;
  /** When the server says it signed the checkpoint (not covered by the signature). */
  signedAt?: string | null;
  verifierKey: string;
  origin: string;
  items: readonly LedgerItem[];
}

export interface CheckedRecord {
  item: LedgerItem;
  /** The record decoded from the logged leaf bytes (the server's decoding when the bytes are unreadable). */
  record: LedgerRecord;
  result: RecordResult;
  /** The logged removal a `removed` result rests on. */
  removal?: RemovalInfo;
}

export interface CheckpointInfo {
  origin: string;
  size: number;
  /** Standard base64, as the checkpoint prints it. */
  rootHash: string;
  note: string;
  /** The server's signing time of this head (display only: the note's signature does not cover it). */
  signedAt: string | null;
}

export type SignatureState = 'valid' | 'invalid' | 'none';

export interface Verification {
  /** The signed tree head, when its signature verified. */
  checkpoint: CheckpointInfo | null;
  signature: SignatureState;
  verifierKey: string;
  origin: string;
  records: CheckedRecord[];
  verified: number;
  pending: number;
  /** Records whose readings a logged retention rule removed (not problems). */
  removed: number;
  /** Records that do not verify (pending and removed ones are not problems). */
  problems: number;
}

function tally(v: Omit<Verification, 'verified' | 'pending' | 'removed' | 'problems'>): Verification {
  let verified = 0;
  let pending = 0;
  let removed = 0;
  for (const r of v.records) {
    if (r.result === 'verified') verified++;
    else if (r.result === 'pending') pending++;
    else if (r.result === 'removed') removed++;
  }
  return { ...v, verified, pending, removed, problems: v.records.length - verified - pending - removed };
}

/** Checks one answer page in the browser; never throws for bad data (it reports it). */
export async function verifyAnswer(input: VerifyInput): Promise<Verification> {
  const base = { verifierKey: input.verifierKey, origin: input.origin };
  if (!input.checkpoint) {
    return tally({ ...base, checkpoint: null, signature: 'none', records: input.items.map((item) => ({ item, record: item.record, result: 'pending' as const })) });
  }
  let checkpoint: Checkpoint;
  try {
    checkpoint = await openCheckpoint(input.checkpoint, input.verifierKey, input.origin);
  } catch {
    return tally({ ...base, checkpoint: null, signature: 'invalid', records: input.items.map((item) => ({ item, record: item.record, result: 'bad-signature' as const })) });
  }
  return tally({
    ...base,
    checkpoint: { origin: checkpoint.origin, size: checkpoint.size, rootHash: toBase64(checkpoint.rootHash), note: input.checkpoint, signedAt: input.signedAt ?? null },
    signature: 'valid',
    records: input.items.map((item) => ({ item, ...checkItem(item, checkpoint) })),
  });
}

/**
 * Checks the pages of one scope. Each page is checked against the tree head it came with (a head
 * signed between two page calls gives the later pages proofs to that newer head); the summary
 * shows the newest head.
 */
export async function verifyPages(pages: readonly VerifyInput[]): Promise<Verification | null> {
  if (pages.length === 0) return null;
  const checked = await Promise.all(pages.map(verifyAnswer));
  const signature: SignatureState = checked.some((c) => c.signature === 'invalid') ? 'invalid' : checked.some((c) => c.signature === 'none') && checked.every((c) => c.signature !== 'valid') ? 'none' : 'valid';
  const newest = checked.reduce<CheckpointInfo | null>((best, c) => (c.checkpoint && (!best || c.checkpoint.size > best.size) ? c.checkpoint : best), null);
  const last = checked.at(-1)!;
  return tally({ checkpoint: newest, signature, verifierKey: last.verifierKey, origin: last.origin, records: checked.flatMap((c) => c.records) });
}
