// The warehouse-records calls are described in the OpenAPI document with their schemas.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

it('publishes the warehouse-records paths', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
  for (const p of ['/api/iot/v2/warehouse-records', '/api/iot/v2/warehouse-records/stock', '/api/iot/v2/warehouse-records/provinces', '/api/iot/v2/warehouse-records/{id}/approve', '/api/iot/v2/warehouse-records/{id}/reject']) {
    expect(paths).toContain(p);
  }
});
