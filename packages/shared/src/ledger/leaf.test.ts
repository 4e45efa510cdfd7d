// The leaf encoding: one record, one byte string, whatever order the fields came in; decoding
// gives the record back and refuses anything but the canonical bytes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fromUtf8, toHex, utf8 } from './bytes.ts';
import { canonicalJson } from './canonical-json.ts';
import {
  ALARM_EVENTS,
  CUSTODY_EVENTS,
  decodeLeaf,
  encodeLeaf,
  LeafError,
  readingsDigest,
  recordLeafHash,
  sensorMinuteRecord,
  type LedgerRecord,
  type Reading,
} from './leaf.ts';
import { leafHash } from './merkle.ts';
import { sha256 } from '@noble/hashes/sha2';

const ORG = '0b6f3c1e-8d0a-4c47-9a59-2f1e6d3b7a10';

const sensor: LedgerRecord = {
  v: 1,
  kind: 'sensor.minute',
  orgId: ORG,
  deviceId: '860000000000001',
  minute: '2026-11-24T06:31:00.000Z',
  count: 2,
  readingsSha256: 'a'.repeat(64),
};
const custody: LedgerRecord = {
  v: 1,
  kind: 'custody',
  orgId: ORG,
  event: 'task.handover',
  subjectId: 'task-42',
  time: '2026-11-24T06:31:12.345Z',
  actor: 'user-7',
  fields: { to: 'user-9', seals: ['S1', 'S2'], temperature: -18.5, note: null, signed: true },
};
const alarm: LedgerRecord = {
  v: 1,
  kind: 'alarm',
  orgId: ORG,
  event: 'opened',
  alarmId: 'alarm-1',
  deviceId: '860000000000001',
  time: '2026-11-24T06:32:00.000Z',
  fields: { rule: 'temperature.high', value: 9.1 },
};

/** The same object with its keys (at every depth) in a shuffled order. */
function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => shuffleKeys(v, seed + i));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  const order = keys.map((k, i) => ({ k, r: Math.sin(seed * 9301 + i * 49297) })).sort((a, b) => a.r - b.r);
  return Object.fromEntries(order.map(({ k }) => [k, shuffleKeys((value as Record<string, unknown>)[k], seed + 1)]));
}

const isoTime = fc
  .integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) })
  .map((t) => new Date(t).toISOString());
const id = fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/);
const jsonFields = fc.dictionary(
  fc.string({ maxLength: 8 }),
  fc
    .jsonValue({ maxDepth: 2 })
    // fast-check may generate "__proto__" keys, which encodeLeaf refuses (tested apart).
    .filter((v) => !JSON.stringify(v).includes('"__proto__"'))
    .map((v) => JSON.parse(JSON.stringify(v)) as unknown),
  { maxKeys: 4 },
);

const record: fc.Arbitrary<LedgerRecord> = fc.oneof(
  fc.record({
    v: fc.constant(1 as const),
    kind: fc.constant('sensor.minute' as const),
    orgId: id,
    deviceId: id,
    minute: isoTime.map((t) => `${t.slice(0, 17)}00.000Z`),
    count: fc.integer({ min: 1, max: 10_000 }),
    readingsSha256: fc.uint8Array({ minLength: 32, maxLength: 32 }).map(toHex),
  }),
  fc.record({
    v: fc.constant(1 as const),
    kind: fc.constant('custody' as const),
    orgId: id,
    event: fc.constantFrom(...CUSTODY_EVENTS),
    subjectId: id,
    time: isoTime,
    actor: id,
    fields: jsonFields,
  }),
  fc.record({
    v: fc.constant(1 as const),
    kind: fc.constant('alarm' as const),
    orgId: id,
    event: fc.constantFrom(...ALARM_EVENTS),
    alarmId: id,
    deviceId: id,
    time: isoTime,
    fields: jsonFields,
  }),
) as fc.Arbitrary<LedgerRecord>;

describe('canonical JSON (RFC 8785)', () => {
  it('sorts keys by UTF-16 code units and prints numbers as ECMAScript does', () => {
    // From RFC 8785 section 3.2.3's sorting example and section 3.2.2.3's number forms.
    expect(canonicalJson({ '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ud83d\ude00': 'Emoji: Grinning Face', '1': 'One', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis', '\ufb33': 'Hebrew Letter Dalet With Dagesh' })).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    expect(canonicalJson([Number('333333333.33333329'), 1e30, 4.5, 0.002, 1e-27, -0, 0])).toBe('[333333333.3333333,1e+30,4.5,0.002,1e-27,0,0]');
  });

  it('refuses what JSON cannot carry', () => {
    for (const bad of [NaN, Infinity, undefined, () => 1, 1n, new Date(0), '\ud800', { a: undefined }]) {
      expect(() => canonicalJson(bad)).toThrow(TypeError);
    }
  });
});

describe('leaf encoding', () => {
  it('encodes the documented form', () => {
    const text = fromUtf8(encodeLeaf(sensor));
    expect(text).toBe(
      `{"count":2,"deviceId":"860000000000001","kind":"sensor.minute","minute":"2026-11-24T06:31:00.000Z","orgId":"${ORG}","readingsSha256":"${'a'.repeat(64)}","v":1}`,
    );
    expect(fromUtf8(encodeLeaf(custody))).toBe(
      `{"actor":"user-7","event":"task.handover","fields":{"note":null,"seals":["S1","S2"],"signed":true,"temperature":-18.5,"to":"user-9"},"kind":"custody","orgId":"${ORG}","subjectId":"task-42","time":"2026-11-24T06:31:12.345Z","v":1}`,
    );
    expect(recordLeafHash(alarm)).toEqual(leafHash(encodeLeaf(alarm)));
  });

  it('is deterministic whatever the key order, and round-trips', () => {
    fc.assert(
      fc.property(record, fc.integer(), (r, seed) => {
        const bytes = encodeLeaf(r);
        expect(encodeLeaf(shuffleKeys(r, seed) as LedgerRecord)).toEqual(bytes);
        const back = decodeLeaf(bytes);
        expect(encodeLeaf(back)).toEqual(bytes);
        expect(canonicalJson(back)).toBe(canonicalJson(r));
      }),
    );
  });

  it('gives different records different bytes', () => {
    fc.assert(
      fc.property(record, record, (a, b) => {
        fc.pre(canonicalJson(a) !== canonicalJson(b));
        expect(encodeLeaf(a)).not.toEqual(encodeLeaf(b));
      }),
    );
    const variants: LedgerRecord[] = [
      sensor,
      { ...sensor, count: 3 },
      { ...sensor, minute: '2026-11-24T06:32:00.000Z' },
      { ...sensor, deviceId: '860000000000002' },
      custody,
      { ...custody, event: 'task.ended' },
      { ...custody, fields: {} },
      alarm,
      { ...alarm, event: 'closed' },
    ];
    expect(new Set(variants.map((v) => toHex(encodeLeaf(v)))).size).toBe(variants.length);
  });

  it.each([
    ['an unknown kind', { ...sensor, kind: 'other' }],
    ['another version', { ...sensor, v: 2 }],
    ['an unknown field', { ...sensor, extra: 1 }],
    ['a missing field', { ...custody, actor: undefined }],
    ['a minute that is not a minute start', { ...sensor, minute: '2026-11-24T06:31:05.000Z' }],
    ['a time without milliseconds', { ...custody, time: '2026-11-24T06:31:12Z' }],
    ['a time with an offset', { ...custody, time: '2026-11-24T06:31:12.345+08:00' }],
    ['an impossible date', { ...custody, time: '2026-02-30T06:31:12.345Z' }],
    ['a zero count', { ...sensor, count: 0 }],
    ['a fractional count', { ...sensor, count: 1.5 }],
    ['an upper-case digest', { ...sensor, readingsSha256: 'A'.repeat(64) }],
    ['an empty id', { ...alarm, alarmId: '' }],
    ['an unknown custody event', { ...custody, event: 'task.deleted' }],
    ['a non-finite field', { ...alarm, fields: { value: Infinity } }],
  ])('refuses %s', (_what, bad) => {
    expect(() => encodeLeaf(bad as unknown as LedgerRecord)).toThrow(LeafError);
  });

  it('refuses a record that validation would change rather than hash something else', () => {
    const withProto = JSON.parse(
      `{"v":1,"kind":"alarm","orgId":"o","event":"opened","alarmId":"a","deviceId":"d","time":"2026-11-24T06:32:00.000Z","fields":{"__proto__":{"x":1},"b":2}}`,
    ) as LedgerRecord;
    expect(() => encodeLeaf(withProto)).toThrow(LeafError);
    expect(() => encodeLeaf({ ...alarm, fields: { ['\ud800']: 1 } } as LedgerRecord)).toThrow(LeafError);
  });

  it('decodes only canonical bytes', () => {
    const text = fromUtf8(encodeLeaf(sensor));
    expect(decodeLeaf(utf8(text))).toEqual(sensor);
    expect(() => decodeLeaf(utf8(` ${text}`))).toThrow(LeafError);
    expect(() => decodeLeaf(utf8(JSON.stringify(sensor)))).toThrow(LeafError); // insertion order, not sorted
    expect(() => decodeLeaf(utf8(text.replace('"count":2', '"count":2.0')))).toThrow(LeafError);
    expect(() => decodeLeaf(utf8(text.replace('"v":1', '"v":1,"v":1')))).toThrow(LeafError);
    expect(() => decodeLeaf(new Uint8Array([0xff, 0xfe]))).toThrow(LeafError);
    expect(() => decodeLeaf(utf8('[]'))).toThrow(LeafError);
  });
});

describe('sensor minute digest', () => {
  const readings: Reading[] = [
    { time: '2026-11-24T06:31:40.000Z', temperature: 4.5, humidity: 61 },
    { time: '2026-11-24T06:31:10.000Z', temperature: 4.4, humidity: 60 },
    { time: '2026-11-24T06:31:10.000Z', temperature: 4.6, humidity: 60 },
  ];

  it('hashes the canonical JSON of the readings sorted by time', () => {
    const sorted = [readings[1], readings[2], readings[0]];
    const expected = toHex(sha256(utf8(canonicalJson(sorted))));
    expect(readingsDigest(readings)).toEqual({ count: 3, readingsSha256: expected });
    const r = sensorMinuteRecord(ORG, 'dev-1', '2026-11-24T06:31:00.000Z', readings);
    expect(r).toEqual({ v: 1, kind: 'sensor.minute', orgId: ORG, deviceId: 'dev-1', minute: '2026-11-24T06:31:00.000Z', count: 3, readingsSha256: expected });
  });

  it('does not depend on the order or key order of the readings', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(readings, { minLength: 3, maxLength: 3 }), fc.integer(), (shuffled, seed) => {
        expect(readingsDigest(shuffled.map((r) => shuffleKeys(r, seed) as Reading))).toEqual(readingsDigest(readings));
      }),
    );
  });

  it('changes with any reading', () => {
    const changed = readings.map((r, i) => (i === 0 ? { ...r, temperature: 4.6 } : r));
    expect(readingsDigest(changed).readingsSha256).not.toBe(readingsDigest(readings).readingsSha256);
    expect(readingsDigest(readings.slice(1)).readingsSha256).not.toBe(readingsDigest(readings).readingsSha256);
  });

  it('refuses readings outside the minute, without a time, or none at all', () => {
    expect(() => sensorMinuteRecord(ORG, 'dev-1', '2026-11-24T06:31:00.000Z', [{ time: '2026-11-24T06:32:00.000Z' }])).toThrow(LeafError);
    expect(() => sensorMinuteRecord(ORG, 'dev-1', '2026-11-24T06:31:00.000Z', [])).toThrow(LeafError);
    expect(() => readingsDigest([{ time: 'yesterday' }])).toThrow(LeafError);
  });
});
