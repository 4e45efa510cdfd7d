// The geocoder through the API against a local stand-in for Nominatim (no public service is ever
// called): search and reverse in both languages with the product's User-Agent, the cache (one
// request for two asks, refreshed when old), the rate limit (the stand-in's own times show the
// requests spaced), the time-out and an upstream 500 as GEOCODER_FAILED, a full queue as
// GEOCODER_BUSY, "not configured" without GEOCODER_URL, sign-in required, and the batch helper.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { errorText } from '@iotc/shared/errors';
import { GEOCODE_API, type GeocodeConfig, type GeocodeReverse, type GeocodeSearch } from '@iotc/shared/geocode';
import { ADMIN_PASSWORD, call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { HAS_PDFTOTEXT, pdfText } from '../../test/pdf-text.ts';
import { CACHE_REFRESH_MS, GEOCODER_USER_AGENT, geocoder } from './service.ts';

interface Seen {
  path: string;
  params: URLSearchParams;
  userAgent: string | undefined;
  at: number;
}

let seen: Seen[] = [];
let standIn: Server;
let standInUrl: string;
let app: TestApp;
let without: TestApp;
let token: string;
let plainToken: string;

const PLACES: Record<string, { display_name: string; lat: string; lon: string }[]> = {
  en: [
    { display_name: 'The Bund, Huangpu District, Shanghai, China', lat: '31.2400', lon: '121.4900' },
    { display_name: 'Bund Sightseeing Tunnel, Shanghai, China', lat: '31.2380', lon: '121.4910' },
  ],
  zh: [{ display_name: '外滩, 黄浦区, 上海市, 中国', lat: '31.2400', lon: '121.4900' }],
};

function playNominatim(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://nominatim');
  seen.push({ path: url.pathname, params: url.searchParams, userAgent: req.headers['user-agent'], at: performance.now() });
  const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const lang = url.searchParams.get('accept-language') === 'zh' ? 'zh' : 'en';
  if (url.searchParams.get('format') !== 'jsonv2') return json(400, { error: 'format' });
  const q = url.searchParams.get('q') ?? '';
  if (q.includes('hang')) return; // never answers
  if (q.includes('broken')) return res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream broke');
  if (url.pathname === '/search') return json(200, q.startsWith('nowhere') ? [] : PLACES[lang]);
  if (url.pathname === '/reverse') {
    const lat = Number(url.searchParams.get('lat'));
    if (lat === 0) return json(200, { error: 'Unable to geocode' });
    return json(200, { lat: url.searchParams.get('lat'), lon: url.searchParams.get('lon'), display_name: lang === 'zh' ? `中山东一路, 上海市 (${lat})` : `Zhongshan East 1st Road, Shanghai (${lat})` });
  }
  json(404, { error: 'no such path' });
}

const search = (q: string, lang: 'zh-CN' | 'en-US' = 'en-US', to: TestApp = app, t = token) =>
  call<GeocodeSearch>(to.app, { method: 'GET', url: `${GEOCODE_API.search}?q=${encodeURIComponent(q)}`, token: t, lang });
const reverse = (lat: number, lon: number, lang: 'zh-CN' | 'en-US' = 'en-US') =>
  call<GeocodeReverse>(app.app, { method: 'GET', url: `${GEOCODE_API.reverse}?lat=${lat}&lon=${lon}`, token, lang });

beforeAll(async () => {
  standIn = createServer(playNominatim);
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/`;
  [app, without] = await Promise.all([testApp({ geocoder: { url: standInUrl, ratePerSecond: 5, timeoutMs: 400 } }), testApp()]);
  token = await login(app.app, 'demo', DEMO_PASSWORD);
  plainToken = await login(without.app, 'demo', DEMO_PASSWORD);
}, 120_000);

afterAll(async () => {
  await Promise.all([app?.close(), without?.close()]);
  standIn?.closeAllConnections();
  await new Promise((resolve) => standIn?.close(resolve));
});

beforeEach(async () => {
  seen = [];
  await app.app.database.db.execute(sql`delete from geocode_cache`);
});

describe('geocoder', { timeout: 60_000 }, () => {
  it('says whether a geocoder is configured', async () => {
    const on = await call<GeocodeConfig>(app.app, { method: 'GET', url: GEOCODE_API.config, token });
    expect(on.body.data).toEqual({ enabled: true });
    const off = await call<GeocodeConfig>(without.app, { method: 'GET', url: GEOCODE_API.config, token: plainToken });
    expect(off.body.data).toEqual({ enabled: false });
  });

  it('searches in the request language with the product named, at most five places', async () => {
    const en = await search('The Bund');
    expect(en.status, JSON.stringify(en.body)).toBe(200);
    expect(en.body.data!.places).toEqual([
      { label: 'The Bund, Huangpu District, Shanghai, China', lat: 31.24, lon: 121.49 },
      { label: 'Bund Sightseeing Tunnel, Shanghai, China', lat: 31.238, lon: 121.491 },
    ]);
    const zh = await search('外滩', 'zh-CN');
    expect(zh.body.data!.places).toEqual([{ label: '外滩, 黄浦区, 上海市, 中国', lat: 31.24, lon: 121.49 }]);
    expect(seen.map((s) => [s.path, s.params.get('q'), s.params.get('accept-language'), s.params.get('limit')])).toEqual([
      ['/search', 'The Bund', 'en', '5'],
      ['/search', '外滩', 'zh', '5'],
    ]);
    expect(seen.every((s) => s.userAgent === GEOCODER_USER_AGENT)).toBe(true);
    // An explicit language wins over the request's; nothing found is an empty list.
    const none = await call<GeocodeSearch>(app.app, { method: 'GET', url: `${GEOCODE_API.search}?q=nowhere&lang=zh`, token });
    expect(none.body.data).toEqual({ places: [] });
    expect(seen.at(-1)!.params.get('accept-language')).toBe('zh');
  });

  it('gives the address at a position, rounded to 4 decimals, and null where there is none', async () => {
    const res = await reverse(31.234567, 121.4912345, 'zh-CN');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ address: '中山东一路, 上海市 (31.2346)' });
    expect(seen[0]!.path).toBe('/reverse');
    expect([seen[0]!.params.get('lat'), seen[0]!.params.get('lon'), seen[0]!.params.get('accept-language')]).toEqual(['31.2346', '121.4912', 'zh']);
    const none = await reverse(0, 0);
    expect(none.body.data).toEqual({ address: null });
    const bad = await call(app.app, { method: 'GET', url: `${GEOCODE_API.reverse}?lat=91&lon=0`, token });
    expect(bad.status).toBe(400);
  });

  it('answers the same question from the cache: one request for two asks', async () => {
    expect((await search('The Bund')).status).toBe(200);
    expect((await search('  the   BUND ')).body.data!.places).toHaveLength(2);
    expect((await reverse(31.23456, 121.49)).status).toBe(200);
    expect((await reverse(31.234561, 121.490001)).body.data!.address).toContain('31.2346');
    expect(seen.map((s) => s.path)).toEqual(['/search', '/reverse']);
    const rows = await app.app.database.db.execute(sql`select key from geocode_cache order by key`);
    expect((rows as unknown as { rows: { key: string }[] }).rows.map((r) => r.key)).toEqual(['reverse:en:31.2346,121.4900', 'search:en:the bund']);
    // The other language is another question.
    await search('The Bund', 'zh-CN');
    expect(seen).toHaveLength(3);
  });

  it('asks again when the cached answer is older than the refresh time', async () => {
    let t = Date.now();
    const g = geocoder({ url: standInUrl, ratePerSecond: 50, db: app.app.database.db, now: () => t });
    await g.search('The Bund', 'en');
    t += CACHE_REFRESH_MS - 60_000;
    await g.search('The Bund', 'en');
    expect(seen).toHaveLength(1);
    t += 120_000;
    await g.search('The Bund', 'en');
    expect(seen).toHaveLength(2);
  });

  it('spaces the requests by the rate: five asks at once reach the geocoder 1/rate apart', async () => {
    const started = performance.now();
    const answers = await Promise.all(['a1', 'a2', 'a3', 'a4', 'a5'].map((q) => search(`place ${q}`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(seen).toHaveLength(5);
    const times = seen.map((s) => s.at).sort((a, b) => a - b);
    // 5 per second: the n-th request leaves no sooner than n × 200 ms after the asks (a few ms of
    // timer slack); a delay on the way can only make it later, so the stand-in's own times tell.
    times.forEach((at, n) => expect(at - started).toBeGreaterThanOrEqual(n * 200 - 5));
    expect(times.at(-1)! - started).toBeGreaterThanOrEqual(4 * 200 - 5);
  });

  it('refuses as busy an ask that would wait longer than the queue allows', async () => {
    const g = geocoder({ url: standInUrl, ratePerSecond: 2, maxWaitMs: 600 });
    const results = await Promise.allSettled(['b1', 'b2', 'b3', 'b4'].map((q) => g.search(q, 'en')));
    // Slots at 0, 500 ms; the third would wait 1000 ms > 600 ms.
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 503, code: 'GEOCODER_BUSY' });
    expect(seen).toHaveLength(2);
  });

  it('fails with GEOCODER_FAILED in the request language when the geocoder does not answer in time', async () => {
    const started = performance.now();
    const res = await search('hang on', 'zh-CN');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(res.status).toBe(502);
    expect(res.body.errorcode).toBe('GEOCODER_FAILED');
    expect(res.body.errormsg).toBe(errorText('GEOCODER_FAILED', 'zh'));
  });

  it('fails with GEOCODER_FAILED on an upstream 500, naming no internals, and caches no failure', async () => {
    for (const [lang, code] of [['en-US', 'en'], ['zh-CN', 'zh']] as const) {
      const res = await search('broken road', lang);
      expect(res.status).toBe(502);
      expect(res.body.errorcode).toBe('GEOCODER_FAILED');
      expect(res.body.errormsg).toBe(errorText('GEOCODER_FAILED', code));
      expect(res.body.errormsg).not.toMatch(/upstream|HTTP|500/);
    }
    expect(seen).toHaveLength(2);
  });

  it('says in the request language that no geocoder is configured', async () => {
    for (const [lang, code] of [['en-US', 'en'], ['zh-CN', 'zh']] as const) {
      const res = await search('The Bund', lang, without, plainToken);
      expect(res.status).toBe(409);
      expect(res.body.errorcode).toBe('GEOCODER_NOT_CONFIGURED');
      expect(res.body.errormsg).toBe(errorText('GEOCODER_NOT_CONFIGURED', code));
    }
    expect(seen).toHaveLength(0);
  });

  it('needs a signed-in user', async () => {
    for (const url of [GEOCODE_API.config, `${GEOCODE_API.search}?q=bund`, `${GEOCODE_API.reverse}?lat=1&lon=2`]) {
      expect((await call(app.app, { method: 'GET', url })).status).toBe(401);
    }
    expect(seen).toHaveLength(0);
  });

  it('names many positions at once for reports: cached ones without asking, failures and gaps as null', async () => {
    await reverse(31.1, 121.1);
    seen = [];
    const names = await app.app.geocoder.reverseMany([{ lat: 31.1, lon: 121.1 }, null, { lat: 31.2, lon: 121.2 }, { lat: 0, lon: 0 }, { lat: 31.2, lon: 121.2 }], 'en');
    expect(names).toEqual(['Zhongshan East 1st Road, Shanghai (31.1)', null, 'Zhongshan East 1st Road, Shanghai (31.2)', null, 'Zhongshan East 1st Road, Shanghai (31.2)']);
    expect(seen.map((s) => s.params.get('lat'))).toEqual(['31.2000', '0.0000']);
    expect(await without.app.geocoder.reverseMany([{ lat: 31.1, lon: 121.1 }], 'en')).toEqual([null]);
    const failing = geocoder({ url: 'http://127.0.0.1:1/', ratePerSecond: 50 });
    expect(await failing.reverseMany([{ lat: 1, lon: 1 }], 'zh')).toEqual([null]);
  });

  it('puts the addresses of the origin and destination under the route in the shipment PDF', async () => {
    const admin = await login(app.app, 'admin', ADMIN_PASSWORD);
    const api = async <T>(method: 'GET' | 'POST', url: string, body?: unknown) => {
      const res = await call<T>(app.app, { method, url, token: admin, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data!;
    };
    const device = await api<{ id: string }>('POST', '/api/iot/v2/devices', { deviceId: 'GEOPDF0001', name: 'Geo truck' });
    const task = await api<{ id: string }>('POST', '/api/iot/v2/transport-tasks', {
      goodsName: 'Vaccines',
      deviceIds: [device.id],
      origin: { name: 'Songjiang DC', lat: 31.03, lon: 121.22, radiusM: 500 },
      destination: { name: 'Qingpu Store', lat: 31.15, lon: 121.1, radiusM: 500 },
      routeSource: 'drawn',
      route: [
        [31.05, 121.2],
        [31.1, 121.15],
      ],
      plannedStart: new Date(Date.now() - 60_000).toISOString(),
      plannedArrival: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await api('POST', `/api/iot/v2/transport-tasks/${task.id}/transition`, { to: 'in_transit', note: '' });
    const res = await app.app.inject({ method: 'GET', url: `/api/iot/v2/reports/shipment/${task.id}?format=pdf`, headers: { access_token: admin, language: 'en-US', timezone: 'Asia/Shanghai' } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(seen.filter((s) => s.path === '/reverse').map((s) => s.params.get('lat'))).toEqual(['31.0300', '31.1500']);
    if (HAS_PDFTOTEXT) {
      const text = (await pdfText(res.rawPayload)).replace(/\s+/g, ' ');
      expect(text).toContain('Origin location Zhongshan East 1st Road, Shanghai (31.03) (31.0300, 121.2200)');
      expect(text).toContain('Destination location Zhongshan East 1st Road, Shanghai (31.15) (31.1500, 121.1000)');
    }
  });
});
