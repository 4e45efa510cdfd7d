// Browser test of the alarm flow with message push, on the real server, the real MQTT path, a
// local SMTP server and a local HTTP receiver, in both languages: a report over MQTT breaks a
// rule; its push rule's first step e-mails the duty address and calls the webhook (signed) at
// once; the operator finds the alarm on the alarm flow screen, acknowledges it in the details,
// opens a work order for it and follows the link to the order; the message push screen's delivery
// log shows both deliveries as sent; and the escalation's second step (the supervisor's e-mail)
// never goes out, even when its time comes.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import type { AlarmRow, LevelRow, PolicyRow } from '@iotc/shared/alarm';
import type { DeliveryRow, PushRuleRow } from '@iotc/shared/alarm-push';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { startMqtt, type MqttLink } from '../apps/server/src/ingest/mqtt.ts';
import { apiCall, ADMIN_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';

const SECRET = 'e2e-webhook-secret-0123456789';

let server: Server;
let link: MqttLink;
let token: string;
let smtp: SMTPServer;
let hooks: HttpServer;
let hookBase: string;
const mails: { to: string; subject: string; text: string }[] = [];
const hookCalls: { payload: { alarm?: { id: string }; event?: string }; signatureValid: boolean }[] = [];

function verify(headers: IncomingHttpHeaders, raw: string): boolean {
  const expected = `sha256=${createHmac('sha256', SECRET).update(`${String(headers['x-iotc-timestamp'])}.${raw}`).digest('hex')}`;
  const given = String(headers['x-iotc-signature'] ?? '');
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

const api = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => apiCall<T>(server, token, method, url, body);

async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () =>
        void PostalMime.parse(Buffer.concat(chunks)).then(
          (m) => {
            mails.push({ to: m.to?.[0]?.address ?? '', subject: m.subject ?? '', text: m.text ?? '' });
            cb();
          },
          (err: Error) => cb(err),
        ),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  hooks = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      hookCalls.push({ payload: JSON.parse(raw) as { alarm?: { id: string } }, signatureValid: verify(req.headers, raw) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hookBase = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
  // The escalation's clock is driven by the test: no tick of the server's own.
  server = await startServer({ smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, alarmTickMs: 3_600_000 });
  link = await startMqtt({ port: 0, host: '127.0.0.1', log: server.app.log, authenticate: server.app.intake.authenticate, sink: server.app.intake });
  const res = await server.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }) });
  token = (res.json() as { data: { token: string } }).data.token;
});
afterAll(async () => {
  await link.close();
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise<void>((resolve) => hooks.close(() => resolve()));
});

async function publish(device: DeviceWithSecret, report: Record<string, unknown>) {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${link.port}`, { username: device.deviceId, password: device.secret, reconnectPeriod: 0 });
  try {
    await client.publishAsync(`devices/${device.deviceId}/report`, JSON.stringify({ deviceId: device.deviceId, time: new Date().toISOString(), lat: 31.2304, lon: 121.4737, ...report }), { qos: 1 });
  } finally {
    await client.endAsync();
  }
}

describe.each(['en-US', 'zh-CN'] as const)('alarm flow with message push in %s', (locale) => {
  it('e-mails and calls the webhook at once, and an acknowledgement in the browser stops the escalation', async () => {
    const tag = locale === 'en-US' ? 'EN' : 'ZH';
    const lang = locale === 'en-US' ? 'en' : 'zh';
    const duty = `duty-${lang}@example.com`;
    const boss = `boss-${lang}@example.com`;
    const device = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: `PUSH${tag}0001`, name: `Reefer push ${tag}` });
    const urgent = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels?size=100')).rows.find((l) => l.code === 'urgent' && l.orgId === device.orgId)!;
    const policy = await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', {
      name: `Push ${tag} limits`,
      scope: 'devices',
      targets: [device.id],
      rules: [{ id: 'hot', type: 'temp_high', threshold: 8, hysteresis: 0.5, levelId: urgent.id }],
    });
    await api<PushRuleRow>('POST', '/api/iot/v2/push-rules', {
      name: `Push ${tag}`,
      language: lang,
      timezone: 'Asia/Shanghai',
      match: { policyIds: [policy.id] },
      steps: [
        { afterMinutes: 0, channels: ['email', 'webhook'], emails: [duty], webhooks: [{ url: `${hookBase}/alarm-${lang}`, secret: SECRET }] },
        { afterMinutes: 5, channels: ['email'], emails: [boss] },
      ],
    });

    await withBrowser(locale, async ({ page }) => {
      await page.goto(`${server.url}/login`);
      await page.locator('#account').fill('admin');
      await page.locator('#password').fill(ADMIN_PASSWORD);
      await page.locator('#login-submit').click();
      await page.waitForURL((u) => u.pathname === '/view/deviceManage/realTimeMonitoring');

      // 9.3 C: above the 8 C limit.
      await publish(device, { extraData: '{"3":{"temp":93}}' });
      await until(async () => (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?deviceId=${device.id}&status=active`)).total === 1);
      const [alarm] = (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?deviceId=${device.id}&status=active`)).rows;
      // The first step: the e-mail in the rule's language, and the signed webhook call.
      await until(() => mails.some((m) => m.to === duty) && hookCalls.some((h) => h.payload.alarm?.id === alarm!.id));
      const mail = mails.find((m) => m.to === duty)!;
      expect(mail.subject).toContain(lang === 'en' ? 'Temperature high' : '温度过高');
      expect(mail.text).toContain(device.deviceId);
      expect(hookCalls.find((h) => h.payload.alarm?.id === alarm!.id)!.signatureValid).toBe(true);

      // The operator finds it waiting on the alarm flow screen and acknowledges it in the details.
      await page.goto(`${server.url}/view/alarm/flow`);
      const row = page.locator(`tr[data-row-key="${alarm!.id}"]`);
      await row.waitFor();
      await row.locator('td').nth(3).click();
      const drawer = page.locator('[data-testid=alarm-detail]');
      await drawer.locator('[data-testid=alarm-event][data-kind=notified]').first().waitFor();
      await screenshot(page, `alarm-flow-detail-${locale}`);
      await page.locator('[data-testid=alarm-detail-acknowledge]').click();
      await drawer.locator('[data-testid=alarm-event][data-kind=acknowledged]').waitFor();
      await expect.poll(async () => (await api<AlarmRow>('GET', `/api/iot/v2/alarms/${alarm!.id}`)).acknowledgedBy).toBe('admin');

      // A work order for it, from the details; the alarm links to the order.
      await page.locator('[data-testid=alarm-detail-work-order-open]').click();
      await page.locator('#alarm-work-order-submit').click();
      const link = drawer.locator('[data-testid=alarm-detail-work-order]');
      await link.waitFor();
      await drawer.locator('[data-testid=alarm-event][data-kind=work_order_opened]').waitFor();
      const order = (await api<AlarmRow>('GET', `/api/iot/v2/alarms/${alarm!.id}`)).workOrder!;
      expect(order.code).toMatch(/^WO-\d{8}-\d{4}$/);
      expect(await link.textContent()).toContain(order.code);
      await link.click();
      await page.waitForURL((u) => u.pathname === '/view/alarm/workOrders');
      const orderDrawer = page.locator('[data-testid=wo-detail]');
      await orderDrawer.locator(`[data-testid=wo-alarm][data-id="${alarm!.id}"]`).waitFor();
      expect(await orderDrawer.locator('[data-testid=wo-detail-fields]').textContent()).toContain(order.code);
      await screenshot(page, `work-order-detail-${locale}`);

      // The delivery log: the e-mail and the webhook call, sent.
      await page.goto(`${server.url}/view/alarm/push?tab=deliveries`);
      const sentCells = page.locator('[data-testid=push-delivery-status-cell]');
      await expect.poll(() => sentCells.count()).toBeGreaterThanOrEqual(2);
      expect(await page.locator('[data-testid=push-delivery-target-cell]').allTextContents()).toEqual(expect.arrayContaining([duty, `${hookBase}/alarm-${lang}`]));
      await screenshot(page, `message-push-log-${locale}`);
    });

    // Ten minutes on, the second step would be due: acknowledged, it is never sent.
    await server.app.push.tick(Date.now() + 10 * 60_000);
    await server.app.push.settled();
    await new Promise((r) => setTimeout(r, 300));
    expect(mails.filter((m) => m.to === boss)).toEqual([]);
    const [alarm] = (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?deviceId=${device.id}`)).rows;
    const sent = await api<DeliveryRow[]>('GET', `/api/iot/v2/alarms/${alarm!.id}/deliveries`);
    expect(sent.map((d) => [d.step, d.channel, d.status]).sort()).toEqual([
      [1, 'email', 'sent'],
      [1, 'webhook', 'sent'],
    ]);
  });
});
