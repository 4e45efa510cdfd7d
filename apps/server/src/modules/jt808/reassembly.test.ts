// Subpackage reassembly: packages in any order give the whole body once; unfinished sets are
// dropped after the timeout or to stay within the memory bounds, and say what was missing.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeFrame, Deframer, encodePackages, type HeaderFields, type Jt808Frame } from './codec.ts';
import { Jt808Error } from './errors.ts';
import { Reassembler } from './reassembly.ts';

function packages(fields: HeaderFields, body: Buffer, size: number): Jt808Frame[] {
  const d = new Deframer();
  return encodePackages(fields, body, size).flatMap((f) => d.push(f)).map((f) => decodeFrame(f as Buffer));
}

const fields = { messageId: 0x0801, phone: '013912345678', serial: 100 };
const body = Buffer.from(Array.from({ length: 2500 }, (_, i) => i % 251));

describe('reassembler', () => {
  it('gives the whole body with package 1 header once the last package is in', () => {
    const parts = packages(fields, body, 1000);
    expect(parts.map((p) => [p.header.serial, p.header.packages])).toEqual([
      [100, { total: 3, index: 1 }],
      [101, { total: 3, index: 2 }],
      [102, { total: 3, index: 3 }],
    ]);
    const r = new Reassembler();
    expect(r.add(parts[0]!, 0)).toEqual({ dropped: [] });
    expect(r.add(parts[1]!, 1)).toEqual({ dropped: [] });
    const done = r.add(parts[2]!, 2);
    expect(done.message?.body).toEqual(body);
    expect(done.message?.header).toEqual({ ...parts[0]!.header, packages: undefined, bodyLength: body.length });
    expect(done.message?.header).not.toHaveProperty('packages');
    expect(r.size).toBe(0);
    expect(r.heldBytes).toBe(0);
  });

  it('puts packages in any order back together, with re-sent duplicates', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 0xffff }),
        fc.infiniteStream(fc.nat()),
        (total, serial, randoms) => {
          const data = Buffer.from(Array.from({ length: total * 7 - 3 }, (_, i) => (i * 13) & 0xff));
          const parts = packages({ ...fields, serial }, data, 7);
          expect(parts.length).toBe(total);
          const it = randoms[Symbol.iterator]();
          const order = parts.map((p) => ({ p, k: it.next().value as number })).sort((a, b) => a.k - b.k).map((x) => x.p);
          const r = new Reassembler();
          // the first package to arrive is re-sent by the terminal: taken once
          if (total > 1) expect(r.add(order[0]!, 0).message).toBeUndefined();
          let message: Jt808Frame | undefined;
          for (const p of order) {
            const res = r.add(p, 0);
            expect(message).toBeUndefined();
            message = res.message;
          }
          expect(message?.body).toEqual(data);
          expect(message?.header.serial).toBe(serial);
          expect(r.size).toBe(0);
        },
      ),
    );
  });

  it('keeps two messages of the same id apart by their first serial, across the serial wrap', () => {
    const a = packages({ ...fields, serial: 0xfffe }, Buffer.from('aaaaaaaaaa'), 4);
    const b = packages({ ...fields, serial: 2 }, Buffer.from('bbbbbbbbbb'), 4);
    expect(a.map((p) => p.header.serial)).toEqual([0xfffe, 0xffff, 0]);
    const r = new Reassembler();
    const got: string[] = [];
    for (const p of [a[2]!, b[0]!, a[0]!, b[2]!, b[1]!, a[1]!]) {
      const m = r.add(p, 0).message;
      if (m) got.push(m.body.toString());
    }
    expect(got).toEqual(['bbbbbbbbbb', 'aaaaaaaaaa']);
  });

  it('keeps terminals apart by phone', () => {
    const a = packages(fields, Buffer.from('aaaaaa'), 3);
    const b = packages({ ...fields, phone: '013900000000' }, Buffer.from('bbbbbb'), 3);
    const r = new Reassembler();
    expect(r.add(a[0]!, 0).message).toBeUndefined();
    expect(r.add(b[1]!, 0).message).toBeUndefined();
    expect(r.add(a[1]!, 0).message?.body.toString()).toBe('aaaaaa');
    expect(r.add(b[0]!, 0).message?.body.toString()).toBe('bbbbbb');
  });

  it('drops a set silent past the timeout and says which packages never came', () => {
    const parts = packages(fields, body, 500);
    const r = new Reassembler({ timeoutMs: 1000 });
    r.add(parts[0]!, 0);
    r.add(parts[2]!, 500);
    expect(r.expire(1500)).toEqual([]);
    expect(r.expire(1501)).toEqual([{ phone: fields.phone, messageId: 0x0801, firstSerial: 100, total: 5, missing: [2, 4, 5], reason: 'timeout' }]);
    expect(r.size).toBe(0);
    expect(r.heldBytes).toBe(0);
    // a late package starts a new set rather than completing the dropped one
    expect(r.add(parts[1]!, 1600).message).toBeUndefined();
    expect(r.size).toBe(1);
  });

  it('drops timed-out sets when a package arrives, with no timer', () => {
    const r = new Reassembler({ timeoutMs: 10 });
    r.add(packages(fields, Buffer.from('aaaa'), 2)[0]!, 0);
    const res = r.add(packages({ ...fields, serial: 7 }, Buffer.from('bbbb'), 2)[0]!, 11);
    expect(res.dropped.map((d) => [d.firstSerial, d.reason])).toEqual([[100, 'timeout']]);
  });

  it('evicts the oldest sets beyond maxSets', () => {
    const r = new Reassembler({ maxSets: 2 });
    const first = (serial: number) => packages({ ...fields, serial }, Buffer.from('xxxx'), 2)[0]!;
    r.add(first(10), 0);
    r.add(first(20), 1);
    const res = r.add(first(30), 2);
    expect(res.dropped).toEqual([{ phone: fields.phone, messageId: 0x0801, firstSerial: 10, total: 2, missing: [2], reason: 'evicted' }]);
    expect(r.size).toBe(2);
  });

  it('stays within maxBytes, refusing a set that cannot fit', () => {
    const r = new Reassembler({ maxBytes: 1000 });
    const big = packages(fields, Buffer.alloc(3000), 500);
    expect(r.add(big[0]!, 0).dropped.map((d) => d.reason)).toEqual(['too-large']);
    expect(r.heldBytes).toBe(0);
    const a = packages({ ...fields, serial: 1 }, Buffer.alloc(1200), 600);
    const b = packages({ ...fields, serial: 50 }, Buffer.alloc(1200), 600);
    r.add(a[0]!, 0);
    const res = r.add(b[0]!, 1);
    expect(res.dropped.map((d) => [d.firstSerial, d.reason])).toEqual([[1, 'evicted']]);
    expect(r.heldBytes).toBeLessThanOrEqual(1000);
    expect(r.add(b[1]!, 2).message?.body.length).toBe(1200);
  });

  it('refuses a frame that is not a package, or a package number out of range', () => {
    const r = new Reassembler();
    const [p] = packages(fields, Buffer.from('ab'), 1);
    const notPackage = { header: { ...p!.header, packages: undefined }, body: p!.body };
    const outOfRange = { header: { ...p!.header, packages: { total: 2, index: 3 } }, body: p!.body };
    const zero = { header: { ...p!.header, packages: { total: 2, index: 0 } }, body: p!.body };
    for (const frame of [notPackage, outOfRange, zero]) {
      expect(() => r.add(frame, 0)).toThrow(Jt808Error);
    }
  });
});
