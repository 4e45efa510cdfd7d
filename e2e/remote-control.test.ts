// Browser test of remote control, on the real server and a real embedded MQTT broker, in both
// languages: the demo operator asks for a set point on the remote-control screen (reached by the
// mock alias /view/Asset/control); the administrator approves it on the same screen; a test MQTT
// client acting as the device receives the command on its topic and acknowledges it; and the row
// turns "acknowledged" by itself (the screen reads again while a command is out), with the full
// story in the details.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import type { CommandPage } from '@iotc/shared/command';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { startMqtt, type MqttLink } from '../apps/server/src/ingest/mqtt.ts';
import { orgs } from '../apps/server/src/db/schema.ts';
import { apiCall, ADMIN_PASSWORD, DEMO_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';
import type { Page as BrowserPage } from 'playwright-core';

let server: Server;
let link: MqttLink;
let detach: () => void;
let token: string;
let demoOrg: string;
const clients: MqttClient[] = [];

const api = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => apiCall<T>(server, token, method, url, body);

async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function signIn(page: BrowserPage, account: string, password: string) {
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill(account);
  await page.locator('#password').fill(password);
  await page.locator('#login-submit').click();
  await page.waitForURL((u) => u.pathname.startsWith('/view/'));
}

beforeAll(async () => {
  server = await startServer();
  const res = await server.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }) });
  token = (res.json() as { data: { token: string } }).data.token;
  demoOrg = (await server.app.database.db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  // The harness starts the app without a device link: this test brings the embedded broker and attaches it.
  link = await startMqtt({ port: 0, host: '127.0.0.1', log: server.app.log, authenticate: server.app.intake.authenticate, sink: server.app.intake, commandAcks: server.app.commands.onAck });
  detach = server.app.commands.attach(link);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  detach?.();
  await link?.close();
  await server?.close();
});

const TEXT = {
  en: { kind: 'Set temperature set point', acknowledged: 'Acknowledged', pending: 'Pending review', approve: 'Approve' },
  zh: { kind: '设置温度设定值', acknowledged: '已确认', pending: '待审核', approve: '通过' },
} as const;

describe('remote-control review', { timeout: 180_000 }, () => {
  for (const [locale, lang] of [
    ['en-US', 'en'],
    ['zh-CN', 'zh'],
  ] as const) {
    it(`an operator requests, an administrator approves, the device acknowledges (${lang})`, async () => {
      const text = TEXT[lang];
      const deviceId = `RC-${lang}-${Date.now()}`;
      const device = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId, name: `Reefer ${lang}`, orgId: demoOrg });
      // The device: signed in with its id and secret, listening on its command topic.
      const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${link.port}`, { username: device.deviceId, password: device.secret, reconnectPeriod: 0 });
      clients.push(c);
      const received: { id: string; kind: string; params: { celsius?: number } }[] = [];
      c.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString()) as (typeof received)[number]));
      await c.subscribeAsync(`devices/${device.deviceId}/command`, { qos: 1 });

      // The operator asks for -18 °C.
      await withBrowser(locale, async ({ page }) => {
        await signIn(page, 'demo', DEMO_PASSWORD);
        await page.goto(`${server.url}/view/Asset/control`);
        await page.locator('[data-testid=remote-control-page]').waitFor();
        await page.locator('[data-testid=rc-new]').click();
        await page.locator('[data-testid=rc-request-device]').click();
        await page.keyboard.type(deviceId);
        await page.locator('.ant-select-item-option', { hasText: deviceId }).click();
        await page.locator('[data-testid=rc-request-kind]').click();
        await page.locator('.ant-select-item-option', { hasText: text.kind }).click();
        await page.locator('#rc-request-celsius').fill('-18');
        await page.locator('[data-testid=rc-request-submit]').click();
        await until(async () => (await api<CommandPage>('GET', `/api/iot/v2/commands?deviceRef=${device.id}`)).total === 1);
        const [cmd] = (await api<CommandPage>('GET', `/api/iot/v2/commands?deviceRef=${device.id}`)).rows;
        const row = page.locator(`tr[data-row-key="${cmd!.id}"]`);
        await row.locator('[data-testid=rc-cell-status]', { hasText: text.pending }).waitFor();
        // No approving one's own request: the operator has no such button at all.
        expect(await row.locator('[data-testid=rc-row-approve]').count()).toBe(0);
        await screenshot(page, `remote-control-requested-${lang}`);
      });

      const [cmd] = (await api<CommandPage>('GET', `/api/iot/v2/commands?deviceRef=${device.id}`)).rows;
      expect(cmd).toMatchObject({ status: 'pending_review', kind: 'set_point', params: { celsius: -18 }, requester: { account: 'demo' } });

      // The administrator approves; the device acknowledges what it received; the row follows.
      await withBrowser(locale, async ({ page }) => {
        await signIn(page, 'admin', ADMIN_PASSWORD);
        await page.goto(`${server.url}/view/Asset/control`);
        const row = page.locator(`tr[data-row-key="${cmd!.id}"]`);
        await row.locator('[data-testid=rc-cell-command]', { hasText: '-18 °C' }).waitFor();
        await row.locator('[data-testid=rc-row-approve]').click();
        // Approving is signed: the administrator's password again.
        await page.locator('#rc-review-password').fill(ADMIN_PASSWORD);
        await page.locator('[data-testid=rc-review-submit]').click();
        await until(() => received.length === 1);
        expect(received[0]).toMatchObject({ id: cmd!.id, kind: 'set_point', params: { celsius: -18 } });
        await c.publishAsync(`devices/${device.deviceId}/command/ack`, JSON.stringify({ id: cmd!.id, ok: true, message: 'set point -18' }), { qos: 1 });
        // No reload: the screen reads again every 5 s while the command is out.
        await row.locator('[data-testid=rc-cell-status]', { hasText: text.acknowledged }).waitFor({ timeout: 20_000 });
        expect(await row.locator('[data-testid=rc-cell-result]').textContent()).toBe('set point -18');
        await row.locator('[data-testid=rc-row-details]').click();
        const drawer = page.locator('[data-testid=rc-detail]');
        await drawer.locator('[data-testid=rc-event][data-kind=acknowledged]').waitFor();
        expect(await drawer.locator('[data-testid=rc-event]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).toEqual(['requested', 'approved', 'sent', 'acknowledged']);
        await screenshot(page, `remote-control-acknowledged-${lang}`);
      });
    });
  }
});
