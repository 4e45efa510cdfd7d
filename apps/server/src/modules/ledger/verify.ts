// The check the verification screens make in the browser, for the server's own uses (the
// command-line verifier, the PDF certificate): the tree head's signature, then per record the
// leaf rebuilt from the rows as stored now against the logged leaf, then the logged leaf's
// inclusion in the signed tree. Pure: only packages/shared, so it can run anywhere.
import type { LedgerItem, RecordVerdict, VerifyReason } from '@iotc/shared/ledger/api';
import { bytesEqual, fromBase64 } from '@iotc/shared/ledger/bytes';
import { openCheckpoint, type Checkpoint } from '@iotc/shared/ledger/checkpoint';
import { decodeLeaf, encodeLeaf, sensorMinuteRecord } from '@iotc/shared/ledger/leaf';
import { leafHash, verifyInclusion } from '@iotc/shared/ledger/merkle';

export interface VerifyInput {
  checkpoint: string | null;
  verifierKey: string;
  /** When given, the checkpoint must be of this log. */
  origin?: string;
  items: readonly LedgerItem[];
}

/** The leaf bytes the current rows make, or null when they make none (rows gone, or not a record). */
function currentBytes(item: LedgerItem, logged: Uint8Array): Uint8Array | null {
  try {
    if (item.kind === 'sensor.minute') {
      const record = decodeLeaf(logged);
      if (record.kind !== 'sensor.minute' || !item.readings?.length) return null;
      return encodeLeaf(sensorMinuteRecord(record.orgId, record.deviceId, record.minute, item.readings as Parameters<typeof sensorMinuteRecord>[3]));
    }
    return item.currentRecord ? encodeLeaf(item.currentRecord) : null;
  } catch {
    return null;
  }
}

function verdict(item: LedgerItem, checkpoint: Checkpoint): VerifyReason | null {
  let logged: Uint8Array;
  try {
    logged = fromBase64(item.data);
  } catch {
    return 'digest-mismatch';
  }
  const now = currentBytes(item, logged);
  if (!now || !bytesEqual(now, logged)) return 'digest-mismatch';
  if (!item.proof || item.index >= checkpoint.size) return 'pending';
  let proof: Uint8Array[];
  try {
    proof = item.proof.map(fromBase64);
  } catch {
    return 'not-included';
  }
  return verifyInclusion(item.index, checkpoint.size, leafHash(logged), proof, checkpoint.rootHash) ? null : 'not-included';
}

export async function verifyRecords(input: VerifyInput): Promise<RecordVerdict[]> {
  const all = (reason: VerifyReason) => input.items.map((i) => ({ index: i.index, ref: i.ref, ok: false, reason }));
  if (!input.checkpoint) return all('pending');
  let checkpoint: Checkpoint;
  try {
    checkpoint = await openCheckpoint(input.checkpoint, input.verifierKey, input.origin);
  } catch {
    return all('bad-signature');
  }
  return input.items.map((item) => {
    const reason = verdict(item, checkpoint);
    return { index: item.index, ref: item.ref, ok: reason === null, reason };
  });
}
