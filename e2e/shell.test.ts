// Browser tests of the console shell in Chromium against the built app on the real server:
// sign in and out in both languages, themes, week and session logins across a browser restart,
// an expired login mid-session, the not-found page, the scenario menus and the root font rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page, Route } from 'playwright-core';
import { sessions } from '../apps/server/src/db/schema.ts';
import { chooseUserMenu, DEMO_PASSWORD, screenshot, startServer, type Server, withBrowser } from './harness.ts';

const LANDING = '/view/deviceManage/realTimeMonitoring';
let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

async function signIn(page: Page, opts: { week?: boolean; password?: string } = {}) {
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill('demo');
  await page.locator('#password').fill(opts.password ?? DEMO_PASSWORD);
  if (opts.week) await page.locator('#period').check();
  await page.locator('#login-submit').click();
}

async function tokenOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'token');
  if (cookie) return cookie.value;
  const stored = await page.evaluate(() => sessionStorage.getItem('token'));
  return (JSON.parse(stored!) as { content: string }).content;
}

describe('sign in and out', () => {
  it('in English', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await page.goto(server.url + '/');
      await page.waitForURL((u) => u.pathname === '/login');
      expect(await page.title()).toBe('IoT Cloud Console');
      await screenshot(page, 'login-en');

      // Required fields, in the spec's words.
      await page.locator('#login-submit').click();
      await expect.poll(() => page.getByText('Account cannot be empty').count()).toBe(1);
      await expect.poll(() => page.getByText('Password cannot be empty').count()).toBe(1);

      // A wrong password is said inline.
      await signIn(page, { password: 'Wrong#1234' });
      await expect.poll(() => page.locator('[data-testid=login-error]').textContent()).toContain('Account password error, please re-enter');

      await signIn(page);
      await page.waitForURL(`**${LANDING}`);
      await page.locator('[data-testid=screen-title]').waitFor();
      expect(await page.locator('[data-testid=screen-title]').textContent()).toBe('Real-time monitoring');
      expect(await page.locator('[data-testid=nav-user-name]').textContent()).toBe('Demo Operator');
      expect(await page.locator('[data-testid=nav-org-name]').textContent()).toBe('Demo Cold Chain Co.');
      const crumbs = await page.locator('[data-testid=breadcrumb] .ant-breadcrumb-link, [data-testid=breadcrumb] li').allTextContents();
      expect(crumbs.join('|')).toMatch(/^IoT Cloud Console/);
      expect(crumbs.join('|')).toContain('Device monitoring');
      await expect.poll(() => page.locator('[data-testid=nav-menu]').textContent()).toContain('Monitoring and alarm management');
      expect(await page.locator('[data-testid=nav-menu]').textContent()).not.toContain('Platform management');
      await screenshot(page, 'landing-en');

      // Three levels: open a second-level group and go to a third-level item; pid travels in the query.
      await page.getByText('Alarm management', { exact: true }).click();
      await page.getByText('Alarm query', { exact: true }).click();
      await page.waitForURL(/\/view\/alarm\/query\?pid=102-monitor-alarm/);

      const token = await tokenOf(page);
      await chooseUserMenu(page, 'logout');
      await page.locator('.logout-confirm .ant-btn-primary').click();
      await page.waitForURL((u) => u.pathname === '/login');
      // The server no longer accepts the token, and the console asks to sign in again.
      const res = await server.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/info', headers: { access_token: token } });
      expect(res.statusCode).toBe(401);
      await page.goto(server.url + LANDING);
      await page.waitForURL(/\/login\?redirect=/);
    });
  });

  it('in Chinese, with the language switch and Ant Design texts following', async () => {
    await withBrowser('zh-CN', async ({ page, context }) => {
      await page.goto(server.url + '/login');
      expect(await page.title()).toBe('物联网云平台');
      await page.locator('#login-submit').click();
      await expect.poll(() => page.getByText('账号不能为空').count()).toBe(1);
      await screenshot(page, 'login-zh');

      // Switch to English and back on the login page; the choice is kept in the language cookie.
      await page.locator('[data-testid=lang-en]').click();
      await expect.poll(() => page.title()).toBe('IoT Cloud Console');
      expect((await context.cookies()).find((c) => c.name === 'language')?.value).toBe('en');
      await page.locator('[data-testid=lang-zh]').click();
      await expect.poll(() => page.title()).toBe('物联网云平台');

      await signIn(page, { password: 'Wrong#1234' });
      await expect.poll(() => page.locator('[data-testid=login-error]').textContent()).toContain('账号密码错误，请重新输入');

      await signIn(page);
      await page.waitForURL(`**${LANDING}`);
      await page.locator('[data-testid=screen-title]').waitFor();
      expect(await page.locator('[data-testid=screen-title]').textContent()).toBe('实时监控');
      await expect.poll(() => page.locator('[data-testid=nav-menu]').textContent()).toContain('监控告警管理');
      const crumbs = await page.locator('[data-testid=breadcrumb]').textContent();
      expect(crumbs).toMatch(/^物联网云平台/);
      expect(crumbs).toContain('设备实时监控');
      await screenshot(page, 'landing-zh');

      // Switching language in the console reloads the menu names from the server.
      await page.locator('[data-testid=lang-en]').click();
      await expect.poll(() => page.locator('[data-testid=nav-menu]').textContent()).toContain('Monitoring and alarm management');
      await page.locator('[data-testid=lang-zh]').click();
      await expect.poll(() => page.locator('[data-testid=nav-menu]').textContent()).toContain('监控告警管理');

      await chooseUserMenu(page, 'logout');
      // Ant Design's own buttons speak Chinese too.
      const confirm = page.locator('.logout-confirm');
      await confirm.waitFor();
      expect(await confirm.locator('.ant-btn').allTextContents()).toEqual(expect.arrayContaining(['确定', '取消']));
      await confirm.locator('.ant-btn-primary').click();
      await page.waitForURL((u) => u.pathname === '/login');
    });
  });
});

describe('client state', () => {
  it('the red theme persists across a reload', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await signIn(page);
      await page.waitForURL(`**${LANDING}`);
      expect(await page.locator('html').getAttribute('data-theme')).toBe('default-theme');
      const blue = await page.locator('.ant-menu-item-selected').evaluate((el) => getComputedStyle(el).backgroundColor);
      await page.locator('[data-testid=theme-red]').click();
      await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('red-theme');
      await page.reload();
      await page.locator('[data-testid=screen-title]').waitFor();
      expect(await page.locator('html').getAttribute('data-theme')).toBe('red-theme');
      expect(await page.evaluate(() => localStorage.getItem('theme'))).toContain('red-theme');
      const red = await page.locator('.ant-menu-item-selected').evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(red).not.toBe(blue);
      await screenshot(page, 'landing-en-red');
    });
  });

  it('a week login survives a browser restart; a session login does not', async () => {
    await withBrowser('en-US', async (b) => {
      await signIn(b.page, { week: true });
      await b.page.waitForURL(`**${LANDING}`);
      const cookie = (await b.context.cookies()).find((c) => c.name === 'token');
      expect(cookie?.expires).toBeGreaterThan(Date.now() / 1000 + 6.9 * 86_400);
      await b.restart();
      await b.page.goto(server.url + LANDING);
      await b.page.locator('[data-testid=screen-title]').waitFor();
      expect(new URL(b.page.url()).pathname).toBe(LANDING);
    });
    await withBrowser('en-US', async (b) => {
      await signIn(b.page);
      await b.page.waitForURL(`**${LANDING}`);
      expect((await b.context.cookies()).find((c) => c.name === 'token')).toBeUndefined();
      expect(await b.page.evaluate(() => sessionStorage.getItem('token'))).toBeTruthy();
      await b.restart();
      await b.page.goto(server.url + LANDING);
      await b.page.waitForURL(/\/login\?redirect=/);
    });
  });

  it('an expired login mid-session asks to sign in again and leads to /login', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await signIn(page);
      await page.waitForURL(`**${LANDING}`);
      await page.locator('[data-testid=screen-title]').waitFor();
      const token = await tokenOf(page);
      // The session ends on the server (revoked elsewhere, or expired).
      const hash = createHash('sha256').update(token).digest('hex');
      await server.app.database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.tokenHash, hash));
      // The next request (menu names in the other language) meets a 401.
      await page.locator('[data-testid=lang-zh]').click();
      const dialog = page.locator('.session-expired-dialog');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('当前登录状态已过期，是否重新登录？');
      expect(await page.locator('.session-expired-dialog').count()).toBe(1);
      await screenshot(page, 'expired-zh');
      await dialog.locator('.ant-btn-primary').click();
      await page.waitForURL((u) => u.pathname === '/login');
    });
  });
});

describe('request feedback', () => {
  it('reports only the first failure of a batch, and hides the progress bar 500 ms after the last request', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await signIn(page, { week: true });
      await page.waitForURL(`**${LANDING}`);
      await page.locator('[data-testid=screen-title]').waitFor();
      // Menu and dictionaries load together on the next page; both fail, slowly enough to overlap.
      const failing = async (route: Route) => {
        await new Promise((r) => setTimeout(r, 300));
        await route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ isSuccess: 'N', data: null, errorcode: 'INTERNAL', errormsg: 'Boom from the server' }),
        });
      };
      await page.route('**/iot-cloud-auth/menu/v1/loadMenu', failing);
      await page.route('**/iot-cloud-auth/dict/v1/all/config', failing);
      await page.evaluate(() => localStorage.removeItem('iot-dictionary'));
      await page.reload();
      const note = page.locator('.server-error-notification');
      await note.first().waitFor();
      expect(await note.first().textContent()).toContain('Server error, please contact the administrator!');
      expect(await note.first().textContent()).toContain('Boom from the server');
      // 500 ms after the last answer the bar finishes, then fades out (2 x 200 ms); on a loaded
      // machine the page's other requests may answer later, so wait for it rather than a fixed time.
      await page.waitForTimeout(1500);
      await expect.poll(() => page.locator('#nprogress').count(), { timeout: 10_000 }).toBe(0);
      expect(await note.count()).toBe(1);
    });
  });

  it('shows the progress bar while a request is in flight', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await signIn(page, { week: true });
      await page.waitForURL(`**${LANDING}`);
      await page.locator('[data-testid=screen-title]').waitFor();
      // Let the landing page's own requests finish and their bar fade out.
      await page.locator('#nprogress').waitFor({ state: 'detached' });
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let intercepted!: () => void;
      const arrived = new Promise<void>((r) => (intercepted = r));
      await page.route('**/iot-cloud-auth/menu/v1/loadMenu', async (route) => {
        intercepted();
        await held;
        await route.continue();
      });
      await page.locator('[data-testid=lang-zh]').click(); // menu names reload in Chinese
      await arrived;
      await page.waitForTimeout(700);
      // Still held: the bar stays.
      expect(await page.locator('#nprogress').count()).toBe(1);
      const releasedAt = Date.now();
      release();
      await page.locator('#nprogress').waitFor({ state: 'detached' });
      // NProgress.done() runs 500 ms after the last answer, then fades out.
      expect(Date.now() - releasedAt).toBeGreaterThanOrEqual(500);
      await expect.poll(() => page.locator('[data-testid=nav-menu]').textContent()).toContain('监控告警管理');
    });
  });
});

describe('addresses that carry a token or a screen', () => {
  async function apiToken(period?: 7): Promise<string> {
    const res = await server.app.inject({
      method: 'POST',
      url: '/iot-cloud-auth/auth/v1/login',
      payload: { account: 'demo', password: DEMO_PASSWORD, ...(period ? { period } : {}) },
    });
    return (res.json() as { data: { token: string } }).data.token;
  }

  it('a token in the address signs in, says so, and leaves the address', async () => {
    const token = await apiToken();
    await withBrowser('en-US', async ({ page }) => {
      await page.goto(`${server.url}/?token=${token}`);
      await page.waitForURL(`**${LANDING}`);
      await page.getByText('login verification TOKEN').waitFor();
      await page.locator('[data-testid=screen-title]').waitFor();
      expect(page.url()).not.toContain(token);
      expect(await tokenOf(page)).toBe(token);

      // A new token for a signed-in browser replaces the old one.
      const next = await apiToken();
      await page.goto(`${server.url}${LANDING}?token=${next}`);
      await page.getByText('update verification TOKEN').waitFor();
      await expect.poll(() => tokenOf(page)).toBe(next);
      await expect.poll(() => page.url()).not.toContain(next);
    });
  });

  it('a new window for a menu item (newPage) opens that item', async () => {
    const token = await apiToken();
    await withBrowser('zh-CN', async ({ page }) => {
      const q = new URLSearchParams({
        token,
        newPage: '1',
        id: '101-monitor-live-device',
        pid: '101-monitor-live',
        name: '设备实时监控',
        url: 'view/scenario_transport/deviceManage/realTimeMonitoring',
        icon: '',
        _active: 'true',
        type: '101',
      });
      await page.goto(`${server.url}/?${q}`);
      await page.waitForURL(/\/view\/scenario_transport\/deviceManage\/realTimeMonitoring\?pid=101-monitor-live/);
      await page.getByText('登录验证TOKEN').waitFor();
      await expect.poll(() => page.locator('[data-testid=nav-menu]').textContent()).toContain('运输任务管理');
      expect(await page.evaluate(() => sessionStorage.getItem('type'))).toContain('101');
      expect(await page.evaluate(() => sessionStorage.getItem('router'))).toContain('101-monitor-live-device');
    });
  });

  it('a screen whose code cannot be fetched shows the chunk failure with its type and request, and retries', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await signIn(page, { week: true });
      await page.waitForURL(`**${LANDING}`);
      await page.locator('[data-testid=screen-title]').waitFor();
      await page.route('**/assets/index-page-*.js', (route) => route.abort('connectionrefused'));
      await page.goto(server.url + '/view/home');
      const box = page.locator('[data-testid=chunk-error]');
      await box.waitFor();
      expect(await box.textContent()).toMatch(/Loading chunk \S+ failed/);
      expect(await page.locator('[data-testid=chunk-error-type]').getAttribute('data-type')).toBe('missing');
      expect(await page.locator('[data-testid=chunk-error-request]').textContent()).toMatch(/index-page|home/);
      await screenshot(page, 'chunk-error-en');
      await page.unroute('**/assets/index-page-*.js');
      await page.locator('[data-testid=chunk-error-retry]').click();
      await page.locator('[data-testid=index-page]').waitFor();
    });
  });
});

describe('routes', () => {
  it('an unknown path shows the not-found page in the user language', async () => {
    await withBrowser('en-US', async ({ page }) => {
      const res = await page.goto(server.url + '/no/such/page');
      expect(res?.status()).toBe(200);
      await page.locator('[data-testid=not-found]').waitFor();
      expect(await page.locator('[data-testid=not-found]').textContent()).toContain('Sorry, the page you visited does not exist.');
      await screenshot(page, 'not-found-en');
    });
    await withBrowser('zh-CN', async ({ page }) => {
      await page.goto(server.url + '/no/such/page');
      await page.locator('[data-testid=not-found]').waitFor();
      expect(await page.locator('[data-testid=not-found]').textContent()).toContain('抱歉，您访问的页面不存在。');
    });
  });

  it('scenario addresses open the same screen with that scenario menu; unbuilt screens are not found', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await signIn(page);
      await page.waitForURL(`**${LANDING}`);
      await page.goto(server.url + '/view/scenario_transport/deviceManage/realTimeMonitoring?type=101');
      await page.locator('[data-testid=screen-title]').waitFor();
      await expect.poll(() => page.locator('[data-testid=nav-menu]').textContent()).toContain('Transport task management');
      await page.goto(server.url + '/view/deviceManage/noSuchScreen');
      await page.locator('[data-testid=not-found]').waitFor();
      expect(await page.locator('[data-testid=console-layout]').count()).toBe(1);
    });
  });

  it('sets the root font size from the window width and keeps a 1280 px minimum width', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.goto(server.url + '/login');
      await page.locator('#account').waitFor();
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('100px');
      await page.setViewportSize({ width: 1440, height: 900 });
      await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('75px');
      await page.setViewportSize({ width: 1000, height: 800 });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeGreaterThanOrEqual(1280);
    });
  });
});
