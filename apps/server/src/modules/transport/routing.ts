// The road route of a transport task from an OSRM-compatible routing service (ROUTING_URL): the
// driving route through origin, via points and destination, as [lat, lon] points thinned to what
// a task keeps. Without a service the planned route is drawn by hand on the map.
import type { FastifyBaseLogger } from 'fastify';
import { MAX_ROUTE_POINTS, type RoadRoute } from '@iotc/shared/transport';
import { AppError } from '../../lib/errors.ts';

export const ROUTING_TIMEOUT_MS = 10_000;

export interface RoutingOptions {
  /** Base address of the service, e.g. http://router.project-osrm.org or a self-hosted OSRM. */
  url?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Where the reason of a failure goes (the answer to the user names no internals). */
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

export interface RoutingService {
  readonly enabled: boolean;
  /** The road route through `points` ([lat, lon], in order). */
  route(points: [number, number][]): Promise<RoadRoute>;
}

/**
 * At most `max` points of `line`, evenly spaced by index, first and last kept. OSRM's full
 * geometry already has its points where the road bends, so an even pick keeps the shape well
 * enough for drawing and the off-route check, without a simplification dependency.
 */
export function thinRoute<T>(line: readonly T[], max = MAX_ROUTE_POINTS): T[] {
  if (line.length <= max) return [...line];
  if (max < 2) return line.slice(0, max);
  const out: T[] = [];
  const step = (line.length - 1) / (max - 1);
  for (let i = 0; i < max; i += 1) out.push(line[Math.round(i * step)]!);
  return out;
}

function isLonLat(p: unknown): p is [number, number] {
  return (
    Array.isArray(p) &&
    p.length >= 2 &&
    typeof p[0] === 'number' &&
    typeof p[1] === 'number' &&
    Number.isFinite(p[0]) &&
    Number.isFinite(p[1]) &&
    Math.abs(p[0]) <= 180 &&
    Math.abs(p[1]) <= 90
  );
}

class RoutingFailure extends Error {}

/** The first route of an OSRM answer, checked; a RoutingFailure naming what was wrong otherwise. */
function readAnswer(body: unknown): RoadRoute {
  const answer = body as { code?: unknown; message?: unknown; routes?: unknown } | null;
  if (!answer || typeof answer !== 'object') throw new RoutingFailure('answer is not an object');
  if (answer.code !== 'Ok') throw new RoutingFailure(`answer code ${String(answer.code)}${typeof answer.message === 'string' ? `: ${answer.message}` : ''}`);
  const first = Array.isArray(answer.routes) ? (answer.routes[0] as { geometry?: { coordinates?: unknown }; distance?: unknown; duration?: unknown } | undefined) : undefined;
  const coords = first?.geometry?.coordinates;
  if (!first || !Array.isArray(coords) || coords.length < 2 || !coords.every(isLonLat)) throw new RoutingFailure('no route geometry of [lon, lat] points');
  const { distance, duration } = first;
  if (typeof distance !== 'number' || typeof duration !== 'number' || !(distance >= 0) || !(duration >= 0)) throw new RoutingFailure('no distance or duration');
  // GeoJSON is [lon, lat]; a task's route is [lat, lon].
  const route = thinRoute(coords as [number, number][]).map(([lon, lat]): [number, number] => [lat, lon]);
  return { route, distanceM: Math.round(distance), durationS: Math.round(duration) };
}

export function routingService(opts: RoutingOptions = {}): RoutingService {
  const base = opts.url?.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? ROUTING_TIMEOUT_MS;
  return {
    enabled: !!base,
    async route(points) {
      if (!base) throw new AppError(409, 'ROUTING_NOT_CONFIGURED');
      const where = points.map(([lat, lon]) => `${lon.toFixed(6)},${lat.toFixed(6)}`).join(';');
      const url = `${base}/route/v1/driving/${where}?overview=full&geometries=geojson`;
      try {
        const res = await doFetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
        // OSRM answers "no route" and bad queries with 400 and a JSON code; other statuses carry no answer.
        const body: unknown = await res.json().catch(() => null);
        if (!res.ok && !(body && typeof body === 'object' && 'code' in body)) throw new RoutingFailure(`HTTP ${res.status}`);
        return readAnswer(body);
      } catch (err) {
        const reason = err instanceof RoutingFailure ? err.message : err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : String(err);
        opts.log?.warn({ reason, points: points.length }, 'routing service failed');
        throw new AppError(502, 'ROUTING_FAILED');
      }
    },
  };
}
