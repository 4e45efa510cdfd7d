// Text PostgreSQL cannot take: a NUL character (refused by every text and JSON column) and a
// lone UTF-16 surrogate (not encodable as UTF-8; jsonb refuses its escape). Such a request is
// refused at the door with a clear 400 naming the field, rather than failing deep in a query
// with a 500 (or being stored altered).

// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a text holds a NUL or a lone surrogate. */
export const isUnstorableText = (s: string): boolean => UNSTORABLE.test(s);

/** The text with each NUL and lone surrogate replaced by U+FFFD (for logs of refused input). */
export const storableText = (s: string): string => s.replace(new RegExp(UNSTORABLE.source, 'g'), '\uFFFD');

/** Nesting checked by recursion; a deeper value is walked by the iterative search instead. */
const RECURSE_DEPTH = 32;

/** Whether `value` holds no unstorable text down to RECURSE_DEPTH (false: found one, or too deep to tell here). Allocates nothing. */
function clean(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return !isUnstorableText(value);
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return true;
  if (depth >= RECURSE_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!clean(value[i], depth + 1)) return false;
    return true;
  }
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    if (isUnstorableText(k) || !clean((value as Record<string, unknown>)[k], depth + 1)) return false;
  }
  return true;
}

/**
 * The path (`body.rules.0.name`) of the first string or key in `value` that PostgreSQL cannot
 * store, or undefined. Iterative, so a deeply nested body cannot exhaust the stack.
 */
export function unstorableTextAt(value: unknown, root: string): string | undefined {
  // The common case first: a clean, shallow value (every report the intake takes) costs no allocation.
  if (clean(value, 0)) return undefined;
  // Every value met, with how it was reached (its parent's index and its key); the path is spelled
  // out only for the one refused, so a clean body costs no strings (the intake checks each report).
  const values: unknown[] = [value];
  const parents: number[] = [-1];
  const keys: (string | number)[] = [root];
  const pathOf = (i: number) => {
    const parts: string[] = [];
    for (let j = i; j >= 0; j = parents[j]!) parts.push(String(keys[j]));
    return parts.reverse().join('.');
  };
  const stack: number[] = [0];
  const visit = (v: unknown, parent: number, key: string | number) => {
    // Numbers, booleans and null hold no text.
    if (typeof v !== 'string' && (v === null || typeof v !== 'object')) return;
    values.push(v);
    parents.push(parent);
    keys.push(key);
    stack.push(values.length - 1);
  };
  while (stack.length) {
    const i = stack.pop()!;
    const v = values[i];
    if (typeof v === 'string') {
      if (isUnstorableText(v)) return pathOf(i);
    } else if (Array.isArray(v)) {
      for (let k = v.length - 1; k >= 0; k--) visit(v[k], i, k);
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const k of Object.keys(v)) {
        if (isUnstorableText(k)) return pathOf(i);
        visit((v as Record<string, unknown>)[k], i, k);
      }
    }
  }
  return undefined;
}
