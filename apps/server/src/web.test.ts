// The server serves the built web app: client-side routes get index.html, hashed assets are
// cached for good, and API paths or missing assets never fall back to the app.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from './test/harness.ts';

let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'iotc-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>shell</title>');
  writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
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
