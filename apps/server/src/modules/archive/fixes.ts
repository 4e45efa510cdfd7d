// A device's usable fixes as columns, the way trip and stop detection takes them: read through
// the one reader's plan (reader.ts), a fresh pack unpacked without its sensors, everything else
// (rows, a stale pack merged with its rows) read in full or by the caller's `readSpan` (the
// track summary thins long stretches of rows).
import type { Executor } from '../../db/client.ts';
import { decodePack } from './pack.ts';
import { fetchPack, materialise, plan } from './reader.ts';

/** A device's fixes in time order, as the trip detection takes them. */
export interface Fixes {
  t: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  speed: Float64Array;
  lbs: Uint8Array;
}

/**
 * A usable position: both coordinates, in range (NaN and infinities are not), not the 0,0 of a
 * device without a fix. Whatever the source, a range gives the same fixes.
 */
export const isUsableFix = (lat: number | null, lon: number | null): lat is number =>
  lat !== null && lon !== null && lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 && !(lat === 0 && lon === 0);

interface FixRow {
  timeUs: number;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  positioning: string | null;
}

/** The usable fixes among readings in time order. */
export function fixesOf(rows: readonly FixRow[]): Fixes {
  const kept = rows.filter((r) => isUsableFix(r.lat, r.lon));
  const f: Fixes = { t: new Float64Array(kept.length), lat: new Float64Array(kept.length), lon: new Float64Array(kept.length), speed: new Float64Array(kept.length), lbs: new Uint8Array(kept.length) };
  kept.forEach((r, i) => {
    f.t[i] = Math.floor(r.timeUs / 1000);
    f.lat[i] = r.lat!;
    f.lon[i] = r.lon!;
    f.speed[i] = r.speed === null ? Number.NaN : r.speed;
    f.lbs[i] = r.positioning === 'LBS' ? 1 : 0;
  });
  return f;
}

function concat(parts: Fixes[]): Fixes {
  const n = parts.reduce((s, p) => s + p.t.length, 0);
  const out: Fixes = { t: new Float64Array(n), lat: new Float64Array(n), lon: new Float64Array(n), speed: new Float64Array(n), lbs: new Uint8Array(n) };
  let at = 0;
  for (const p of parts) {
    out.t.set(p.t, at);
    out.lat.set(p.lat, at);
    out.lon.set(p.lon, at);
    out.speed.set(p.speed, at);
    out.lbs.set(p.lbs, at);
    at += p.t.length;
  }
  return out;
}

/**
 * A device's usable fixes in [from, to): fresh packs unpacked, the rest read by `readSpan`
 * (rows in full by default); answers how many days came from packs.
 */
export async function readFixes(
  q: Executor,
  deviceRef: string,
  from: number,
  to: number,
  readSpan?: (from: number, to: number) => Promise<Fixes>,
): Promise<{ fixes: Fixes; packedDays: number }> {
  const parts: Fixes[] = [];
  let packedDays = 0;
  for (const s of await plan(q, deviceRef, { from, to })) {
    if (s.kind === 'pack' && !s.meta.stale) {
      const c = decodePack((await fetchPack(q, deviceRef, s.meta.day, false)).data, null, { sensors: false });
      const rows: FixRow[] = [];
      for (let i = 0; i < c.n; i++) {
        const t = c.timeUs[i]!;
        if (t >= s.from * 1000 && t < s.to * 1000) rows.push({ timeUs: t, lat: c.lat.at(i), lon: c.lon.at(i), speed: c.speed.at(i), positioning: c.positioning[i]! });
      }
      parts.push(fixesOf(rows));
      packedDays++;
    } else if (s.kind === 'rows' && readSpan) parts.push(await readSpan(s.from, s.to));
    else parts.push(fixesOf(await materialise(q, deviceRef, s, { sensors: false })));
  }
  return { fixes: concat(parts), packedDays };
}
