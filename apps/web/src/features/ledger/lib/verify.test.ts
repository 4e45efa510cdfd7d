// The browser verifier on a ledger made with the shared functions: everything verifies; a changed
// stored reading flags exactly its minute; a changed custody row, a cut proof, a leaf newer than the
// checkpoint, a forged or foreign tree head and no tree head at all each give their own result.
// Runs in jsdom, where Node's own Web Crypto (with Ed25519) stays available.
import { describe, expect, it } from 'vitest';
import { generateNoteKeys } from '@iotc/shared/ledger/checkpoint';
import { BASE, makeLedger, ORIGIN, removeReadings, tamperReading } from './test-ledger.ts';
import { verifyAnswer, verifyPages } from './verify.ts';

const results = (v: { records: { item: { index: number }; result: string }[] }) => v.records.map((r) => [r.item.index, r.result]);

describe('verifyAnswer', () => {
  it('verifies every record of an untouched ledger', async () => {
    const { answer } = await makeLedger();
    const v = await verifyAnswer(answer);
    expect(v.signature).toBe('valid');
    expect(v.checkpoint).toMatchObject({ origin: ORIGIN, size: 5 });
    expect(v.records.every((r) => r.result === 'verified')).toBe(true);
    expect([v.verified, v.pending, v.problems]).toEqual([5, 0, 0]);
  });

  it('flags exactly the minute whose stored reading changed', async () => {
    const { answer } = await makeLedger();
    const v = await verifyAnswer(tamperReading(answer, 1, -25));
    expect(results(v)).toEqual([
      [0, 'verified'],
      [1, 'digest-mismatch'],
      [2, 'verified'],
      [3, 'verified'],
      [4, 'verified'],
    ]);
    expect(v.problems).toBe(1);
  });

  it('flags a minute whose readings are gone or grew', async () => {
    const { answer } = await makeLedger();
    const gone = { ...answer, items: answer.items.map((i) => (i.index === 0 ? { ...i, readings: [] } : i)) };
    expect(results(await verifyAnswer(gone))[0]).toEqual([0, 'digest-mismatch']);
    const extra = { ...answer, items: answer.items.map((i) => (i.index === 2 ? { ...i, readings: [...i.readings!, { ...i.readings![0]!, time: i.readings![0]!.time.replace(':05.', ':59.') }] } : i)) };
    expect(results(await verifyAnswer(extra))[2]).toEqual([2, 'digest-mismatch']);
  });

  it('shows minutes whose readings a logged retention rule removed as removed, with the policy and its date, not as problems', async () => {
    // The removal spans the first two minutes; their readings are gone (the second keeps one).
    const { answer } = await makeLedger({ removal: { from: BASE, to: BASE + 2 * 60_000 } });
    const v = await verifyAnswer(removeReadings(removeReadings(answer, [0]), [1], 1));
    expect(results(v)).toEqual([
      [0, 'removed'],
      [1, 'removed'],
      [2, 'verified'],
      [3, 'verified'],
      [4, 'verified'],
      [5, 'verified'],
    ]);
    expect(v.records[0]!.removal).toEqual({ policy: 'Packs kept 365 days (Demo)', removedAt: '2026-11-24T06:04:00.000Z', index: 5 });
    expect([v.verified, v.pending, v.removed, v.problems]).toEqual([4, 0, 2, 0]);
  });

  it('excuses nothing with a removal that does not span the minute, is of another device, or leaves every reading in place', async () => {
    const { answer } = await makeLedger({ removal: { from: BASE, to: BASE + 60_000 } });
    // Minute 1 lies outside the removal's span.
    expect(results(await verifyAnswer(removeReadings(answer, [1])))[1]).toEqual([1, 'digest-mismatch']);
    // As many readings as logged, one of them changed: an edit, not a removal.
    const edited = tamperReading(removeReadings(answer, [0], 3), 0, -5);
    expect(results(await verifyAnswer(edited))[0]).toEqual([0, 'digest-mismatch']);
    const other = await makeLedger({ removal: { from: BASE, to: BASE + 60_000, deviceId: 'LG00000002' } });
    expect(results(await verifyAnswer(removeReadings(other.answer, [0])))[0]).toEqual([0, 'digest-mismatch']);
    // A removal whose proof does not lead to the signed root.
    const cut = removeReadings(answer, [0]);
    cut.items[0] = { ...cut.items[0]!, removal: { ...cut.items[0]!.removal!, proof: cut.items[0]!.removal!.proof!.slice(1) } };
    expect(results(await verifyAnswer(cut))[0]).toEqual([0, 'not-included']);
  });

  it('keeps a removed minute pending until its removal is in a signed tree head', async () => {
    const { answer } = await makeLedger({ removal: { from: BASE, to: BASE + 60_000 }, pending: 1 });
    const v = await verifyAnswer(removeReadings(answer, [0]));
    expect(results(v)[0]).toEqual([0, 'pending']);
    expect(results(v)[5]).toEqual([5, 'pending']);
  });

  it('flags a custody record changed or deleted in its table', async () => {
    const { answer } = await makeLedger();
    const item = answer.items[3]!;
    const changed = { ...answer, items: [{ ...item, currentRecord: { ...item.currentRecord!, actor: 'someone-else' } as typeof item.currentRecord }] };
    expect(results(await verifyAnswer(changed))).toEqual([[3, 'digest-mismatch']]);
    expect(results(await verifyAnswer({ ...answer, items: [{ ...item, currentRecord: null }] }))).toEqual([[3, 'digest-mismatch']]);
  });

  it('flags a leaf whose proof does not lead to the signed root, and leaf bytes that were swapped', async () => {
    const { answer } = await makeLedger();
    const item = answer.items[4]!;
    expect(results(await verifyAnswer({ ...answer, items: [{ ...item, proof: item.proof!.slice(1) }] }))).toEqual([[4, 'not-included']]);
    // Another leaf's bytes and record under this index: consistent with themselves, not in the tree there.
    const other = answer.items[3]!;
    expect(results(await verifyAnswer({ ...answer, items: [{ ...other, index: 4, proof: item.proof }] }))).toEqual([[4, 'not-included']]);
  });

  it('reports leaves newer than the checkpoint as pending', async () => {
    const { answer } = await makeLedger({ pending: 2 });
    const v = await verifyAnswer(answer);
    expect(results(v).map(([, r]) => r)).toEqual(['verified', 'verified', 'verified', 'pending', 'pending']);
    expect([v.verified, v.pending, v.problems]).toEqual([3, 2, 0]);
  });

  it('rejects a forged signature, another key and another log, and has no tree head to check without one', async () => {
    const { answer } = await makeLedger();
    const forged = answer.checkpoint!.replace(/ (\S)(\S+)\n$/, (_m, c: string, rest: string) => ` ${c}${rest[0] === 'A' ? 'B' : 'A'}${rest.slice(1)}\n`);
    for (const bad of [{ ...answer, checkpoint: forged }, { ...answer, verifierKey: (await generateNoteKeys(ORIGIN)).verifierKey }, { ...answer, origin: 'other.example/log' }]) {
      const v = await verifyAnswer(bad);
      expect(v.signature).toBe('invalid');
      expect(v.records.every((r) => r.result === 'bad-signature')).toBe(true);
      expect(v.problems).toBe(5);
    }
    const none = await verifyAnswer({ ...answer, checkpoint: null });
    expect(none.signature).toBe('none');
    expect(none.pending).toBe(5);
  });

  it('shows the record decoded from the logged bytes, not the one the server sent beside them', async () => {
    const { answer } = await makeLedger();
    const item = answer.items[3]!;
    const v = await verifyAnswer({ ...answer, items: [{ ...item, record: { ...item.record, actor: 'decoy' } as typeof item.record }] });
    expect(v.records[0]!.record).toMatchObject({ actor: 'demo' });
    expect(v.records[0]!.result).toBe('verified');
  });
});

describe('verifyPages', () => {
  it('joins the pages of a scope', async () => {
    const { answer } = await makeLedger();
    const v = (await verifyPages([
      { ...answer, items: answer.items.slice(0, 2) },
      { ...tamperReading(answer, 2, 3), items: tamperReading(answer, 2, 3).items.slice(2) },
    ]))!;
    expect(results(v).map(([, r]) => r)).toEqual(['verified', 'verified', 'digest-mismatch', 'verified', 'verified']);
    expect(v.checkpoint?.size).toBe(5);
    expect(await verifyPages([])).toBeNull();
  });
});
