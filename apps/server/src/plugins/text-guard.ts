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

/**
 * The path (`body.rules.0.name`) of the first string or key in `value` that PostgreSQL cannot
 * store, or undefined. Iterative, so a deeply nested body cannot exhaust the stack.
 */
export function unstorableTextAt(value: unknown, root: string): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (isUnstorableText(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}.${i}`]);
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (isUnstorableText(k)) return path;
        stack.push([x, `${path}.${k}`]);
      }
    }
  }
  return undefined;
}
