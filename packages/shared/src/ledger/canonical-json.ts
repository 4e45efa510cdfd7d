// RFC 8785 JSON Canonicalization Scheme (JCS) for the values ledger records hold. JCS is defined
// in terms of ECMAScript's own JSON.stringify for strings and numbers, so the work left is the
// key order (UTF-16 code units, which is what Array.prototype.sort compares) and refusing what
// JCS cannot represent. Written here rather than taken from npm: no JCS package is installed,
// and the stable-stringify packages in node_modules (transitive, undeclared) turn NaN into null
// and skip undefined silently instead of refusing them.
//
// Limits: numbers must be finite; -0 becomes 0 (as in JCS); a number keeps only what an IEEE
// double holds, so integers beyond 2^53 and decimals with more than ~15 significant digits
// should travel as strings. Other JCS implementations print the same text for the same doubles.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('JCS has no representation for NaN or Infinity');
      return JSON.stringify(value);
    case 'string':
      if (LONE_SURROGATE.test(value)) throw new TypeError('JCS strings must be valid Unicode');
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new TypeError('only plain objects are JSON objects');
      const entries = Object.keys(value).sort();
      return `{${entries
        .map((k) => {
          if (LONE_SURROGATE.test(k)) throw new TypeError('JCS keys must be valid Unicode');
          return `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`;
        })
        .join(',')}}`;
    }
    default:
      throw new TypeError(`${typeof value} is not a JSON value`);
  }
}
