// Provisioning through the real API over HTTP: missing devices are registered, existing ones get
// a new secret (the old one stops working), the list is read page by page, and an account that
// may only read devices is told so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, testApp, type TestApp } from '../test/harness.ts';
import { createTenantUser } from '../test/fixtures.ts';
import { ApiError, listDevices, provisionDevices, signIn } from './provision.ts';

let t: TestApp;
let base: string;
let token: string;

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ deviceId: `${prefix}${String(i + 1).padStart(6, '0')}`, name: `Simulated ${i + 1}` }));
const works = async (deviceId: string, secret: string) => (await t.app.intake.authenticate(deviceId, secret)) !== null;

beforeAll(async () => {
  t = await testApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  await createTenantUser(t.app.database.db, { code: 'simorg', account: 'simadmin', password: 'Sim#2026', permissions: ['device:read', 'device:write'] });
  token = await signIn(base, 'simadmin', 'Sim#2026');
});
afterAll(async () => {
  await t.close();
});

describe('provisionDevices', () => {
  it('registers the missing devices and renews the secrets of the existing ones', async () => {
    const first = await provisionDevices({ baseUrl: base, token, devices: ids('PROV', 2), keyword: 'PROV' });
    expect(first).toMatchObject({ created: 2, renewed: 0 });
    for (const d of first.devices) expect(await works(d.deviceId, d.secret)).toBe(true);

    const second = await provisionDevices({ baseUrl: base, token, devices: ids('PROV', 3), keyword: 'PROV' });
    expect(second).toMatchObject({ created: 1, renewed: 2 });
    expect(second.devices.map((d) => d.deviceId)).toEqual(['PROV000001', 'PROV000002', 'PROV000003']);
    for (const d of second.devices) expect(await works(d.deviceId, d.secret)).toBe(true);
    expect(await works('PROV000001', first.devices[0]!.secret)).toBe(false);
  });

  it('reads every page of the device list', async () => {
    await provisionDevices({ baseUrl: base, token, devices: ids('PAGE', 105), keyword: 'PAGE' });
    const rows = await listDevices(base, token, 'PAGE');
    expect(new Set(rows.map((r) => r.deviceId)).size).toBe(105);
  });

  it('answers the server refusal to an account without device:write', async () => {
    const demo = await signIn(base, 'demo', DEMO_PASSWORD);
    const refused = await provisionDevices({ baseUrl: base, token: demo, devices: ids('DEMOSIM', 1), keyword: 'DEMOSIM' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 403, code: 'NO_PERMISSION' });
  });

  it('says why a sign-in fails', async () => {
    await expect(signIn(base, 'simadmin', 'wrong')).rejects.toBeInstanceOf(ApiError);
  });
});
