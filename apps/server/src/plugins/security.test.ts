// Security headers on API answers (successes, errors, not-found): the content security policy
// with the configured tile hosts, nosniff, no framing, the referrer and opener policies; HSTS
// only when the console's public address is https. The browser side is e2e/security.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/harness.ts';
import { tileOrigins } from './security.ts';

describe('tile origins of the policy', () => {
  it('spells out each {s} subdomain, Leaflet’s a, b, c by default, and nothing without tiles', () => {
    expect(tileOrigins({ tileUrl: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png', tileSubdomains: null })).toEqual([
      'https://a.tile.openstreetmap.org',
      'https://b.tile.openstreetmap.org',
      'https://c.tile.openstreetmap.org',
    ]);
    expect(tileOrigins({ tileUrl: 'https://webrd0{s}.is.autonavi.com/appmaptile?x={x}&y={y}&z={z}', tileSubdomains: '1234' })).toEqual([
      'https://webrd01.is.autonavi.com',
      'https://webrd02.is.autonavi.com',
      'https://webrd03.is.autonavi.com',
      'https://webrd04.is.autonavi.com',
    ]);
    expect(tileOrigins({ tileUrl: 'http://tiles.local:8080/{z}/{x}/{y}.png', tileSubdomains: null })).toEqual(['http://tiles.local:8080']);
    expect(tileOrigins({ tileUrl: null, tileSubdomains: null })).toEqual([]);
  });
});

describe('headers', () => {
  let plain: TestApp;
  let https: TestApp;
  beforeAll(async () => {
    plain = await testApp({ map: { tileUrl: 'https://{s}.tile.example.com/{z}/{x}/{y}.png', tileSubdomains: 'xy', tileAttribution: null, tileCrs: 'wgs84', tileMaxZoom: 18 } });
    https = await testApp({ publicUrl: 'https://console.example.com' });
  });
  afterAll(async () => {
    await plain.close();
    await https.close();
  });

  it('sends the policy and the other headers on API answers, errors included', async () => {
    for (const url of ['/api/iot/v2/sso/config', '/api/iot/v2/no-such-thing', '/iot-cloud-auth/auth/v1/info']) {
      const res = await plain.app.inject({ method: url.endsWith('info') ? 'POST' : 'GET', url, headers: { host: 'console.test:3000' } });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).toContain("img-src 'self' data: blob: https://x.tile.example.com https://y.tile.example.com");
      expect(csp).toContain("connect-src 'self' ws://console.test:3000 wss://console.test:3000");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('adds HSTS only when the public address is https', async () => {
    const res = await https.app.inject({ method: 'GET', url: '/api/iot/v2/sso/config' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
  });

  it('keeps a forged host header out of the policy', async () => {
    const res = await plain.app.inject({ method: 'GET', url: '/api/iot/v2/sso/config', headers: { host: "evil.test; script-src 'unsafe-inline'" } });
    expect(String(res.headers['content-security-policy'])).not.toContain('evil');
    expect(String(res.headers['content-security-policy'])).toMatch(/connect-src 'self'[^;]*;font-src/);
  });
});
