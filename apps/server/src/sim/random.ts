// Deterministic randomness for the simulator. Every simulated value is a hash of (device key,
// what, when) instead of a draw from a shared generator, so a device's state at any instant can
// be computed directly: the 24 h backfill and the live simulation agree, whatever the step.

/** FNV-1a hash of a text (a device id) to a 32-bit unsigned integer. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The murmur3 finaliser: spreads every input bit over the whole 32-bit result. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Mixes integers (any safe integer, also millisecond times beyond 32 bits) into one 32-bit
 * hash; the order matters.
 */
export function mix(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    const lo = part >>> 0;
    const hi = Math.floor(part / 0x1_0000_0000) >>> 0;
    h = fmix(Math.imul(h ^ lo, 0x27d4eb2f) + hi);
  }
  return h;
}

/** A deterministic number in [0, 1) for the given key parts. */
export function unit(...parts: number[]): number {
  return mix(...parts) / 0x1_0000_0000;
}

/** A deterministic number in [min, max) for the given key parts. */
export function between(min: number, max: number, ...parts: number[]): number {
  return min + (max - min) * unit(...parts);
}

/**
 * Smooth value noise in [-1, 1]: random values `periodMs` apart, joined by cosine
 * interpolation, so sensor readings wander instead of jumping from one report to the next.
 */
export function smoothNoise(key: number, tMs: number, periodMs: number): number {
  const x = tMs / periodMs;
  const i = Math.floor(x);
  const a = unit(key, i) * 2 - 1;
  const b = unit(key, i + 1) * 2 - 1;
  const f = (1 - Math.cos(Math.PI * (x - i))) / 2;
  return a + (b - a) * f;
}

/** A small seeded generator (mulberry32) for choices that need no reproducing at a given time. */
export function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  };
}
