// The check the verification screens make in the browser, for the server's own uses (the
// command-line verifier, the PDF certificate): the tree head's signature, then each record with
// packages/shared's checkItem (the leaf rebuilt from the rows as stored now against the logged
// leaf, a logged retention removal for readings that are gone, then inclusion in the signed
// tree). Pure: only packages/shared, so it can run anywhere.
import type { LedgerItem, RecordVerdict, VerifyReason } from '@iotc/shared/ledger/api';
import { openCheckpoint, type Checkpoint } from '@iotc/shared/ledger/checkpoint';
import { checkItem } from '@iotc/shared/ledger/verify';

export interface VerifyInput {
  checkpoint: string | null;
  verifierKey: string;
  /** When given, the checkpoint must be of this log. */
  origin?: string;
  items: readonly LedgerItem[];
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
    const c = checkItem(item, checkpoint);
    const verdict: RecordVerdict = { index: item.index, ref: item.ref, ok: c.result === 'verified', reason: c.result === 'verified' ? null : c.result };
    if (c.removal) verdict.removal = c.removal;
    return verdict;
  });
}
