// The item mappings API of JT/T 808 terminal models: create, list, change, delete; a model given
// twice in one organisation, bad items, another organisation (404, not listed), no permission.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@iotc/shared/envelope';
import { JT808_MODEL_API, type ModelRow } from '@iotc/shared/jt808-models';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../../test/harness.ts';
import { createTenantUser } from '../../test/fixtures.ts';

let t: TestApp;
let admin: string;
let rival: string;
let reader: string;

const BODY = { model: 'XYZ-T4', description: 'Reefer terminal, two probes', items: [{ id: '0x51', layout: 'sm16/10', channel: 'temperature' }] };

beforeAll(async () => {
  t = await testApp();
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
  await createTenantUser(t.app.database.db, { code: 'models-rival', account: 'models-rival', password: ADMIN_PASSWORD, permissions: ['device:read', 'device:write'] });
  rival = await login(t.app, 'models-rival', ADMIN_PASSWORD);
  await createTenantUser(t.app.database.db, { code: 'models-reader', account: 'models-reader', password: ADMIN_PASSWORD, permissions: ['device:read'] });
  reader = await login(t.app, 'models-reader', ADMIN_PASSWORD);
});
afterAll(async () => {
  await t.close();
});

describe(JT808_MODEL_API, () => {
  it('creates, lists, changes and deletes a mapping; another organisation neither sees nor changes it', async () => {
    const created = await call<ModelRow>(t.app, { method: 'POST', url: JT808_MODEL_API, token: admin, body: BODY });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const row = created.body.data!;
    expect(row).toMatchObject({ model: 'XYZ-T4', items: [{ id: '0x51', layout: 'sm16/10', offset: 0, channel: 'temperature', probe: 1 }] });
    const list = await call<Page<ModelRow>>(t.app, { method: 'GET', url: JT808_MODEL_API, token: admin });
    expect(list.body.data!.rows.map((r) => r.id)).toContain(row.id);

    const again = await call(t.app, { method: 'POST', url: JT808_MODEL_API, token: admin, body: BODY });
    expect(again).toMatchObject({ status: 409, body: { errorcode: 'JT808_MODEL_TAKEN' } });

    // Another organisation: not listed, 404 on read, change and delete; its own mapping of the same model is its own.
    expect((await call<Page<ModelRow>>(t.app, { method: 'GET', url: JT808_MODEL_API, token: rival })).body.data!.rows).toHaveLength(0);
    for (const method of ['GET', 'DELETE'] as const) expect((await call(t.app, { method, url: `${JT808_MODEL_API}/${row.id}`, token: rival })).status).toBe(404);
    expect((await call(t.app, { method: 'PUT', url: `${JT808_MODEL_API}/${row.id}`, token: rival, body: BODY })).status).toBe(404);
    const own = await call<ModelRow>(t.app, { method: 'POST', url: JT808_MODEL_API, token: rival, body: BODY });
    expect(own.status).toBe(200);
    expect(own.body.data!.orgId).not.toBe(row.orgId);
    expect((await call<Page<ModelRow>>(t.app, { method: 'GET', url: JT808_MODEL_API, token: rival })).body.data!.rows.map((r) => r.id)).toEqual([own.body.data!.id]);

    const changed = await call<ModelRow>(t.app, {
      method: 'PUT',
      url: `${JT808_MODEL_API}/${row.id}`,
      token: admin,
      body: { ...BODY, items: [...BODY.items, { id: '0X66', layout: 'uint16/10', channel: 'humidity' }] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data!.items.map((i) => i.id)).toEqual(['0x51', '0x66']);

    expect((await call(t.app, { method: 'DELETE', url: `${JT808_MODEL_API}/${row.id}`, token: admin })).status).toBe(200);
    expect((await call(t.app, { method: 'GET', url: `${JT808_MODEL_API}/${row.id}`, token: admin })).status).toBe(404);
  });

  it('refuses bad items with their codes, and changes without device:write', async () => {
    const bad = async (items: unknown) => (await call(t.app, { method: 'POST', url: JT808_MODEL_API, token: admin, body: { model: 'BAD', items } })).body.errorcode;
    expect(await bad([])).toBe('JT808_MODEL_ITEMS_REQUIRED');
    expect(await bad([{ id: '51', layout: 'sm16/10', channel: 'temperature' }])).toBe('JT808_ITEM_ID_FORMAT');
    expect(await bad([{ id: '0x51', layout: 'sm16/10', channel: 'temperature' }, { id: '0x52', layout: 'int16/10', channel: 'temperature' }])).toBe('JT808_CHANNEL_REPEATED');
    expect((await call(t.app, { method: 'POST', url: JT808_MODEL_API, token: admin, body: { model: 'BAD', items: [{ id: '0x51', layout: 'float', channel: 'temperature' }] } })).status).toBe(400);
    expect((await call(t.app, { method: 'POST', url: JT808_MODEL_API, token: admin, body: { model: 'BAD', items: [{ id: '0x51', layout: 'sm16/10', channel: 'speed' }] } })).status).toBe(400);
    expect((await call(t.app, { method: 'POST', url: JT808_MODEL_API, token: reader, body: BODY })).status).toBe(403);
    expect((await call(t.app, { method: 'GET', url: JT808_MODEL_API, token: reader })).status).toBe(200);
  });
});
