// Frame layer of the JT/T 808 codec: escaping, check code, header of every edition, the stream
// deframer (frames split anywhere, junk, endless frames) and the typed errors of broken frames.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  checkCode,
  decodeFrame,
  decodeHeader,
  Deframer,
  encodeFrame,
  encodeHeader,
  escape,
  MAX_BODY_BYTES,
  MAX_FRAME_BYTES,
  unescape,
  type HeaderFields,
} from './codec.ts';
import { Jt808Error } from './errors.ts';
import { thrown } from './test-helpers.ts';
import { goJt808, traccar } from './testdata/frames.ts';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

/** Bytes with 0x7e and 0x7d much more often than chance would give them. */
const bytesArb = (maxLength = 300) =>
  fc
    .array(fc.oneof(fc.constant(0x7e), fc.constant(0x7d), fc.integer({ min: 0, max: 255 })), { maxLength })
    .map((a) => Buffer.from(a));

const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));

const headerArb: fc.Arbitrary<HeaderFields> = fc.boolean().chain((v2019) =>
  fc.record(
    {
      messageId: fc.integer({ min: 0, max: 0xffff }),
      phone: digits(v2019 ? 20 : 12),
      serial: fc.integer({ min: 0, max: 0xffff }),
      v2019: fc.constant(v2019),
      protocolVersion: v2019 ? fc.integer({ min: 0, max: 255 }) : fc.constant(0),
      encryption: fc.integer({ min: 0, max: 7 }),
      packages: fc.option(
        fc.integer({ min: 1, max: 0xffff }).chain((total) => fc.record({ total: fc.constant(total), index: fc.integer({ min: 1, max: total }) })),
        { nil: undefined },
      ),
    },
    { requiredKeys: ['messageId', 'phone', 'serial', 'v2019', 'protocolVersion', 'encryption'] },
  ),
);

/** Frames and errors of one stream, pushed in the given pieces. */
function deframe(pieces: Buffer[], max?: number): Array<Buffer | Jt808Error> {
  const d = new Deframer(max);
  return pieces.flatMap((p) => d.push(p));
}

const frames = (items: Array<Buffer | Jt808Error>) => items.filter((i): i is Buffer => Buffer.isBuffer(i)).map((b) => b.toString('hex'));
const errors = (items: Array<Buffer | Jt808Error>) => items.filter((i): i is Jt808Error => i instanceof Jt808Error);

describe('escaping', () => {
  it('maps 0x7e and 0x7d to their two-byte forms and back', () => {
    expect(escape(hex('30 7e 08 7d 55'))).toEqual(hex('30 7d 02 08 7d 01 55'));
    expect(unescape(hex('30 7d 02 08 7d 01 55'))).toEqual(hex('30 7e 08 7d 55'));
  });

  it('round-trips any bytes, and the escaped form never holds a flag', () => {
    fc.assert(
      fc.property(bytesArb(), (bytes) => {
        const escaped = escape(bytes);
        expect(escaped.includes(0x7e)).toBe(false);
        expect(unescape(escaped)).toEqual(bytes);
      }),
    );
  });

  it('refuses 0x7d followed by anything but 0x01 or 0x02', () => {
    for (const bad of ['7d 00', '7d 03', '7d 7d 02', '01 7d 7e']) {
      expect(thrown(() => unescape(hex(bad))).code).toBe('bad-escape');
    }
  });

  it('keeps a lone 0x7d at the very end (an unescaped check code of 0x7d)', () => {
    expect(unescape(hex('01 02 7d'))).toEqual(hex('01 02 7d'));
  });
});

describe('check code', () => {
  it('is the XOR of every byte', () => {
    expect(checkCode(hex('0002 0000 043048325465 00b7'))).toBe(0xca);
    expect(checkCode(Buffer.alloc(0))).toBe(0);
  });

  it('makes header, body and check code XOR to zero', () => {
    fc.assert(
      fc.property(bytesArb(), (bytes) => {
        expect(checkCode(Buffer.concat([bytes, Buffer.from([checkCode(bytes)])]))).toBe(0);
      }),
    );
  });
});

describe('header', () => {
  it('encodes a 2013 heartbeat byte for byte as a terminal sends it', () => {
    expect(encodeFrame({ messageId: 0x0002, phone: '043048325465', serial: 0xb7 }).toString('hex')).toBe(traccar.heartbeat);
  });

  it('encodes a 2019 header with the version flag, version byte and 10-byte phone', () => {
    expect(encodeFrame({ messageId: 0x0002, phone: '17299841738', serial: 0, v2019: true }).toString('hex')).toBe(goJt808.heartbeat2019);
  });

  it('round-trips every field in each edition, with and without subpackage fields', () => {
    fc.assert(
      fc.property(headerArb, bytesArb(MAX_BODY_BYTES), (fields, body) => {
        const [frame, ...rest] = deframe([encodeFrame(fields, body)]);
        expect(rest).toEqual([]);
        const decoded = decodeFrame(frame as Buffer);
        expect(decoded.body).toEqual(body);
        expect(decoded.header).toEqual({
          messageId: fields.messageId,
          bodyLength: body.length,
          encryption: fields.encryption,
          v2019: fields.v2019,
          protocolVersion: fields.v2019 ? fields.protocolVersion : 0,
          phone: fields.phone,
          serial: fields.serial,
          ...(fields.packages ? { packages: fields.packages } : {}),
        });
      }),
      { numRuns: 300 },
    );
  });

  it('pads a short phone with leading zeros to the edition width', () => {
    const h = decodeFrame(deframe([encodeFrame({ messageId: 0x0200, phone: '13912345678', serial: 1 })])[0] as Buffer).header;
    expect(h.phone).toBe('013912345678');
    const h19 = decodeFrame(deframe([encodeFrame({ messageId: 0x0200, phone: '13912345678', serial: 1, v2019: true })])[0] as Buffer).header;
    expect(h19.phone).toBe('00000000013912345678');
  });

  it('refuses what it cannot encode', () => {
    expect(thrown(() => encodeHeader({ messageId: 1, phone: '1', serial: 1 }, MAX_BODY_BYTES + 1)).code).toBe('cannot-encode');
    expect(thrown(() => encodeHeader({ messageId: 1, phone: '1234567890123', serial: 1 }, 0)).code).toBe('cannot-encode');
    expect(thrown(() => encodeHeader({ messageId: 1, phone: '+86139', serial: 1 }, 0)).code).toBe('cannot-encode');
  });

  it('reads a frame with the 2019 flag but a 2013 header as 2013 (its length says so)', () => {
    const body = Buffer.from('J10030000681');
    const frame = Buffer.concat([hex('0102 400c 010030000681 0902'), body]);
    const h = decodeHeader(frame);
    expect(h).toMatchObject({ v2019: false, phone: '010030000681', serial: 0x0902, bodyLength: 12 });
  });

  it('refuses a phone number that is not BCD, naming the message', () => {
    const content = hex('0200 0000 01234567890a 0007');
    const frame = escape(Buffer.concat([content, Buffer.from([checkCode(content)])]));
    expect(thrown(() => decodeFrame(frame))).toMatchObject({ code: 'bad-value', messageId: 0x0200, serial: 7 });
  });
});

describe('broken frames', () => {
  const ok = encodeFrame({ messageId: 0x0200, phone: '013912345678', serial: 0x1234 }, hex('0102030405'));
  const inner = (frame: Buffer) => frame.subarray(1, frame.length - 1);

  it('names the message id, serial and phone of a frame with a wrong check code', () => {
    const spoiled = Buffer.from(inner(ok));
    spoiled[spoiled.length - 1]! ^= 0xff;
    expect(thrown(() => decodeFrame(spoiled))).toMatchObject({
      code: 'bad-check-code',
      messageId: 0x0200,
      serial: 0x1234,
      phone: '013912345678',
    });
  });

  it('refuses a body shorter or longer than its header says, naming the message', () => {
    const content = unescape(inner(ok)).subarray(0, -1);
    const withLength = (n: number) => {
      const c = Buffer.from(content);
      c.writeUInt16BE(n, 2);
      return escape(Buffer.concat([c, Buffer.from([checkCode(c)])]));
    };
    expect(thrown(() => decodeFrame(withLength(6)))).toMatchObject({ code: 'short-body', messageId: 0x0200, serial: 0x1234 });
    expect(thrown(() => decodeFrame(withLength(4)))).toMatchObject({ code: 'long-body', messageId: 0x0200, serial: 0x1234 });
  });

  it('refuses frames too short for a header, and a subpackage header cut short', () => {
    expect(thrown(() => decodeFrame(hex('0002 0000 0430'))).code).toBe('short-frame');
    const cut = hex('0801 2000 001234567890 02de 001a');
    expect(thrown(() => decodeFrame(Buffer.concat([cut, Buffer.from([checkCode(cut)])]))).code).toBe('short-frame');
  });

  it('refuses an invalid escape inside a frame', () => {
    expect(thrown(() => decodeFrame(hex('0002 0000 043048325465 00b7 7d05 ca'))).code).toBe('bad-escape');
  });
});

describe('deframer', () => {
  const bodies = [hex(''), hex('7e7d7e'), Buffer.alloc(700, 0x7e), hex('0102030405060708090a')];
  const sample = bodies.map((b, i) => encodeFrame({ messageId: 0x0200, phone: '013912345678', serial: i }, b));
  const stream = Buffer.concat(sample);
  const expected = sample.map((f) => f.subarray(1, f.length - 1).toString('hex'));

  it('gives the same frames whatever byte boundary a read ends at', () => {
    for (let i = 0; i <= stream.length; i++) {
      const out = deframe([stream.subarray(0, i), stream.subarray(i)]);
      expect(frames(out)).toEqual(expected);
      expect(errors(out)).toEqual([]);
    }
  });

  it('gives the same frames one byte at a time', () => {
    const pieces = [...stream].map((b) => Buffer.from([b]));
    expect(frames(deframe(pieces))).toEqual(expected);
  });

  it('skips junk before, between and after frames, reporting it once per run wherever the reads split', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(bytesArb(40).map((b) => Buffer.from(b.filter((x) => x !== 0x7e))), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 0, max: 10_000 }), { maxLength: 8 }),
        (parts, cuts) => {
          const pieces: Buffer[] = [];
          const want: string[] = [];
          const junkRuns: number[] = [];
          for (const [junk, which] of parts) {
            if (junk.length > 0) junkRuns.push(junk.length);
            pieces.push(junk, sample[which]!);
            want.push(expected[which]!);
          }
          const whole = Buffer.concat(pieces);
          const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
          const reads = [0, ...points, whole.length].slice(1).map((end, i, ends) => whole.subarray(i === 0 ? 0 : ends[i - 1], end));
          const out = deframe(reads);
          expect(frames(out)).toEqual(want);
          expect(errors(out).map((e) => [e.code, e.bytes])).toEqual(junkRuns.map((n) => ['junk', n]));
        },
      ),
    );
  });

  it('takes 7e 7e between frames as the end of one and the start of the next', () => {
    expect(frames(deframe([Buffer.concat([hex('7e7e7e'), sample[3]!, hex('7e'), sample[0]!])]))).toEqual([expected[3], expected[0]]);
  });

  it('drops a frame past the size guard, reports it, and finds the next frame', () => {
    const long = Buffer.concat([hex('7e'), Buffer.alloc(MAX_FRAME_BYTES + 10, 0x41), hex('7e')]);
    const out = deframe([long, sample[3]!]);
    expect(errors(out).map((e) => e.code)).toEqual(['frame-too-long']);
    expect(frames(out)).toEqual([expected[3]]);
  });

  it('never holds more than the guard for an endless frame', () => {
    const d = new Deframer(2048);
    const seen: string[] = [];
    d.push(hex('7e'));
    for (let i = 0; i < 100; i++) {
      for (const item of d.push(Buffer.alloc(1000, 0x41))) seen.push(item instanceof Jt808Error ? item.code : 'frame');
      expect(d.buffered).toBeLessThanOrEqual(2048);
    }
    expect(seen).toEqual(['frame-too-long']);
    // once the endless frame's bytes end, frames are found again
    const out = d.push(Buffer.concat([hex('7e'), sample[1]!]));
    expect(frames(out)).toEqual([expected[1]]);
  });

  it('reports a long run of junk without waiting for a flag', () => {
    const out = deframe([Buffer.alloc(5000, 0x41)], 2048);
    expect(errors(out).map((e) => [e.code, e.bytes])).toEqual([
      ['junk', 2048],
      ['junk', 2048],
    ]);
  });

  it('has a default guard above the largest legal frame with every byte escaped', () => {
    const worst = encodeFrame({ messageId: 0x7e7e, phone: '7'.repeat(20), serial: 0x7e7e, v2019: true, protocolVersion: 0x7e, packages: { total: 0x7e7e, index: 0x7e7e } }, Buffer.alloc(MAX_BODY_BYTES, 0x7e));
    const out = deframe([worst]);
    expect(errors(out)).toEqual([]);
    expect(decodeFrame(out[0] as Buffer).body.length).toBe(MAX_BODY_BYTES);
  });
});
