// A readings pack: one device's readings of one closed UTC day, every column of `telemetry`, as
// one value (issue 24). Columnar and delta-encoded where it pays, then compressed with brotli
// (the codec Node 20 ships; zstd arrives in later versions):
// - times in microseconds (what the database keeps), as differences from the reading before; the
//   time received as its difference from the device time;
// - latitude, longitude, speed and course as whole mantissas with a count of decimals when every
//   value of the day comes back exactly that way (a fix's 1e-6 degrees, a speed's tenths), as
//   differences from the value before; else as the float64 values themselves;
// - organisation, positioning and network as small dictionaries;
// - decoded sensors and the raw report as the database prints them, cut into shapes and leaf
//   columns (json-columns.ts), byte for byte.
// Two values: `data` (all but the raw report) and `raw`, so that curves, tracks and reports read
// and unpack only what they use. `encodePack` unpacks what it packed and compares before it
// answers, so a pack that would not give the rows back is never written.
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { ByteReader, ByteWriter } from './bytes.ts';
import { readJsonColumn, readJsonFields, writeJsonColumn } from './json-columns.ts';

const VERSION = 2;

/** One reading as the pack keeps it: times in microseconds, the two JSON columns as text. */
export interface PackRow {
  orgId: string;
  timeUs: number;
  receivedUs: number;
  lat: number | null;
  lon: number | null;
  positioning: string | null;
  network: string | null;
  speed: number | null;
  course: number | null;
  sensors: string;
  raw: string;
  /** Only some top-level sensor values, when those were asked for instead of the text (absent keys left out). */
  fields?: Record<string, unknown>;
}

/** A pack's readings as columns, in time order; `sensors` and `raw` only when asked for. */
/**
 * A column of numbers that may be null, unboxed: `values[i]` where `present[i]` is 1 (a reading's
 * value may itself be NaN or an infinity, so null needs its own mark).
 */
export class NumberColumn {
  constructor(
    readonly values: Float64Array,
    readonly present: Uint8Array,
  ) {}

  at(i: number): number | null {
    return this.present[i] === 1 ? this.values[i]! : null;
  }
}

export interface PackColumns {
  n: number;
  orgId: string[];
  timeUs: Float64Array;
  receivedUs: Float64Array;
  lat: NumberColumn;
  lon: NumberColumn;
  positioning: (string | null)[];
  network: (string | null)[];
  speed: NumberColumn;
  course: NumberColumn;
  sensors?: string[];
  raw?: string[];
  /** The values of the sensor keys asked for (`fields`), per reading (only the kept ones, with `keep`). */
  fields?: Map<string, unknown[]>;
}

const enum Num {
  AllNull = 0,
  Decimal = 1,
  Float = 2,
}

/** Brotli's quality: 5 packs a day of readings in tens of milliseconds at about the size of 9 (bench: storage). */
export const PACK_QUALITY = 5;

const compress = (b: Uint8Array) =>
  brotliCompressSync(b, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: PACK_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: 22,
      [constants.BROTLI_PARAM_SIZE_HINT]: b.length,
    },
  });

function framed(body: Uint8Array): Uint8Array {
  const z = compress(body);
  const out = new Uint8Array(z.length + 1);
  out[0] = VERSION;
  out.set(z, 1);
  return out;
}

function unframed(value: Uint8Array): Uint8Array {
  if (value[0] !== VERSION) throw new Error(`readings pack version ${value[0]} is not known`);
  return brotliDecompressSync(value.subarray(1));
}

/** The smallest count of decimals (up to 9) that gives every value back exactly, or null. */
function scaleOf(values: number[]): number | null {
  let scale = 0;
  for (const v of values) {
    // A negative zero would come back as 0 from the sum of differences.
    if (Object.is(v, -0)) return null;
    while (scale <= 9) {
      const p = 10 ** scale;
      const m = Math.round(v * p);
      if (Number.isSafeInteger(m) && Math.abs(m) < 2 ** 51 && Object.is(m / p, v)) break;
      scale++;
    }
    if (scale > 9) return null;
  }
  // A value that fitted a smaller scale may not fit the one a later value needed (a large speed
  // then a 0.1): every value must fit the common scale, or their differences pass 2^52.
  const p = 10 ** scale;
  for (const v of values) {
    const m = Math.round(v * p);
    if (!(Number.isSafeInteger(m) && Math.abs(m) < 2 ** 51 && Object.is(m / p, v))) return null;
  }
  return scale;
}

function writeNumbers(w: ByteWriter, values: readonly (number | null)[]) {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) {
    w.byte(Num.AllNull);
    return;
  }
  const scale = scaleOf(present);
  w.byte(scale === null ? Num.Float : Num.Decimal);
  for (const v of values) w.byte(v === null ? 0 : 1);
  if (scale === null) {
    for (const v of present) w.f64(v);
    return;
  }
  w.uvar(scale);
  const p = 10 ** scale;
  let prev = 0;
  for (const v of present) {
    const m = Math.round(v * p);
    w.svar(m - prev);
    prev = m;
  }
}

function readNumbers(r: ByteReader, n: number): NumberColumn {
  const kind = r.byte();
  const values = new Float64Array(n);
  const present = new Uint8Array(n);
  if (kind === Num.AllNull) return new NumberColumn(values, present);
  for (let i = 0; i < n; i++) present[i] = r.byte();
  if (kind === Num.Float) {
    for (let i = 0; i < n; i++) if (present[i] === 1) values[i] = r.f64();
    return new NumberColumn(values, present);
  }
  if (kind !== Num.Decimal) throw new Error(`unknown number column kind ${kind}`);
  const p = 10 ** r.uvar();
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (present[i] !== 1) continue;
    m += r.svar();
    values[i] = m / p;
  }
  return new NumberColumn(values, present);
}

/** Texts (null allowed) as a dictionary: index 0 is null. */
function writeWords(w: ByteWriter, values: readonly (string | null)[]) {
  const dict = new Map<string, number>();
  for (const v of values) if (v !== null && !dict.has(v)) dict.set(v, dict.size + 1);
  w.uvar(dict.size);
  for (const v of dict.keys()) w.string(v);
  for (const v of values) w.uvar(v === null ? 0 : dict.get(v)!);
}

function readWords(r: ByteReader, n: number): (string | null)[] {
  const dict = [null, ...Array.from({ length: r.uvar() }, () => r.string())];
  const out = new Array<string | null>(n);
  for (let i = 0; i < n; i++) out[i] = dict[r.uvar()]!;
  return out;
}

function encodeData(rows: readonly PackRow[]): Uint8Array {
  const w = new ByteWriter();
  w.uvar(rows.length);
  let prev = 0;
  for (const r of rows) {
    w.svar(r.timeUs - prev);
    prev = r.timeUs;
  }
  for (const r of rows) w.svar(r.receivedUs - r.timeUs);
  writeWords(w, rows.map((r) => r.orgId));
  writeNumbers(w, rows.map((r) => r.lat));
  writeNumbers(w, rows.map((r) => r.lon));
  writeNumbers(w, rows.map((r) => r.speed));
  writeNumbers(w, rows.map((r) => r.course));
  writeWords(w, rows.map((r) => r.positioning));
  writeWords(w, rows.map((r) => r.network));
  // The sensors last: a reader of positions stops before them.
  writeJsonColumn(w, rows.map((r) => r.sensors));
  return framed(w.done());
}

function encodeRaw(rows: readonly PackRow[]): Uint8Array {
  const w = new ByteWriter();
  w.uvar(rows.length);
  writeJsonColumn(w, rows.map((r) => r.raw));
  return framed(w.done());
}

/**
 * Unpacks a pack's `data` (and `raw` when given); `sensors: false` skips the sensors' column, and
 * `fields` takes only those top-level sensor values, without printing the texts. `keep` is called
 * once, with the readings' times, and marks the readings wanted (1): the sensor values of the
 * others are stepped over, not made (a month of curves keeps one reading in a hundred).
 */
export function decodePack(
  data: Uint8Array,
  raw?: Uint8Array | null,
  opts: { sensors?: boolean; fields?: readonly string[]; keep?: (timeUs: Float64Array) => Uint8Array } = {},
): PackColumns {
  const r = new ByteReader(unframed(data));
  const n = r.uvar();
  const timeUs = new Float64Array(n);
  let t = 0;
  for (let i = 0; i < n; i++) timeUs[i] = t += r.svar();
  const kept = opts.keep?.(timeUs);
  const receivedUs = new Float64Array(n);
  for (let i = 0; i < n; i++) receivedUs[i] = timeUs[i]! + r.svar();
  const orgId = readWords(r, n) as string[];
  const out: PackColumns = {
    n,
    orgId,
    timeUs,
    receivedUs,
    lat: readNumbers(r, n),
    lon: readNumbers(r, n),
    speed: readNumbers(r, n),
    course: readNumbers(r, n),
    positioning: readWords(r, n),
    network: readWords(r, n),
  };
  if (opts.fields) {
    const start = r.position;
    const fields = readJsonFields(r, n, opts.fields, kept);
    if (fields) out.fields = fields;
    else {
      // A key holds something nested: from the texts.
      r.seek(start);
      const texts = readJsonColumn(r, n);
      out.fields = new Map(opts.fields.map((k) => [k, texts.map((t) => (JSON.parse(t) as Record<string, unknown> | null)?.[k])]));
    }
  } else if (opts.sensors !== false) out.sensors = readJsonColumn(r, n);
  if (raw) {
    const rr = new ByteReader(unframed(raw));
    const count = rr.uvar();
    if (count !== n) throw new Error(`a pack's raw reports (${count}) do not match its readings (${n})`);
    out.raw = readJsonColumn(rr, n);
  }
  return out;
}

/** The readings' count of a pack's `data` without unpacking the rest. */
export const packCount = (data: Uint8Array) => new ByteReader(unframed(data)).uvar();

/** The pack's row `i` as a PackRow (sensors and raw as unpacked, else empty). */
export function packRow(c: PackColumns, i: number): PackRow {
  const row = baseRow(c, i);
  if (c.fields) {
    const fields: Record<string, unknown> = {};
    for (const [k, values] of c.fields) if (values[i] !== undefined) fields[k] = values[i];
    row.fields = fields;
  }
  return row;
}

function baseRow(c: PackColumns, i: number): PackRow {
  return {
    orgId: c.orgId[i]!,
    timeUs: c.timeUs[i]!,
    receivedUs: c.receivedUs[i]!,
    lat: c.lat.at(i),
    lon: c.lon.at(i),
    positioning: c.positioning[i]!,
    network: c.network[i]!,
    speed: c.speed.at(i),
    course: c.course.at(i),
    sensors: c.sensors?.[i] ?? '',
    raw: c.raw?.[i] ?? '',
  };
}

const sameRow = (a: PackRow, b: PackRow) =>
  a.orgId === b.orgId &&
  a.timeUs === b.timeUs &&
  a.receivedUs === b.receivedUs &&
  Object.is(a.lat, b.lat) &&
  Object.is(a.lon, b.lon) &&
  a.positioning === b.positioning &&
  a.network === b.network &&
  Object.is(a.speed, b.speed) &&
  Object.is(a.course, b.course) &&
  a.sensors === b.sensors &&
  a.raw === b.raw;

/**
 * Packs a device-day's readings (in time order). Throws, writing nothing, when unpacking would
 * not give every row back exactly (a reading this codec cannot keep stays a row).
 */
export function encodePack(rows: readonly PackRow[]): { data: Uint8Array; raw: Uint8Array } {
  for (let i = 1; i < rows.length; i++) if (!(rows[i]!.timeUs > rows[i - 1]!.timeUs)) throw new Error('a pack takes readings in strictly increasing time');
  const data = encodeData(rows);
  const raw = encodeRaw(rows);
  const back = decodePack(data, raw);
  if (back.n !== rows.length || rows.some((row, i) => !sameRow(row, packRow(back, i)))) throw new Error('a pack did not give its readings back exactly');
  return { data, raw };
}
