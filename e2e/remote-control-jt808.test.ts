// Browser test of remote control to a JT/T 808 terminal, on the real server with its gateway and a
// terminal over real TCP, in both languages: the demo operator picks the terminal and is offered
// the standard's commands only (not the JSON devices' set point), asks for a text message read
// aloud; the administrator approves it; the terminal receives 0x8300 and answers 0x0001 result 0;
// the row turns "acknowledged" by itself, and the story shows the node that wrote the frame.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import type { CommandPage } from '@iotc/shared/command';
import type { DeviceRow } from '@iotc/shared/device';
import { orgs } from '../apps/server/src/db/schema.ts';
import { Deframer, decodeFrame, encodeFrame, type Jt808Frame } from '../apps/server/src/modules/jt808/codec.ts';
import { decodeGeneralAnswer, decodeRegistrationAnswer, encodeAuthentication, encodeGeneralAnswer, encodeRegistration, MSG } from '../apps/server/src/modules/jt808/messages.ts';
import { decodeTextMessage } from '../apps/server/src/modules/jt808/commands.ts';
import { startJt808Gateway, type Jt808Gateway } from '../apps/server/src/modules/jt808/gateway.ts';
import { jt808Repo } from '../apps/server/src/modules/jt808/repo.ts';
import { jt808Service } from '../apps/server/src/modules/jt808/service.ts';
import { apiCall, ADMIN_PASSWORD, DEMO_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';
import type { Page as BrowserPage } from 'playwright-core';

let server: Server;
let gateway: Jt808Gateway;
let token: string;
let demoOrg: string;
const sockets: Socket[] = [];

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

/** A terminal on a real socket, registered and authenticated; `next(id)` waits for a platform frame. */
async function terminal(phone: string) {
  const socket = connect(gateway.port, '127.0.0.1');
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const deframer = new Deframer();
  const frames: Jt808Frame[] = [];
  socket.on('data', (chunk) => {
    for (const f of deframer.push(chunk)) if (Buffer.isBuffer(f)) frames.push(decodeFrame(f));
  });
  let serial = 0;
  const send = (messageId: number, body: Buffer) => socket.write(encodeFrame({ messageId, phone, serial: ++serial }, body));
  const next = async (messageId: number) => {
    await until(() => frames.some((f) => f.header.messageId === messageId));
    return frames.splice(
      frames.findIndex((f) => f.header.messageId === messageId),
      1,
    )[0]!;
  };
  send(MSG.register, encodeRegistration({ edition: 2013, province: 31, city: 100, manufacturer: 'ACME', model: 'GT-808', terminalId: 'T000077', plateColour: 1, plate: '沪A77777' }));
  const reg = decodeRegistrationAnswer((await next(MSG.registerAnswer)).body);
  send(MSG.authenticate, encodeAuthentication({ code: reg.authCode! }, false));
  expect(decodeGeneralAnswer((await next(MSG.platformAnswer)).body).result).toBe(0);
  return { send, next };
}

beforeAll(async () => {
  server = await startServer({ nodeId: 'e2e-node' });
  const res = await server.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }) });
  token = (res.json() as { data: { token: string } }).data.token;
  demoOrg = (await server.app.database.db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  // The harness starts the app without its listeners: this test brings the JT/T 808 gateway.
  gateway = await startJt808Gateway({
    port: 0,
    host: '127.0.0.1',
    log: pino({ level: 'silent' }),
    intake: server.app.intake,
    service: jt808Service(jt808Repo(server.app.database.db), { nodeId: 'e2e-node' }),
    commands: server.app.jt808Commands,
  });
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await gateway?.close();
  await server?.close();
});

const TEXT = {
  en: { kind: 'Text message', setPoint: 'Set temperature set point', acknowledged: 'Acknowledged', pending: 'Pending review', message: 'Please stop at the next service area' },
  zh: { kind: '文本信息下发', setPoint: '设置温度设定值', acknowledged: '已确认', pending: '待审核', message: '请在前方服务区停车' },
} as const;

describe('remote control of a JT/T 808 terminal', { timeout: 180_000 }, () => {
  for (const [locale, lang, phone] of [
    ['en-US', 'en', '013977700001'],
    ['zh-CN', 'zh', '013977700002'],
  ] as const) {
    it(`an operator sends a text message, an administrator approves, the terminal answers (${lang})`, async () => {
      const text = TEXT[lang];
      const device = await api<DeviceRow>('POST', '/api/iot/v2/devices', { deviceId: phone, name: `Truck ${lang}`, orgId: demoOrg, protocol: 'jt808' });
      const term = await terminal(phone);

      await withBrowser(locale, async ({ page }) => {
        await signIn(page, 'demo', DEMO_PASSWORD);
        await page.goto(`${server.url}/view/Asset/control`);
        await page.locator('[data-testid=remote-control-page]').waitFor();
        await page.locator('[data-testid=rc-new]').click();
        await page.locator('[data-testid=rc-request-device]').click();
        await page.keyboard.type(phone);
        await page.locator('.ant-select-item-option', { hasText: phone }).click();
        await page.locator('[data-testid=rc-request-kind]').click();
        // A terminal is offered the standard's commands, not the JSON devices' set point.
        await page.locator('.ant-select-item-option', { hasText: text.kind }).waitFor();
        expect(await page.locator('.ant-select-item-option', { hasText: text.setPoint }).count()).toBe(0);
        await page.locator('.ant-select-item-option', { hasText: text.kind }).click();
        await page.locator('#rc-request-text').fill(text.message);
        await page.locator('#rc-request-tts').check();
        // The picture once the box has finished drawing its tick.
        await page.waitForFunction(() => {
          const box = document.querySelector('#rc-request-tts')?.closest('.ant-checkbox');
          return !!box && box.classList.contains('ant-checkbox-checked') && box.getAnimations({ subtree: true }).length === 0;
        });
        await screenshot(page, `remote-control-jt808-request-${lang}`);
        await page.locator('[data-testid=rc-request-submit]').click();
        await until(async () => (await api<CommandPage>('GET', `/api/iot/v2/commands?deviceRef=${device.id}`)).total === 1);
      });

      const [cmd] = (await api<CommandPage>('GET', `/api/iot/v2/commands?deviceRef=${device.id}`)).rows;
      expect(cmd).toMatchObject({ status: 'pending_review', kind: 'text_message', params: { text: text.message, tts: true, emergency: false } });

      await withBrowser(locale, async ({ page }) => {
        await signIn(page, 'admin', ADMIN_PASSWORD);
        await page.goto(`${server.url}/view/Asset/control`);
        const row = page.locator(`tr[data-row-key="${cmd!.id}"]`);
        await row.locator('[data-testid=rc-cell-status]', { hasText: text.pending }).waitFor();
        await row.locator('[data-testid=rc-row-approve]').click();
        // Approving is signed: the administrator's password again.
        await page.locator('#rc-review-password').fill(ADMIN_PASSWORD);
        await page.locator('[data-testid=rc-review-submit]').click();
        const frame = await term.next(MSG.textMessage);
        expect(decodeTextMessage(frame.body, false)).toEqual({ flags: 0x04 | 0x08, text: text.message });
        term.send(MSG.terminalAnswer, encodeGeneralAnswer({ serial: frame.header.serial, messageId: frame.header.messageId, result: 0 }));
        // No reload: the screen reads again every 5 s while the command is out.
        await row.locator('[data-testid=rc-cell-status]', { hasText: text.acknowledged }).waitFor({ timeout: 20_000 });
        await row.locator('[data-testid=rc-row-details]').click();
        const drawer = page.locator('[data-testid=rc-detail]');
        await drawer.locator('[data-testid=rc-event][data-kind=acknowledged]').waitFor();
        expect(await drawer.locator('[data-testid=rc-event]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).toEqual(['requested', 'approved', 'sent', 'delivered', 'acknowledged']);
        expect(await drawer.locator('[data-testid=rc-event][data-kind=delivered]').textContent()).toContain('e2e-node');
        await screenshot(page, `remote-control-jt808-acknowledged-${lang}`);
      });
    });
  }
});
