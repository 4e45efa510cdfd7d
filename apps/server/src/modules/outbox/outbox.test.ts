// The outbox screen's API (issue 21, item 9): without SMTP a verification code is kept in the
// outbox, and the platform administrator reads it there, newest first, by pages; nobody else
// may (the organisation's own administrator, another organisation's user with every permission).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PERMISSION_CODES } from '@iotc/shared/platform';
import { OUTBOX_API, type OutboxRow } from '@iotc/shared/outbox';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { orgs, outbox } from '../../db/schema.ts';
import { ORG_ADMIN_ROLE } from '../../db/seed.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await testApp();
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
});
afterAll(() => t?.close());

type Page = { rows: OutboxRow[]; total: number; page: number; size: number };
const list = (token: string | undefined, query = '', lang: 'zh-CN' | 'en-US' = 'en-US') =>
  call<Page>(t.app, { method: 'GET', url: `${OUTBOX_API.list}${query ? `?${query}` : ''}`, token, lang });

describe('outbox', () => {
  it('shows the platform administrator the verification code a password retrieval kept in the outbox', async () => {
    const db = t.app.database.db;
    const [demo] = await db.select().from(orgs).where(eq(orgs.code, 'demo'));
    await addOrgUser(db, { orgId: demo!.id, account: 'forgetful', password: 'Old#2026x', roleCodes: ['operator'], email: 'forgetful@example.com' });
    const sent = await call(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/sendMail', body: { account: 'forgetful', channel: 'email' } });
    expect(sent.status).toBe(200);

    const r = await list(admin);
    expect(r.status).toBe(200);
    const [mail] = r.body.data!.rows;
    expect(mail).toMatchObject({ channel: 'email', recipient: 'forgetful@example.com', status: 'outbox', subject: 'IoT Cloud Console verification code' });
    expect(mail!.body).toMatch(/\d{4}/);
    expect(Date.now() - Date.parse(mail!.createdAt)).toBeLessThan(60_000);
    // The code read there is the one the retrieval takes.
    const code = /(\d{4})/.exec(mail!.body)![1]!;
    const verified = await call(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/mailVerify', body: { account: 'forgetful', channel: 'email', code } });
    expect(verified.status).toBe(200);
  });

  it('pages newest first and filters by channel and recipient', async () => {
    const db = t.app.database.db;
    await db.insert(outbox).values(
      Array.from({ length: 12 }, (_, i) => ({ orgId: null, channel: 'sms' as const, recipient: `1380000${String(1000 + i)}`, body: `text ${i}`, status: 'outbox' as const })),
    );
    const first = (await list(admin, 'channel=sms&size=10')).body.data!;
    expect(first.total).toBe(12);
    expect(first.rows).toHaveLength(10);
    expect(first.rows[0]!.body).toBe('text 11');
    const second = (await list(admin, 'channel=sms&size=10&page=2')).body.data!;
    expect(second.rows.map((m) => m.body)).toEqual(['text 1', 'text 0']);
    expect((await list(admin, 'recipient=forgetful')).body.data!.rows.map((m) => m.recipient)).toEqual(['forgetful@example.com']);
  });

  it('is refused to everyone but the platform administrator', async () => {
    const db = t.app.database.db;
    const [demo] = await db.select().from(orgs).where(eq(orgs.code, 'demo'));
    await addOrgUser(db, { orgId: demo!.id, account: 'demo_admin', password: 'Admin#2026x', roleCodes: [ORG_ADMIN_ROLE.code] });
    await createTenantUser(db, { code: 'other', account: 'other_all', password: 'Other#2026x', permissions: [...PERMISSION_CODES] });
    for (const account of ['demo_admin', 'other_all']) {
      const token = await login(t.app, account, account === 'demo_admin' ? 'Admin#2026x' : 'Other#2026x');
      const zh = await list(token, '', 'zh-CN');
      expect(zh.status, account).toBe(403);
      expect(zh.body).toMatchObject({ data: null, errorcode: 'NO_PERMISSION', errormsg: '暂无权限' });
      expect((await list(token)).body.errormsg).toBe('No permission');
      // Nor is the screen in their menu, whatever their roles grant.
      const menu = await call<unknown>(t.app, { method: 'POST', url: '/iot-cloud-auth/menu/v1/loadMenu', token, body: { type: 102 } });
      expect(menu.status).toBe(200);
      expect(JSON.stringify(menu.body.data)).not.toContain('view/system/outbox');
    }
    const own = await call<unknown>(t.app, { method: 'POST', url: '/iot-cloud-auth/menu/v1/loadMenu', token: admin, body: { type: 102 } });
    expect(JSON.stringify(own.body.data)).toContain('view/system/outbox');
    expect((await list(undefined)).status).toBe(401);
  });
});
