// The check of one ledger record against a signed tree head, the same in the browser (the
// verification screens), on the server (certificates, share summaries) and in the command-line
// verifier: the record rebuilt from the rows as stored now against the logged leaf bytes (for a
// sensor minute: the digest of the minute's current readings), then the logged leaf's RFC 6962
// inclusion in the signed tree. Nothing is taken on the server's word: the leaf hash is
// recomputed from the bytes and the record reported is the one decoded from them.
//
// A sensor minute whose readings are fewer than logged verifies as `removed` only when the item
// carries a logged retention removal (leaf kind retention.removal) of the same organisation and
// device whose span holds the minute, and that removal is itself in the signed tree. Readings
// changed in place (as many as logged, other values) stay a `digest-mismatch` whatever removal
// is shown.
import type { LedgerItem, RemovalInfo, VerifyReason } from './api.ts';
import { bytesEqual, fromBase64 } from './bytes.ts';
import type { Checkpoint } from './checkpoint.ts';
import { decodeLeaf, encodeLeaf, sensorMinuteRecord, type LedgerRecord, type Reading, type SensorMinuteRecord } from './leaf.ts';
import { leafHash, verifyInclusion } from './merkle.ts';

export type RecordResult = 'verified' | VerifyReason;

export interface CheckedItem {
  /** The record decoded from the logged leaf bytes (the server's decoding when the bytes are unreadable). */
  record: LedgerRecord;
  result: RecordResult;
  /** The logged removal a `removed` result rests on. */
  removal?: RemovalInfo;
}

/** The leaf bytes the rows as stored now make, or null when they make none. */
function currentBytes(item: LedgerItem, logged: LedgerRecord): Uint8Array | null {
  try {
    if (logged.kind === 'sensor.minute') {
      if (!item.readings?.length) return null;
      return encodeLeaf(sensorMinuteRecord(logged.orgId, logged.deviceId, logged.minute, item.readings as Reading[]));
    }
    // A removal states what was done: there are no rows to rebuild it from.
    if (logged.kind === 'retention.removal') return encodeLeaf(logged);
    return item.currentRecord ? encodeLeaf(item.currentRecord) : null;
  } catch {
    return null;
  }
}

/** Whether leaf bytes at `index` are in the signed tree by this proof. */
function inclusion(index: number, bytes: Uint8Array, proof: readonly string[] | null | undefined, checkpoint: Checkpoint): 'verified' | 'pending' | 'not-included' {
  if (!proof || index >= checkpoint.size) return 'pending';
  let path: Uint8Array[];
  try {
    path = proof.map(fromBase64);
  } catch {
    return 'not-included';
  }
  return verifyInclusion(index, checkpoint.size, leafHash(bytes), path, checkpoint.rootHash) ? 'verified' : 'not-included';
}

/** The item's logged removal when it accounts for this minute's missing readings. */
function removalFor(item: LedgerItem, minute: SensorMinuteRecord): { bytes: Uint8Array; info: RemovalInfo } | null {
  if (!item.removal || (item.readings?.length ?? 0) >= minute.count) return null;
  try {
    const bytes = fromBase64(item.removal.data);
    const r = decodeLeaf(bytes);
    if (r.kind !== 'retention.removal' || r.orgId !== minute.orgId || r.deviceId !== minute.deviceId) return null;
    if (!(r.from <= minute.minute && minute.minute < r.to)) return null;
    return { bytes, info: { policy: r.policy, removedAt: r.removedAt, index: item.removal.index } };
  } catch {
    return null;
  }
}

/** Checks one record against an opened (signature-checked) checkpoint; never throws for bad data. */
export function checkItem(item: LedgerItem, checkpoint: Checkpoint): CheckedItem {
  let bytes: Uint8Array;
  let logged: LedgerRecord;
  try {
    bytes = fromBase64(item.data);
    logged = decodeLeaf(bytes);
  } catch {
    return { record: item.record, result: 'digest-mismatch' };
  }
  const now = currentBytes(item, logged);
  if (now && bytesEqual(now, bytes)) return { record: logged, result: inclusion(item.index, bytes, item.proof, checkpoint) };
  const removal = logged.kind === 'sensor.minute' ? removalFor(item, logged) : null;
  if (!removal) return { record: logged, result: 'digest-mismatch' };
  // Both the minute and the removal must be in the signed tree.
  const minuteIn = inclusion(item.index, bytes, item.proof, checkpoint);
  if (minuteIn !== 'verified') return { record: logged, result: minuteIn };
  const removalIn = inclusion(removal.info.index, removal.bytes, item.removal!.proof, checkpoint);
  if (removalIn !== 'verified') return { record: logged, result: removalIn };
  return { record: logged, result: 'removed', removal: removal.info };
}
