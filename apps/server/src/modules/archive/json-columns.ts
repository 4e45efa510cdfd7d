// JSON texts as columns, losslessly: each text (a reading's raw report or decoded sensors, as the
// database prints its jsonb) is cut into its shape (keys, punctuation, true/false/null, with a
// marker where a number or a string value stands) and its leaves (the numbers' and string
// values' own text). Shapes repeat from one reading to the next, so a day's texts keep a handful
// of them, each stored once; the leaves go in one column per place in a shape, numbers as whole
// mantissas with their count of decimals, delta-encoded (a temperature that moves by tenths
// costs a byte or less before compression). Putting the shape's text and the leaves' text back
// together gives the input byte for byte, whatever its spacing or key order: nothing is parsed
// and re-printed. A text this cannot cut (not JSON, or holding a marker character) makes the
// whole column fall back to plain texts.
import type { ByteReader, ByteWriter } from './bytes.ts';

const NUM = '\u0001';
const STR = '\u0002';
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

const enum Mode {
  Columns = 0,
  Plain = 1,
}
const enum Kind {
  Decimal = 0,
  NumberText = 1,
  Dictionary = 2,
  Strings = 3,
}

interface Cut {
  shape: string;
  leaves: string[];
}

/** Cuts one JSON text into its shape and leaves; null when it cannot. */
export function cut(text: string): Cut | null {
  if (text.includes(NUM) || text.includes(STR)) return null;
  let shape = '';
  const leaves: string[] = [];
  let from = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      let j = i + 1;
      while (j < n && text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 /* \ */ ? 2 : 1;
      if (j >= n) return null;
      let k = j + 1;
      while (k < n && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 10 || text.charCodeAt(k) === 13 || text.charCodeAt(k) === 9)) k++;
      if (text.charCodeAt(k) === 58 /* : */) {
        i = j + 1; // a key: part of the shape
        continue;
      }
      shape += text.slice(from, i) + STR;
      leaves.push(text.slice(i + 1, j));
      i = from = j + 1;
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) return null;
      shape += text.slice(from, i) + NUM;
      leaves.push(m[0]);
      i = from = i + m[0].length;
    } else i++;
  }
  return { shape: shape + text.slice(from), leaves };
}

/** A number's text as a whole mantissa and its count of decimals, when that gives the text back exactly. */
function decimalOf(token: string): { m: number; scale: number } | null {
  const d = DECIMAL.exec(token);
  if (!d) return null;
  const digits = d[2]! + (d[3] ?? '');
  if (digits.length > 15) return null;
  const m = Number(digits) * (d[1] ? -1 : 1);
  const scale = d[3]?.length ?? 0;
  return decimalText(m, scale) === token ? { m, scale } : null;
}

function decimalText(m: number, scale: number): string {
  const s = String(Math.abs(m)).padStart(scale + 1, '0');
  return (m < 0 ? '-' : '') + (scale > 0 ? `${s.slice(0, -scale)}.${s.slice(-scale)}` : s);
}

function writeColumn(w: ByteWriter, isNumber: boolean, values: string[]) {
  if (isNumber) {
    const dec = values.map(decimalOf);
    if (dec.every((x) => x !== null)) {
      w.byte(Kind.Decimal);
      let prev = 0;
      for (const x of dec as { m: number; scale: number }[]) {
        w.uvar(x.scale);
        w.svar(x.m - prev);
        prev = x.m;
      }
      return;
    }
    w.byte(Kind.NumberText);
    for (const v of values) w.string(v);
    return;
  }
  const distinct = new Map<string, number>();
  for (const v of values) if (!distinct.has(v)) distinct.set(v, distinct.size);
  if (distinct.size * 2 <= values.length) {
    w.byte(Kind.Dictionary);
    w.uvar(distinct.size);
    for (const v of distinct.keys()) w.string(v);
    for (const v of values) w.uvar(distinct.get(v)!);
    return;
  }
  w.byte(Kind.Strings);
  for (const v of values) w.string(v);
}

/** What a column's leaves become: their text as written, or their value as JSON.parse gives it. */
interface Leaf<T> {
  decimal(m: number, scale: number): T;
  number(token: string): T;
  string(inner: string): T;
}
const AS_TEXT: Leaf<string> = { decimal: decimalText, number: (t) => t, string: (t) => t };
/** 10 ** scale for the scales a decimal column holds (any other is computed). */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const AS_VALUE: Leaf<unknown> = {
  decimal: (m, scale) => m / (POW10[scale] ?? 10 ** scale),
  number: (t) => JSON.parse(t) as number,
  string: (t) => (t.includes('\\') ? (JSON.parse(`"${t}"`) as string) : t),
};

/**
 * Reads one column of `count` leaves as `leaf` makes them, or only steps over it (null); with
 * `keep`, only the leaves marked 1 are made (the others left empty).
 */
function readColumn<T>(r: ByteReader, count: number, leaf: Leaf<T> | null, keep?: Uint8Array): T[] | null {
  const kind = r.byte();
  const out: T[] | null = leaf ? new Array<T>(count) : null;
  switch (kind) {
    case Kind.Decimal: {
      let m = 0;
      if (!out) {
        for (let i = 0; i < count; i++) {
          r.uvar();
          r.uvar();
        }
        return null;
      }
      for (let i = 0; i < count; i++) {
        const scale = r.uvar();
        m += r.svar();
        if (!keep || keep[i] === 1) out[i] = leaf!.decimal(m, scale);
      }
      return out;
    }
    case Kind.NumberText:
    case Kind.Strings:
      for (let i = 0; i < count; i++) {
        if (!out || (keep && keep[i] !== 1)) {
          r.bytes();
          continue;
        }
        const t = r.string();
        out[i] = kind === Kind.NumberText ? leaf!.number(t) : leaf!.string(t);
      }
      return out;
    case Kind.Dictionary: {
      const dict = Array.from({ length: r.uvar() }, () => r.string());
      const made = leaf ? dict.map((t) => leaf.string(t)) : [];
      for (let i = 0; i < count; i++) {
        const v = made[r.uvar()];
        if (out) out[i] = v!;
      }
      return out;
    }
    default:
      throw new Error(`unknown JSON column kind ${kind}`);
  }
}

/** Writes the texts (one per reading) as columns, or as plain texts when one cannot be cut. */
export function writeJsonColumn(w: ByteWriter, texts: readonly string[]) {
  const cuts = texts.map(cut);
  if (cuts.some((c) => c === null)) {
    w.byte(Mode.Plain);
    for (const t of texts) w.string(t);
    return;
  }
  w.byte(Mode.Columns);
  const shapes = new Map<string, { id: number; rows: Cut[] }>();
  const ids = new Array<number>(texts.length);
  (cuts as Cut[]).forEach((c, i) => {
    let s = shapes.get(c.shape);
    if (!s) shapes.set(c.shape, (s = { id: shapes.size, rows: [] }));
    s.rows.push(c);
    ids[i] = s.id;
  });
  w.uvar(shapes.size);
  for (const shape of shapes.keys()) w.string(shape);
  for (const id of ids) w.uvar(id);
  for (const [shape, s] of shapes) {
    const kinds = [...shape].filter((ch) => ch === NUM || ch === STR);
    kinds.forEach((k, place) =>
      writeColumn(
        w,
        k === NUM,
        s.rows.map((row) => row.leaves[place]!),
      ),
    );
  }
}

/** Reads `count` texts written by writeJsonColumn, byte for byte as they were. */
export function readJsonColumn(r: ByteReader, count: number): string[] {
  const mode = r.byte();
  if (mode === Mode.Plain) return Array.from({ length: count }, () => r.string());
  if (mode !== Mode.Columns) throw new Error(`unknown JSON column mode ${mode}`);
  const shapes = Array.from({ length: r.uvar() }, () => r.string());
  const ids = Array.from({ length: count }, () => r.uvar());
  const used = new Array<number>(shapes.length).fill(0);
  for (const id of ids) used[id]!++;
  // Each shape's text between its markers, and its leaves' columns.
  const parts = shapes.map((s) => s.split(NUM).flatMap((p) => p.split(STR)));
  const kinds = shapes.map((s) => [...s].filter((ch) => ch === NUM || ch === STR));
  const columns = shapes.map((_, id) => kinds[id]!.map(() => readColumn(r, used[id]!, AS_TEXT)!));
  const next = new Array<number>(shapes.length).fill(0);
  return ids.map((id) => {
    const at = next[id]!++;
    const p = parts[id]!;
    const k = kinds[id]!;
    const cols = columns[id]!;
    let text = p[0]!;
    for (let j = 0; j < k.length; j++) {
      const leaf = cols[j]![at]!;
      text += (k[j] === STR ? `"${leaf}"` : leaf) + p[j + 1]!;
    }
    return text;
  });
}

/** Where a top-level key's value sits in a shape: a leaf (by index), a literal, or something nested. */
type Slot = { leaf: number } | { literal: unknown } | { nested: true };

/** The top-level keys of an object shape and where their values are (the last one wins, as JSON.parse does). */
function slotsOf(shape: string): Map<string, Slot> | null {
  const slots = new Map<string, Slot>();
  let i = 0;
  const n = shape.length;
  while (i < n && shape[i] !== '{' && shape[i] !== '[' && shape[i] !== NUM && shape[i] !== STR) i++;
  if (shape[i] !== '{') return null;
  let depth = 0;
  let leaf = 0;
  let key: string | null = null;
  let valueAt = -1;
  for (; i < n; i++) {
    const c = shape[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < n && shape[j] !== '"') j += shape[j] === '\\' ? 2 : 1;
      if (depth === 1 && key === null) key = JSON.parse(shape.slice(i, j + 1)) as string;
      i = j;
    } else if (c === ':' && depth === 1) valueAt = i + 1;
    else if (c === NUM || c === STR) {
      if (depth === 1 && key !== null) {
        slots.set(key, { leaf });
        key = null;
      }
      leaf++;
    } else if (c === '{' || c === '[') {
      if (depth === 1 && key !== null) {
        slots.set(key, { nested: true });
        key = null;
      }
      depth++;
    } else if (c === '}' || c === ']') depth--;
    else if (depth === 1 && key !== null && valueAt >= 0 && /[tfn]/.test(c)) {
      const word = /^(true|false|null)/.exec(shape.slice(i))?.[1];
      if (word) {
        slots.set(key, { literal: JSON.parse(word) as unknown });
        key = null;
        i += word.length - 1;
      }
    }
  }
  return slots;
}

/**
 * The values of some top-level keys of each text written by writeJsonColumn, as
 * `JSON.parse(text)[key]` gives them (undefined when absent), without printing the texts: what a
 * curve or a report of a few sensor values needs. Null when a key holds something nested in some
 * shape (the caller then parses the texts). With `keep`, only the readings marked 1 get their
 * values (the others are stepped over and left undefined).
 */
export function readJsonFields(r: ByteReader, count: number, keys: readonly string[], keep?: Uint8Array): Map<string, unknown[]> | null {
  const mode = r.byte();
  if (mode === Mode.Plain) {
    const texts = Array.from({ length: count }, () => r.string());
    return new Map(keys.map((k) => [k, texts.map((t) => (JSON.parse(t) as Record<string, unknown> | null)?.[k])]));
  }
  if (mode !== Mode.Columns) throw new Error(`unknown JSON column mode ${mode}`);
  const shapes = Array.from({ length: r.uvar() }, () => r.string());
  const ids = new Uint32Array(count);
  const used = new Array<number>(shapes.length).fill(0);
  for (let i = 0; i < count; i++) used[(ids[i] = r.uvar())]!++;
  const slots = shapes.map(slotsOf);
  for (const s of slots) for (const k of keys) if (s && (s.get(k) as { nested?: true } | undefined)?.nested) return null;
  const leavesOf = (shape: string) => [...shape].filter((ch) => ch === NUM || ch === STR).length;
  // The kept readings as each shape's columns number them.
  const keepOf = keep ? shapes.map((_, id) => new Uint8Array(used[id]!)) : null;
  if (keep && keepOf) {
    const at = new Uint32Array(shapes.length);
    for (let i = 0; i < count; i++) keepOf[ids[i]!]![at[ids[i]!]!++] = keep[i]!;
  }
  // Per shape and key, where the value comes from: a column of the shape, a literal, or nowhere.
  type Source = { column: unknown[] } | { literal: unknown } | null;
  const sources: Source[][] = shapes.map((shape, id) => {
    const want = new Set<number>();
    for (const k of keys) {
      const slot = slots[id]?.get(k);
      if (slot && 'leaf' in slot) want.add(slot.leaf);
    }
    const columns = Array.from({ length: leavesOf(shape) }, (_, leaf) => readColumn(r, used[id]!, want.has(leaf) ? AS_VALUE : null, keepOf?.[id]));
    return keys.map((k) => {
      const slot = slots[id]?.get(k);
      return slot === undefined ? null : 'leaf' in slot ? { column: columns[slot.leaf]! } : 'literal' in slot ? { literal: slot.literal } : null;
    });
  });
  const next = new Uint32Array(shapes.length);
  const values = keys.map(() => new Array<unknown>(count));
  for (let i = 0; i < count; i++) {
    const id = ids[i]!;
    const at = next[id]!++;
    if (keep && keep[i] !== 1) continue;
    const from = sources[id]!;
    for (let j = 0; j < keys.length; j++) {
      const src = from[j]!;
      values[j]![i] = src === null ? undefined : 'column' in src ? src.column[at] : src.literal;
    }
  }
  return new Map(keys.map((k, j) => [k, values[j]!]));
}
