// A pack gives back exactly what was packed: every column value for value (NaN, -0 and
// infinities included), the two JSON columns byte for byte, over random days (property tests)
// and over JSON texts as PostgreSQL prints jsonb.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cut, readJsonColumn, readJsonFields, writeJsonColumn } from './json-columns.ts';
import { ByteReader, ByteWriter } from './bytes.ts';
import { decodePack, encodePack, packCount, packRow, type PackRow } from './pack.ts';

/** JSON as PostgreSQL prints a jsonb: ", " and ": " between items, keys by length then bytes. */
function jsonbText(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(jsonbText).join(', ')}]`;
  const keys = Object.keys(v).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}: ${jsonbText((v as Record<string, unknown>)[k])}`).join(', ')}}`;
}

const roundTrip = (texts: string[]) => {
  const w = new ByteWriter();
  writeJsonColumn(w, texts);
  return readJsonColumn(new ByteReader(w.done()), texts.length);
};

describe('JSON texts as columns', () => {
  it('give some top-level values as JSON.parse does, without printing the texts', () => {
    const scalar = fc.oneof(fc.double(), fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.constant(-0));
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.dictionary(fc.constantFrom('temperature', 'door', 'x', '1', 'a"b'), scalar), fc.jsonValue())),
        fc.constantFrom(0, 2),
        (values, layout) => {
          const texts = values.map((v) => (layout === 0 ? JSON.stringify(v) : jsonbText(v)));
          const w = new ByteWriter();
          writeJsonColumn(w, texts);
          const keys = ['temperature', 'door', '1', 'a"b', 'missing'];
          const got = readJsonFields(new ByteReader(w.done()), texts.length, keys);
          const want = texts.map((t) => JSON.parse(t) as unknown);
          if (got === null) {
            // Only when a key holds something nested.
            expect(want.some((v) => v !== null && typeof v === 'object' && !Array.isArray(v) && keys.some((k) => typeof (v as Record<string, unknown>)[k] === 'object' && (v as Record<string, unknown>)[k] !== null))).toBe(true);
            return;
          }
          for (const k of keys) {
            expect(got.get(k)).toEqual(want.map((v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('cuts a report into its shape and leaves', () => {
    expect(cut('{"1": {"batval": 856}, "3": {"temp": -4.50, "humidity": 652}, "pos": "GPS", "ok": true}')).toEqual({
      shape: '{"1": {"batval": \u0001}, "3": {"temp": \u0001, "humidity": \u0001}, "pos": \u0002, "ok": true}',
      leaves: ['856', '-4.50', '652', 'GPS'],
    });
  });

  it('gives back any JSON text byte for byte, in any layout', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.jsonValue(), fc.constantFrom(0, 1, 2))), (items) => {
        const texts = items.map(([v, layout]) => (layout === 0 ? JSON.stringify(v) : layout === 1 ? JSON.stringify(v, null, 2) : jsonbText(v)));
        expect(roundTrip(texts)).toEqual(texts);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps numbers exactly as written (trailing zeros, exponents, long mantissas, negative zero)', () => {
    const texts = ['{"a": 1.50}', '{"a": -0}', '{"a": 1e5}', '{"a": 12345678901234567890.5}', '{"a": 007}', '{"a": -0.001}', '{"a": 2}'];
    expect(roundTrip(texts)).toEqual(texts);
  });

  it('keeps strings with escapes and any characters, and texts that are not JSON', () => {
    const texts = ['{"s": "a\\"b\\\\c\\n\\u0001 ☃ 😀"}', '{"s": "温度"}', 'not json at all 12', '"lonely', ''];
    expect(roundTrip(texts)).toEqual(texts);
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' })), (texts) => {
        expect(roundTrip(texts)).toEqual(texts);
      }),
      { numRuns: 200 },
    );
  });
});

const uuid = fc.constantFrom('8f2c1b9e-0d7a-4c55-9a51-2b6f0e7d1c01', '0b1e6a3c-5d24-4f1b-8a0e-9c7d3e2f4a10');
const decimal = (scale: number, max: number) => fc.integer({ min: -max, max }).map((m) => m / 10 ** scale);
const anyDouble = fc.oneof(fc.double(), fc.constantFrom(-0, Number.NaN, Infinity, -Infinity));
const nullable = <T,>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 5 });

const rowsArb = fc
  .tuple(
    fc.integer({ min: 1_500_000_000_000_000, max: 1_900_000_000_000_000 }),
    fc.array(
      fc.record({
        orgId: uuid,
        step: fc.integer({ min: 1, max: 600_000_000 }),
        late: fc.integer({ min: -5_000_000, max: 86_400_000_000 }),
        lat: nullable(fc.oneof(decimal(6, 90_000_000), anyDouble)),
        lon: nullable(fc.oneof(decimal(6, 180_000_000), anyDouble)),
        positioning: nullable(fc.constantFrom('GPS', 'LBS', 'WIFI')),
        network: nullable(fc.constantFrom('4G', '2G', '5G')),
        speed: nullable(fc.oneof(decimal(1, 2000), anyDouble)),
        course: nullable(fc.integer({ min: 0, max: 359 })),
        sensors: fc.jsonValue().map(jsonbText),
        raw: fc.oneof(fc.jsonValue().map(jsonbText), fc.string()),
      }),
      { maxLength: 60 },
    ),
  )
  .map(([start, items]) => {
    let t = start;
    return items.map(({ step, late, ...rest }): PackRow => {
      t += step;
      return { ...rest, timeUs: t, receivedUs: t + late };
    });
  });

describe('readings packs', () => {
  it('give back every reading exactly (random days)', () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const { data, raw } = encodePack(rows);
        const back = decodePack(data, raw);
        expect(back.n).toBe(rows.length);
        expect(packCount(data)).toBe(rows.length);
        rows.forEach((row, i) => expect(packRow(back, i)).toStrictEqual(row));
      }),
      { numRuns: 200 },
    );
  });

  it('gives back a large number followed by one that needs decimals (fast-check seed 708015211)', () => {
    const base = { orgId: '8f2c1b9e-0d7a-4c55-9a51-2b6f0e7d1c01', lat: null, lon: null, positioning: null, network: null, course: null, sensors: 'null', raw: '' };
    const rows: PackRow[] = [
      { ...base, speed: 571854710788933, timeUs: 1_500_000_000_000_001, receivedUs: 1_500_000_000_000_001 },
      { ...base, speed: 0.1, timeUs: 1_500_000_000_000_002, receivedUs: 1_500_000_000_000_002 },
    ];
    const { data, raw } = encodePack(rows);
    const back = decodePack(data, raw);
    rows.forEach((row, i) => expect(packRow(back, i)).toStrictEqual(row));
  });

  it('read positions without unpacking the sensors or the raw reports', () => {
    const rows: PackRow[] = Array.from({ length: 3 }, (_, i) => ({
      orgId: '8f2c1b9e-0d7a-4c55-9a51-2b6f0e7d1c01',
      timeUs: 1_790_000_000_000_000 + i * 10_000_000,
      receivedUs: 1_790_000_000_000_000 + i * 10_000_000 + 350_123,
      lat: (31_230_416 + i) / 1e6,
      lon: 121.473701,
      positioning: 'GPS',
      network: '4G',
      speed: 42.5,
      course: 90,
      sensors: `{"temperature": ${4 + i / 10}}`,
      raw: `{"1": {"batval": 856}, "3": {"temp": ${40 + i}}}`,
    }));
    const { data } = encodePack(rows);
    const back = decodePack(data, null, { sensors: false });
    expect(back.sensors).toBeUndefined();
    expect(back.raw).toBeUndefined();
    expect(Array.from({ length: back.n }, (_, i) => back.lat.at(i))).toEqual([31.230416, 31.230417, 31.230418]);
  });

  it('make only the kept readings\' sensor values, the same as when every reading is made', () => {
    const rows: PackRow[] = Array.from({ length: 50 }, (_, i) => ({
      orgId: 'o',
      timeUs: 1_700_000_000_000_000 + i * 10_000_000,
      receivedUs: 1_700_000_000_000_000 + i * 10_000_000,
      lat: i % 7 === 0 ? null : 31 + i / 1000,
      lon: 121,
      positioning: 'GPS',
      network: '4G',
      speed: i,
      course: null,
      // Two shapes, a text leaf, and a key only some readings have.
      sensors: i % 3 === 0 ? `{"temperature": ${4 + i / 10}, "door": "open"}` : `{"temperature": ${4 + i / 10}, "humidity": ${50 + i}}`,
      raw: '{}',
    }));
    const { data } = encodePack(rows);
    const fields = ['temperature', 'humidity', 'door'];
    const all = decodePack(data, null, { fields });
    let seen: Float64Array | null = null;
    const some = decodePack(data, null, {
      fields,
      keep: (times) => {
        seen = times;
        return Uint8Array.from(times, (_, i) => (i % 4 === 1 ? 1 : 0));
      },
    });
    expect(seen!.length).toBe(50);
    for (let i = 0; i < 50; i++) {
      for (const k of fields) expect(some.fields!.get(k)![i]).toBe(i % 4 === 1 ? all.fields!.get(k)![i] : undefined);
      expect(packRow(some, i).lat).toBe(rows[i]!.lat);
    }
    expect(all.fields!.get('humidity')![4]).toBe(54);
    expect(all.fields!.get('door')![3]).toBe('open');
  });

  it('refuse readings out of time order', () => {
    const row: PackRow = { orgId: 'o', timeUs: 5, receivedUs: 5, lat: null, lon: null, positioning: null, network: null, speed: null, course: null, sensors: '{}', raw: '{}' };
    expect(() => encodePack([row, { ...row }])).toThrow(/increasing time/);
  });

  it('keep a day of 10 s readings small: well under 30 bytes a reading', () => {
    // A reefer van: a fix every 10 s moving along, temperature and humidity drifting by tenths.
    const rows: PackRow[] = [];
    let lat = 31.2304;
    let lon = 121.4737;
    for (let i = 0; i < 8640; i++) {
      lat += Math.round(Math.sin(i / 50) * 80) / 1e6;
      lon += Math.round(Math.cos(i / 70) * 80) / 1e6;
      lat = Math.round(lat * 1e6) / 1e6;
      lon = Math.round(lon * 1e6) / 1e6;
      const temp = Math.round((4 + Math.sin(i / 300)) * 10) / 10;
      const hum = Math.round(60 + Math.cos(i / 200) * 5);
      const t = 1_790_000_000_000_000 + i * 10_000_000;
      rows.push({
        orgId: '8f2c1b9e-0d7a-4c55-9a51-2b6f0e7d1c01',
        timeUs: t,
        receivedUs: t + 200_000 + (i % 7) * 13_000,
        lat,
        lon,
        positioning: 'GPS',
        network: '4G',
        speed: Math.round(Math.abs(Math.sin(i / 40)) * 800) / 10,
        course: (i * 3) % 360,
        sensors: `{"door": "closed", "battery": 87, "humidity": ${hum}, "temperature": ${temp}}`,
        raw: `{"1": {"batval": 870}, "3": {"temp": ${Math.round(temp * 10)}, "humidity": ${hum * 10}}, "16": {"gac": 0}}`,
      });
    }
    const { data, raw } = encodePack(rows);
    const perReading = (data.length + raw.length) / rows.length;
    expect(perReading).toBeLessThan(30);
  });
});
