// The geocoder (GEOCODER_URL): a Nominatim-compatible service asked for places matching an address
// (/search) and for the address of a position (/reverse). Its answers are kept in geocode_cache,
// shared by every organisation (a geocoder's answers are public), and asked again after
// CACHE_REFRESH_MS. Requests leave this node no faster than GEOCODER_RATE_PER_SECOND (Nominatim's
// public service allows one a second): each takes the next free slot, and one that would wait
// longer than maxWaitMs fails at once as busy; each has a time-out. Without a URL nothing is asked
// and the console shows coordinates.
import type { FastifyBaseLogger } from 'fastify';
import { inArray, sql } from 'drizzle-orm';
import {
  GEOCODE_SEARCH_LIMIT,
  normaliseQuery,
  roundCoord,
  type GeocodePlace,
} from '@iotc/shared/geocode';
import type { Lang } from '@iotc/shared/i18n';
import type { Db } from '../../db/client.ts';
import { geocodeCache } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';

export const GEOCODER_TIMEOUT_MS = 5_000;
/** A request that would wait longer than this for its slot fails as busy. */
export const GEOCODER_MAX_WAIT_MS = 10_000;
/** Cached answers older than this are asked again. */
export const CACHE_REFRESH_MS = 30 * 86_400_000;
/** A batch of addresses (reports) asks the geocoder for at most this many positions not cached; the rest stay coordinates. */
export const BATCH_MAX_LOOKUPS = 10;
export const GEOCODER_USER_AGENT = 'IoT-Cloud-Console/1.0 (geocoder adapter; https://github.com/iot-cloud-console)';

export interface GeocoderOptions {
  /** Base address, e.g. http://127.0.0.1:8080 for a self-hosted Nominatim. */
  url?: string;
  ratePerSecond?: number;
  timeoutMs?: number;
  maxWaitMs?: number;
  /** The cache; none: every ask goes to the geocoder. */
  db?: Db;
  fetch?: typeof fetch;
  log?: Pick<FastifyBaseLogger, 'warn'>;
  now?: () => number;
}

export interface Position {
  lat: number;
  lon: number;
}

export interface Geocoder {
  readonly enabled: boolean;
  /** Places matching `text`, at most GEOCODE_SEARCH_LIMIT. */
  search(text: string, lang: Lang): Promise<GeocodePlace[]>;
  /** The address at a position; null when the geocoder knows none. */
  reverse(at: Position, lang: Lang): Promise<string | null>;
  /**
   * The addresses of many positions, in order (reports): cached ones read at once, at most
   * BATCH_MAX_LOOKUPS others asked, none after the first failure; a position not known, not asked
   * or failed is null. Never throws for the geocoder's failures; all null without a geocoder.
   */
  reverseMany(points: readonly (Position | null | undefined)[], lang: Lang): Promise<(string | null)[]>;
}

class GeocoderFailure extends Error {}

/** Slots at least 1/rate apart; a caller whose slot is further than maxWaitMs away is refused. */
export function rateGate(ratePerSecond: number, maxWaitMs: number, now: () => number = Date.now) {
  const gap = 1000 / ratePerSecond;
  let next = 0;
  return async function take(): Promise<void> {
    const t = now();
    const slot = Math.max(t, next);
    if (slot - t > maxWaitMs) throw new AppError(503, 'GEOCODER_BUSY');
    next = slot + gap;
    if (slot > t) await new Promise((resolve) => setTimeout(resolve, slot - t));
  };
}

const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) ? n : undefined;
};

function readPlaces(body: unknown): GeocodePlace[] {
  if (!Array.isArray(body)) throw new GeocoderFailure('search answer is not a list');
  const out: GeocodePlace[] = [];
  for (const item of body as { display_name?: unknown; lat?: unknown; lon?: unknown }[]) {
    const lat = num(item?.lat);
    const lon = num(item?.lon);
    if (typeof item?.display_name !== 'string' || lat === undefined || lon === undefined || Math.abs(lat) > 90 || Math.abs(lon) > 180) continue;
    out.push({ label: item.display_name, lat, lon });
    if (out.length >= GEOCODE_SEARCH_LIMIT) break;
  }
  return out;
}

function readAddress(body: unknown): string | null {
  if (!body || typeof body !== 'object') throw new GeocoderFailure('reverse answer is not an object');
  // Nominatim answers a position with nothing near with 200 and {"error": "Unable to geocode"}.
  const { display_name: name, error } = body as { display_name?: unknown; error?: unknown };
  if (typeof name === 'string' && name.trim()) return name.trim();
  if (error !== undefined) return null;
  throw new GeocoderFailure('reverse answer has no display_name');
}

export const searchKey = (text: string, lang: Lang) => `search:${lang}:${normaliseQuery(text)}`;
export const reverseKey = (at: Position, lang: Lang) => `reverse:${lang}:${roundCoord(at.lat)},${roundCoord(at.lon)}`;

export function geocoder(opts: GeocoderOptions = {}): Geocoder {
  const base = opts.url?.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? GEOCODER_TIMEOUT_MS;
  const now = opts.now ?? Date.now;
  const take = rateGate(opts.ratePerSecond ?? 1, opts.maxWaitMs ?? GEOCODER_MAX_WAIT_MS, now);
  const db = opts.db;
  /** The same question asked again while it is on its way waits for the one answer. */
  const inFlight = new Map<string, Promise<unknown>>();

  async function cached(keys: string[]): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    if (!db || keys.length === 0) return out;
    try {
      const rows = await db.select().from(geocodeCache).where(inArray(geocodeCache.key, keys));
      for (const r of rows) if (now() - r.fetchedAt.getTime() < CACHE_REFRESH_MS) out.set(r.key, r.value);
    } catch (err) {
      opts.log?.warn({ err }, 'geocode cache not read');
    }
    return out;
  }

  async function store(key: string, value: unknown): Promise<void> {
    if (!db) return;
    try {
      await db
        .insert(geocodeCache)
        .values({ key, value, fetchedAt: new Date(now()) })
        .onConflictDoUpdate({ target: geocodeCache.key, set: { value, fetchedAt: sql`excluded.fetched_at` } });
    } catch (err) {
      opts.log?.warn({ err }, 'geocode cache not written');
    }
  }

  async function ask<T>(path: string, params: Record<string, string>, lang: Lang, read: (body: unknown) => T): Promise<T> {
    if (!base) throw new AppError(409, 'GEOCODER_NOT_CONFIGURED');
    await take();
    const url = `${base}${path}?${new URLSearchParams({ format: 'jsonv2', ...params, 'accept-language': lang }).toString()}`;
    try {
      const res = await doFetch(url, { headers: { accept: 'application/json', 'user-agent': GEOCODER_USER_AGENT }, signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) throw new GeocoderFailure(`HTTP ${res.status}`);
      return read(await res.json());
    } catch (err) {
      const reason =
        err instanceof GeocoderFailure ? err.message : err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : String(err);
      opts.log?.warn({ reason, path }, 'geocoder failed');
      throw new AppError(502, 'GEOCODER_FAILED');
    }
  }

  /** The cached answer under `key`, else `fetch`'s (stored), one fetch at a time per key. */
  async function through<T>(key: string, fetchIt: () => Promise<T>): Promise<T> {
    const hit = (await cached([key])).get(key);
    if (hit !== undefined) return hit as T;
    return fresh(key, fetchIt);
  }

  /** `fetch`'s answer under `key` (stored), the cache already read; the same key asked meanwhile shares it. */
  function fresh<T>(key: string, fetchIt: () => Promise<T>): Promise<T> {
    const running = inFlight.get(key);
    if (running) return running as Promise<T>;
    const p = fetchIt()
      .then(async (value) => {
        await store(key, value);
        return value;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, p);
    return p;
  }

  const askReverse = (at: Position, lang: Lang) => () =>
    ask('/reverse', { lat: roundCoord(at.lat), lon: roundCoord(at.lon) }, lang, (body) => ({ address: readAddress(body) }));
  const reverse = (at: Position, lang: Lang) => through(reverseKey(at, lang), askReverse(at, lang)).then((v) => v.address);

  return {
    enabled: !!base,
    search(text, lang) {
      return through(searchKey(text, lang), () =>
        ask('/search', { q: text.trim().replace(/\s+/g, ' '), limit: String(GEOCODE_SEARCH_LIMIT) }, lang, (body) => ({ places: readPlaces(body) })),
      ).then((v) => v.places);
    },
    reverse,
    async reverseMany(points, lang) {
      if (!base) return points.map(() => null);
      const keys = points.map((p) => (p && Number.isFinite(p.lat) && Number.isFinite(p.lon) ? reverseKey(p, lang) : null));
      const hits = await cached([...new Set(keys.filter((k): k is string => k !== null))]);
      const found = new Map<string, string | null>();
      for (const [k, v] of hits) found.set(k, (v as { address: string | null }).address);
      let lookups = 0;
      // After one failure (time-out, error, busy) the rest of the batch is not asked: a geocoder
      // that is down costs a report one time-out, not one per position.
      let failed = false;
      const out: (string | null)[] = [];
      for (let i = 0; i < points.length; i += 1) {
        const key = keys[i];
        if (!key) {
          out.push(null);
          continue;
        }
        if (!found.has(key)) {
          if (failed || lookups >= BATCH_MAX_LOOKUPS) {
            out.push(null);
            continue;
          }
          lookups += 1;
          // The cache was read for the whole batch above; a miss goes straight to the geocoder.
          const answer = await fresh(key, askReverse(points[i]!, lang)).then(
            (v) => v.address,
            () => {
              failed = true;
              return undefined;
            },
          );
          if (answer === undefined) {
            out.push(null);
            continue;
          }
          found.set(key, answer);
        }
        out.push(found.get(key) ?? null);
      }
      return out;
    },
  };
}
