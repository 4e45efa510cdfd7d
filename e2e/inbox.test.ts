// Browser test of the header's inbox, in both languages, on the real server: an alarm whose push
// rule sends an in-app message to the demo user arrives while the demo user's console is open;
// the bell's count goes up without a reload (live socket), the drawer lists the message unread,
// and opening it marks it read (the count drops) and leads to the alarm's details.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AlarmRow, LevelRow, PolicyRow } from '@iotc/shared/alarm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { INBOX_API, type InboxCount, type InboxItem } from '@iotc/shared/inbox';
import { notices, users } from '../apps/server/src/db/schema.ts';
import { apiCall, apiToken, DEMO_PASSWORD, screenshot, signInAs, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
let admin: string;
let demo: string;
let demoUser: { id: string; orgId: string };

beforeAll(async () => {
  server = await startServer({ alarmTickMs: 3_600_000 });
  admin = await apiToken(server);
  demo = await apiToken(server, 'demo', DEMO_PASSWORD);
  const db = server.app.database.db;
  demoUser = (await db.select({ id: users.id, orgId: users.orgId }).from(users).where(eq(users.account, 'demo')))[0]!;
  await db.insert(notices).values({ titleZh: '平台将于周日凌晨维护', titleEn: 'Maintenance on Sunday night', bodyZh: '维护期间数据照常接收。', bodyEn: 'Readings are received as usual meanwhile.' });
});
afterAll(async () => {
  await server?.close();
});

async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(['en-US', 'zh-CN'] as const)('inbox in %s', (locale) => {
  it('counts an in-app alarm message live, lists it, and marks it read when opened', async () => {
    const tag = locale === 'en-US' ? 'EN' : 'ZH';
    const lang = locale === 'en-US' ? 'en' : 'zh';
    const api = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => apiCall<T>(server, admin, method, url, body);
    // What earlier runs left unread (the notice) is read: the bell starts at nought.
    await apiCall(server, demo, 'POST', INBOX_API.readAll);
    const orgId = demoUser.orgId;
    const device = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: `INBOX${tag}${Date.now()}`, name: `Inbox reefer ${tag}`, orgId });
    const urgent = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels?size=100')).rows.find((l) => l.code === 'urgent' && l.orgId === orgId)!;
    const policy = await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', {
      name: `Inbox ${tag} limits`,
      orgId,
      scope: 'devices',
      targets: [device.id],
      rules: [{ id: 'hot', type: 'temp_high', threshold: 8, hysteresis: 0.5, levelId: urgent.id }],
    });
    await api('POST', '/api/iot/v2/push-rules', {
      name: `Inbox ${tag}`,
      orgId,
      language: lang,
      timezone: 'Asia/Shanghai',
      match: { policyIds: [policy.id] },
      steps: [{ afterMinutes: 0, channels: ['in_app'], userIds: [demoUser.id] }],
    });

    await withBrowser(locale, async ({ page }) => {
      // The live socket's greeting: from then on the server's news reaches the page.
      let greeted = false;
      page.on('websocket', (ws) => ws.on('framereceived', (f) => void (String(f.payload).includes('"type":"hello"') && (greeted = true))));
      await signInAs(page, server, 'demo', DEMO_PASSWORD);
      const bell = page.locator('[data-testid=inbox-bell]');
      const none = lang === 'en' ? 'Inbox, no unread messages' : '消息中心，没有未读消息';
      const one = lang === 'en' ? 'Inbox, 1 unread' : '消息中心，1 条未读';
      await until(async () => (await bell.getAttribute('aria-label')) === none);
      await until(() => greeted);

      // 9.5 °C over the HTTP intake: above the 8 °C limit; the rule's in-app message goes to demo.
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/iot/v2/device/report',
        headers: { authorization: `Basic ${Buffer.from(`${device.deviceId}:${device.secret}`).toString('base64')}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ deviceId: device.deviceId, time: new Date().toISOString(), lat: 31.23, lon: 121.47, extraData: '{"3":{"temp":95}}' }),
      });
      expect(res.statusCode).toBe(200);
      await until(async () => (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?deviceId=${device.id}&status=active`)).total === 1);
      const [alarm] = (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?deviceId=${device.id}&status=active`)).rows;

      // The count follows without a reload.
      await until(async () => (await bell.getAttribute('aria-label')) === one);
      expect(await bell.innerText()).toContain('1');
      await screenshot(page, `inbox-bell-${lang}`);

      await bell.click();
      const items = page.locator('[data-testid=inbox-item]');
      // This run's alarm first; the notice (and an earlier run's alarm, read) below it.
      const total = (await apiCall<Page<InboxItem>>(server, demo, 'GET', INBOX_API.list)).total;
      await until(async () => (await items.count()) === total);
      const first = items.first();
      expect(await first.getAttribute('data-kind')).toBe('alarm');
      expect(await first.getAttribute('data-read')).toBe('false');
      expect(await first.innerText()).toContain(lang === 'en' ? 'Temperature high' : '温度过高');
      expect(await items.last().innerText()).toContain(lang === 'en' ? 'Maintenance on Sunday night' : '平台将于周日凌晨维护');
      expect(await page.locator('[data-testid=inbox-mark-all]').innerText()).toBe(lang === 'en' ? 'Mark all as read' : '全部标为已读');
      await screenshot(page, `inbox-drawer-${lang}`);

      // Opening the message marks it read and leads to the alarm's details.
      await first.locator('button').click();
      await page.waitForURL((u) => u.pathname === '/view/alarm/query' && u.searchParams.get('alarm') === alarm!.id);
      await until(async () => (await bell.getAttribute('aria-label')) === none);
      expect((await apiCall<InboxCount>(server, demo, 'GET', INBOX_API.unreadCount)).unread).toBe(0);
      await page.locator('[data-testid=alarm-detail-fields]').waitFor({ timeout: 15_000 });
      await screenshot(page, `inbox-alarm-${lang}`);
    });
  });
});
