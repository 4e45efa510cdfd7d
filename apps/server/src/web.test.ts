// The server serves the built web app: client-side routes get index.html, hashed assets are
// cached for good, and API paths or missing assets never fall back to the app.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from './test/harness.ts';

let t: TestApp;
let dist: string;
const BIG = Array.from({ length: 2000 }, (_, i) => `export const v${i} = ${i};`).join('\n');
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'iotc-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>shell</title>');
  writeFileSync(join(dist, 'index.html.br'), brotliCompressSync('<!doctype html><title>shell</title>'));
  writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  // A chunk as the build leaves it: the file, and its brotli and gzip copies (apps/web/vite-precompress.ts).
  writeFileSync(join(dist, 'assets', 'big-def456.js'), BIG);
  writeFileSync(join(dist, 'assets', 'big-def456.js.br'), brotliCompressSync(BIG));
  writeFileSync(join(dist, 'assets', 'big-def456.js.gz'), gzipSync(BIG));
  t = await testApp({ webDist: dist });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('web app serving', () => {
  it.each(['/', '/login', '/view/deviceManage/realTimeMonitoring', '/view/a/b/c', '/no/such/page'])('%s answers the app shell', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<title>shell</title>');
  });

  it('serves hashed assets with a long cache life', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate', 'gzip'],
  ])('sends the pre-compressed copy of an asset to a browser that accepts %s', async (accept, encoding) => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/big-def456.js', headers: { 'accept-encoding': accept } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(BIG.length / 4);
    const plain = encoding === 'br' ? brotliDecompressSync(res.rawPayload) : gunzipSync(res.rawPayload);
    expect(plain.toString()).toBe(BIG);
  });

  it('sends the app shell of a client-side route compressed, still revalidated', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/view/alarm/query', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('<title>shell</title>');
  });

  it('sends an asset as it is to a client that accepts no encoding', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/big-def456.js' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(BIG);
  });

  it('compresses API answers above 1 KB for a client that accepts it, and not the small ones', async () => {
    const headers = { language: 'en-US' };
    // The OpenAPI description: a large JSON answer.
    const url = '/api/docs/json';
    const plain = await t.app.inject({ method: 'GET', url, headers });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await t.app.inject({ method: 'GET', url, headers: { ...headers, 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const gz = await t.app.inject({ method: 'GET', url, headers: { ...headers, 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    // A small answer goes as it is.
    const small = await t.app.inject({ method: 'GET', url: '/api/iot/v2/unknown', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ errorcode: 'NOT_FOUND' });
  });

  it.each(['/assets/missing.js', '/api/iot/v2/unknown', '/iot-cloud-auth/unknown'])('%s is a 404 envelope, not the app', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ isSuccess: 'N', errorcode: 'NOT_FOUND' });
  });
});

describe('request log', () => {
  it('never carries a password, token or authorization code from the address', async () => {
    const { redactUrl } = await import('./app.ts');
    expect(redactUrl('/api/iot/v2/sso/auth/bindUser?openid=abc&userCode=demo&password=Demo%402026')).toBe(
      '/api/iot/v2/sso/auth/bindUser?openid=abc&userCode=demo&password=***',
    );
    expect(redactUrl('/view/x?token=secret&type=102')).toBe('/view/x?token=***&type=102');
    expect(redactUrl('/iot-cloud-auth/auth/v1/oauth/callback?code=c0de&state=st4te')).toBe('/iot-cloud-auth/auth/v1/oauth/callback?code=***&state=***');
  });
});
