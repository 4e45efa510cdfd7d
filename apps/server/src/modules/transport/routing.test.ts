// The road route through the API against a local stand-in for OSRM (no public service is ever
// called): [lon, lat] in the asked path and the answer turned back to [lat, lon] with its ends,
// the long answer thinned, the config flag, "not configured" in both languages, the service's
// failures (HTTP 500, NoRoute, a bad answer, no answer in time) as ROUTING_FAILED, the points'
// validation and the write permission.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorText } from '@iotc/shared/errors';
import { MAX_ROUTE_POINTS, TRANSPORT_API, type RoadRoute, type RoutingConfig } from '@iotc/shared/transport';
import { AppError } from '../../lib/errors.ts';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { createTenantUser } from '../../test/fixtures.ts';
import { routingService, thinRoute } from './routing.ts';

type Mode = 'ok' | 'long' | 'http500' | 'noRoute' | 'garbage' | 'slow';

let mode: Mode = 'ok';
/** The [lon, lat] pairs of each asked path, as the service read them. */
let asked: [number, number][][] = [];
let osrm: Server;
let osrmUrl: string;
let withRouting: TestApp;
let without: TestApp;
let operator: string;
let plainOperator: string;
let reader: string;

/** A LineString through the asked points, `per` steps between each two, as OSRM's GeoJSON. */
function lineThrough(points: [number, number][], per: number): [number, number][] {
  const out: [number, number][] = [points[0]!];
  for (let i = 1; i < points.length; i += 1) {
    const [x0, y0] = points[i - 1]!;
    const [x1, y1] = points[i]!;
    for (let s = 1; s < per; s += 1) out.push([x0 + ((x1 - x0) * s) / per, y0 + ((y1 - y0) * s) / per]);
    out.push([x1, y1]);
  }
  return out;
}

function playOsrm(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://osrm');
  const m = /^\/route\/v1\/driving\/([^/]+)$/.exec(url.pathname);
  const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (!m || url.searchParams.get('overview') !== 'full' || url.searchParams.get('geometries') !== 'geojson') return json(400, { code: 'InvalidUrl', message: 'bad path' });
  const points = decodeURIComponent(m[1]!)
    .split(';')
    .map((p) => p.split(',').map(Number) as [number, number]);
  // OSRM reads lon,lat: a latitude beyond 90 in the second place is refused as OSRM does.
  if (points.some(([lon, lat]) => !(Math.abs(lon) <= 180 && Math.abs(lat) <= 90))) return json(400, { code: 'InvalidQuery', message: 'Query string malformed' });
  asked.push(points);
  if (mode === 'http500') return res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream broke');
  if (mode === 'noRoute') return json(400, { code: 'NoRoute', message: 'Impossible route between points' });
  if (mode === 'garbage') return json(200, { code: 'Ok', routes: [{ geometry: { type: 'LineString', coordinates: [[1, 2, 3]] }, distance: 1, duration: 1 }] });
  if (mode === 'slow') {
    setTimeout(() => json(200, { code: 'Ok', routes: [] }), 60_000).unref();
    return;
  }
  const coordinates = lineThrough(points, mode === 'long' ? 6000 : 4);
  json(200, { code: 'Ok', routes: [{ geometry: { type: 'LineString', coordinates }, distance: 12345.6, duration: 987.4, legs: [] }], waypoints: [] });
}

const post = (app: TestApp, points: unknown, token = operator, lang: 'zh-CN' | 'en-US' = 'en-US') => call<RoadRoute>(app.app, { method: 'POST', url: TRANSPORT_API.roadRoute, token, body: { points }, lang });

const SHANGHAI: [number, number] = [31.2304, 121.4737];
const VIA: [number, number] = [30.75, 120.76];
const HANGZHOU: [number, number] = [30.2741, 120.1551];

beforeAll(async () => {
  osrm = createServer(playOsrm);
  await new Promise<void>((resolve) => osrm.listen(0, '127.0.0.1', resolve));
  osrmUrl = `http://127.0.0.1:${(osrm.address() as AddressInfo).port}/`;
  [withRouting, without] = await Promise.all([testApp({ routingUrl: osrmUrl }), testApp()]);
  operator = await login(withRouting.app, 'demo', DEMO_PASSWORD);
  plainOperator = await login(without.app, 'demo', DEMO_PASSWORD);
  await createTenantUser(withRouting.app.database.db, { code: 'rt-reader', account: 'rt-reader', password: DEMO_PASSWORD, permissions: ['transport:read'] });
  reader = await login(withRouting.app, 'rt-reader', DEMO_PASSWORD);
}, 120_000);

afterAll(async () => {
  await Promise.all([withRouting?.close(), without?.close()]);
  osrm?.closeAllConnections();
  await new Promise((resolve) => osrm?.close(resolve));
});

beforeEach(() => {
  mode = 'ok';
  asked = [];
});

describe('road route', { timeout: 60_000 }, () => {
  it('says whether a routing service is configured', async () => {
    const on = await call<RoutingConfig>(withRouting.app, { method: 'GET', url: TRANSPORT_API.routingConfig, token: operator });
    expect(on.status).toBe(200);
    expect(on.body.data).toEqual({ enabled: true });
    const off = await call<RoutingConfig>(without.app, { method: 'GET', url: TRANSPORT_API.routingConfig, token: plainOperator });
    expect(off.body.data).toEqual({ enabled: false });
  });

  it('asks in lon,lat order and answers [lat, lon] from the origin through the via point to the destination', async () => {
    const res = await post(withRouting, [SHANGHAI, VIA, HANGZHOU]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(asked).toEqual([[SHANGHAI, VIA, HANGZHOU].map(([lat, lon]) => [lon, lat])]);
    const { route, distanceM, durationS } = res.body.data!;
    expect(route).toHaveLength(9);
    expect(route[0]).toEqual(SHANGHAI);
    expect(route[4]).toEqual(VIA);
    expect(route.at(-1)).toEqual(HANGZHOU);
    expect(distanceM).toBe(12346);
    expect(durationS).toBe(987);
  });

  it('thins a long answer to the most points a route keeps, ends kept', async () => {
    mode = 'long';
    const res = await post(withRouting, [SHANGHAI, HANGZHOU]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { route } = res.body.data!;
    expect(route).toHaveLength(MAX_ROUTE_POINTS);
    expect(route[0]).toEqual(SHANGHAI);
    expect(route.at(-1)).toEqual(HANGZHOU);
    for (let i = 1; i < route.length; i += 1) expect(route[i]![0]).toBeLessThanOrEqual(route[i - 1]![0]);
  });

  it('says in the request language that no service is configured', async () => {
    for (const [lang, code] of [['en-US', 'en'], ['zh-CN', 'zh']] as const) {
      const res = await post(without, [SHANGHAI, HANGZHOU], plainOperator, lang);
      expect(res.status).toBe(409);
      expect(res.body.errorcode).toBe('ROUTING_NOT_CONFIGURED');
      expect(res.body.errormsg).toBe(errorText('ROUTING_NOT_CONFIGURED', code));
    }
  });

  it.each(['http500', 'noRoute', 'garbage'] as const)('answers ROUTING_FAILED when the service answers %s', async (m) => {
    mode = m;
    const res = await post(withRouting, [SHANGHAI, HANGZHOU], operator, 'zh-CN');
    expect(asked).toHaveLength(1);
    expect(res.status).toBe(502);
    expect(res.body.errorcode).toBe('ROUTING_FAILED');
    expect(res.body.errormsg).toBe(errorText('ROUTING_FAILED', 'zh'));
    expect(res.body.errormsg).not.toMatch(/upstream|Impossible|HTTP/);
  });

  it('gives up on a slow service after its time-out', async () => {
    mode = 'slow';
    const routing = routingService({ url: osrmUrl, timeoutMs: 200 });
    const started = Date.now();
    const err = await routing.route([SHANGHAI, HANGZHOU]).catch((e: unknown) => e);
    // The service would answer after a minute; the 200 ms time-out ends the wait long before.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ statusCode: 502, code: 'ROUTING_FAILED' });
  });

  it('answers ROUTING_FAILED when the service cannot be reached', async () => {
    const routing = routingService({ url: 'http://127.0.0.1:9', timeoutMs: 2000 });
    await expect(routing.route([SHANGHAI, HANGZHOU])).rejects.toMatchObject({ statusCode: 502, code: 'ROUTING_FAILED' });
  });

  it('takes 2 to 25 points in range', async () => {
    const many = Array.from({ length: 26 }, (_, i): [number, number] => [30 + i / 100, 120 + i / 100]);
    for (const points of [[SHANGHAI], many, [SHANGHAI, [95, 120]], [], 'x']) {
      const res = await post(withRouting, points);
      expect(res.status, JSON.stringify(points).slice(0, 40)).toBe(400);
    }
    expect(asked).toHaveLength(0);
    expect((await post(withRouting, many.slice(0, 25))).status).toBe(200);
  });

  it('needs transport:write to ask a route and transport:read for the config', async () => {
    const res = await post(withRouting, [SHANGHAI, HANGZHOU], reader);
    expect(res.status).toBe(403);
    expect(asked).toHaveLength(0);
    const config = await call<RoutingConfig>(withRouting.app, { method: 'GET', url: TRANSPORT_API.routingConfig, token: reader });
    expect(config.status).toBe(200);
    expect((await call(withRouting.app, { method: 'GET', url: TRANSPORT_API.routingConfig })).status).toBe(401);
  });
});

describe('thinRoute', () => {
  it('keeps short lines and the ends of long ones', () => {
    expect(thinRoute([1, 2, 3], 5)).toEqual([1, 2, 3]);
    const line = Array.from({ length: 101 }, (_, i) => i);
    expect(thinRoute(line, 11)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(thinRoute(line, 2)).toEqual([0, 100]);
  });
});
