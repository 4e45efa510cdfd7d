// Browser test of accessibility (issue 23, item 4), in both languages: axe-core on the login page,
// the home page and every screen of the transport scenario's menu (type 101) and of the device
// scenario's (type 102, the screens the transport menu does not have), with the demo fleet, its
// transport tasks and warehouse records giving the tables rows. Any critical or serious
// violation fails it, and so do a few moderate ones the console has promised to avoid: a screen
// without its h1, content outside the landmarks, no main landmark. (Other moderate findings, such
// as a skipped heading level, are printed with the counts but do not fail it.) The page is reused from
// screen to screen (the app's router is told of the new address as a link would), so one browser
// visits them all. Then the drawers opened over a screen (the inbox, a new place, an alarm's details)
// and the consignee's public tracking page, in a browser never signed in, go through axe the same way.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';
import type { MenuItem } from '@iotc/shared/auth';
import type { Page as ListPage } from '@iotc/shared/envelope';
import type { TaskRow } from '@iotc/shared/transport';
import { TRACKING_API, type TrackingLinkAnswer } from '@iotc/shared/transport-tracking';
import { menuHref, menuLeaves } from '../apps/web/src/lib/menu.ts';
import { apiCall, apiToken, screenshot, seedDemoData, signInAs, startServer, withBrowser, type Server } from './harness.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Moderate findings that fail the test as well: one h1 per screen, and landmarks around everything. */
const ALSO_FAILING = new Set(['one-h1', 'page-has-heading-one', 'landmark-one-main', 'region', 'landmark-no-duplicate-main', 'landmark-unique']);

/** The scenarios whose menus are visited, and the screen each opens on (it sets the scenario type). */
const SCENARIOS = [
  { type: 101, start: '/view/scenario_transport/deviceManage/realTimeMonitoring?type=101' },
  { type: 102, start: '/view/deviceManage/realTimeMonitoring?type=102' },
] as const;

const LOCALES = ['zh-CN', 'en-US'] as const;
type Locale = (typeof LOCALES)[number];

let server: Server;
/** Per scenario, its menu's screens: address and name in each language (each address once over all scenarios). */
let screens: { start: string; paths: { href: string; name: Record<Locale, string> }[] }[];
/** The address of a seeded task's public tracking page. */
let trackingUrl: string;

beforeAll(async () => {
  server = await startServer();
  await seedDemoData(server, { warehouse: true });
  const token = await apiToken(server);
  const loadMenu = async (type: number, language: string) => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/iot-cloud-auth/menu/v1/loadMenu',
      headers: { access_token: token, language, 'content-type': 'application/json' },
      payload: JSON.stringify({ type }),
    });
    return menuLeaves((res.json() as { data: MenuItem[] }).data);
  };
  const seen = new Set<string>();
  screens = [];
  for (const scenario of SCENARIOS) {
    const [zh, en] = [await loadMenu(scenario.type, 'zh'), await loadMenu(scenario.type, 'en')];
    const paths = zh
      .map((leaf, i) => ({ href: menuHref(leaf), name: { 'zh-CN': leaf.name, 'en-US': en[i]!.name } }))
      .filter(({ href }) => {
        const path = href.split('?')[0]!;
        if (seen.has(path)) return false;
        seen.add(path);
        return true;
      });
    screens.push({ start: scenario.start, paths });
  }
  const [task] = (await apiCall<ListPage<TaskRow>>(server, token, 'GET', '/api/iot/v2/transport-tasks?size=1')).rows;
  trackingUrl = server.url + (await apiCall<TrackingLinkAnswer>(server, token, 'POST', TRACKING_API.taskLinks(task!.id), { expiresInDays: 7 })).url;
}, 300_000);
afterAll(async () => {
  await server?.close();
});

/** Opens `href` in the signed-in app without reloading it, as a link of the app would. */
async function openInApp(page: Page, href: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, href);
}

/**
 * Waits until the screen `name` has drawn its content: its name is the page's h1 (the router has
 * moved to it), nothing loading, no spinner or skeleton in sight, no progress bar.
 */
async function settled(page: Page, what: string, name?: string): Promise<void> {
  if (name !== undefined) await expect.poll(() => page.locator('h1').first().textContent(), { timeout: 30_000, message: `${what} is named ${name}` }).toBe(name);
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const content = document.querySelector('.console-content, .login-page, main');
          if (!content || content.childElementCount === 0) return 'empty';
          if (document.getElementById('nprogress')) return 'loading';
          const busy = Array.from(document.querySelectorAll<HTMLElement>('.ant-spin-spinning, .ant-skeleton, .page-spin'));
          if (busy.some((e) => e.checkVisibility())) return 'spinning';
          return 'ready';
        }),
      { timeout: 30_000, message: `${what} shows its content` },
    )
    .toBe('ready');
}

/** Waits until the drawer or dialog `selector` has finished its opening motion. */
async function drawn(page: Page, selector: string): Promise<void> {
  await page.locator(selector).waitFor();
  await page.waitForFunction((sel) => {
    const el = document.querySelector(sel)?.closest('.ant-drawer, .ant-modal-wrap') as HTMLElement | null;
    return !!el && el.getAnimations({ subtree: true }).length === 0;
  }, selector);
}

const SKIP = { 'zh-CN': '跳到主要内容', 'en-US': 'Skip to main content' } as const;
const MUTE = { 'zh-CN': '告警提示音静音', 'en-US': 'Mute alarm sound' } as const;

/**
 * The keyboard's first stop is the skip link, shown while focused, and Enter on it puts the focus
 * on the screen (the main landmark); the header's alarm sound switch is a named toggle.
 */
async function keyboardStart(page: Page, locale: Locale): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Tab');
  const skip = page.locator('[data-testid=skip-link]');
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('skip-link');
  expect(await skip.textContent()).toBe(SKIP[locale]);
  // In sight while focused: inside the window.
  await expect.poll(async () => (await skip.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(0);
  await screenshot(page, `a11y-header-skip-${locale}`);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
  const mute = page.locator('[data-testid=alarm-mute]');
  expect(await mute.getAttribute('aria-label')).toBe(MUTE[locale]);
  expect(await mute.getAttribute('aria-pressed')).toBe('false');
  await mute.click();
  await expect.poll(() => mute.getAttribute('aria-pressed')).toBe('true');
  await page.locator('.header-bar').screenshot({ path: process.env.E2E_SHOTS ? `${process.env.E2E_SHOTS}/a11y-header-muted-${locale}.png` : undefined });
  await mute.click();
  await expect.poll(() => mute.getAttribute('aria-pressed')).toBe('false');
  // The pointer leaves the button: its tooltip closes.
  await page.mouse.move(700, 600);
  await expect.poll(() => page.locator('.ant-tooltip:not(.ant-tooltip-hidden)').count()).toBe(0);
}

interface Finding {
  rule: string;
  impact: string;
  screen: string;
  target: string;
}

async function audit(page: Page, screen: string): Promise<Finding[]> {
  // Through the debugging protocol: the page's content security policy allows no inline script.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // nprogress's bar comes and goes with requests at the page's top, outside the landmarks like a
  // toast; its role and name are checked by its unit test (api/progress.test.ts).
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run(ctx: object, opts: object): Promise<AxeResults> } }).axe.run({ exclude: [['#nprogress']] }, { resultTypes: ['violations'] }),
  );
  return results.violations.flatMap((v) =>
    v.nodes.map((n) => {
      // Contrast findings name their colours: what to change in the theme.
      const data = n.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
      const colours = v.id === 'color-contrast' && data?.fgColor ? ` (${data.fgColor} on ${data.bgColor}, ${data.contrastRatio})` : '';
      return { rule: v.id, impact: v.impact ?? 'unknown', screen, target: n.target.map(String).join(' ') + colours };
    }),
  );
}

describe.each(LOCALES)('accessibility (%s)', (locale) => {
  it('axe finds nothing critical or serious, and every screen has its h1 and landmarks', async () => {
    await withBrowser(locale, async ({ page }) => {
      const findings: Finding[] = [];
      await page.goto(`${server.url}/login`);
      await settled(page, '/login');
      findings.push(...(await audit(page, '/login')));
      await screenshot(page, `a11y-login-${locale}`);

      await signInAs(page, server);
      let visited = 0;
      for (const { start, paths } of screens) {
        await page.goto(server.url + start);
        await page.locator('[data-testid=nav-menu]').waitFor();
        if (visited === 0) await keyboardStart(page, locale);
        if (visited === 0) {
          // The home screen, no menu entry.
          await openInApp(page, '/view/home/home');
          await page.locator('[data-testid=home-page]').waitFor();
          await settled(page, '/view/home/home');
          findings.push(...(await audit(page, '/view/home/home')));
          visited += 1;
        }
        for (const { href, name } of paths) {
          await openInApp(page, href);
          await settled(page, href, name[locale]);
          findings.push(...(await audit(page, href)));
          const h1s = await page.locator('h1').count();
          if (h1s !== 1) findings.push({ rule: 'one-h1', impact: 'moderate', screen: href, target: `${h1s} h1 elements` });
          visited += 1;
        }
      }
      expect(visited).toBeGreaterThan(35);

      // Drawers over a screen: the inbox, a new place.
      await page.locator('[data-testid=inbox-bell]').click();
      await drawn(page, '[data-testid=inbox-drawer]');
      findings.push(...(await audit(page, 'inbox drawer')));
      await page.keyboard.press('Escape');
      await page.locator('[data-testid=inbox-drawer]').waitFor({ state: 'hidden' });
      const places = screens.flatMap((s) => s.paths).find((p) => p.href.includes('place'));
      expect(places, 'the place library is in a menu').toBeDefined();
      await openInApp(page, places!.href);
      await settled(page, places!.href, places!.name[locale]);
      await page.locator('[data-testid=place-new]').click();
      await drawn(page, '[data-testid=place-drawer]');
      await page.locator('[data-testid=place-drawer] [data-testid=place-map]').waitFor();
      findings.push(...(await audit(page, 'place drawer')));
      await screenshot(page, `a11y-place-drawer-${locale}`);
      await page.keyboard.press('Escape');
      await page.locator('[data-testid=place-drawer]').waitFor({ state: 'hidden' });

      const counts = new Map<string, number>();
      for (const f of findings) counts.set(`${f.impact} ${f.rule}`, (counts.get(`${f.impact} ${f.rule}`) ?? 0) + 1);
      console.log(`axe (${locale}), ${visited + 1} pages:`, Object.fromEntries([...counts].sort((a, b) => b[1] - a[1])));
      const failing = findings
        .filter((f) => f.impact === 'critical' || f.impact === 'serious' || ALSO_FAILING.has(f.rule))
        .map((f) => `${f.rule} [${f.impact}] ${f.screen}: ${f.target}`);
      expect(failing, `axe violations in ${locale}`).toEqual([]);
    });
  }, 400_000);

  it("the consignee's public tracking page, never signed in", async () => {
    await withBrowser(locale, async ({ page }) => {
      await page.goto(trackingUrl);
      await page.locator('[data-testid=tracking-status]').waitFor();
      await settled(page, 'tracking page');
      const findings = await audit(page, 'tracking page');
      await screenshot(page, `a11y-tracking-${locale}`);
      const failing = findings
        .filter((f) => f.impact === 'critical' || f.impact === 'serious' || ALSO_FAILING.has(f.rule))
        .map((f) => `${f.rule} [${f.impact}] ${f.screen}: ${f.target}`);
      expect(failing, `axe violations on the tracking page in ${locale}`).toEqual([]);
    });
  }, 120_000);
});
