// Browser-test harness: the real server (built web app, PGlite in a temporary DATA_DIR, an
// OS-chosen port) and Chromium driven by playwright-core, with a profile directory of its own
// so that closing and relaunching it is a real browser restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig, type AppConfig } from '../apps/server/src/config.ts';
import { runTemplates, TEST_RATE_LIMITS } from '../apps/server/src/test/harness.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { demoDevices, seedDemoFleet } from '../apps/server/src/demo/seed-demo.ts';
import { seedDemoTransport } from '../apps/server/src/demo/seed-demo-transport.ts';
import { seedDemoWarehouse } from '../apps/server/src/demo/seed-demo-warehouse.ts';

export const ADMIN_PASSWORD = 'Admin#2026';
export const DEMO_PASSWORD = 'Demo@2026';
/** The flags every headless Chromium of this project starts with (the machine has no network). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface Server {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export async function startServer(overrides: Partial<AppConfig> = {}): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'iotc-e2e-'));
  const config = {
    // Browser tests sign in many times a minute from this machine: limits they never reach (see the API harness).
    // No tiles (the offline outline) unless a test gives a map: tests never reach the internet.
    ...loadConfig({ LOG_LEVEL: 'silent', MAP_TILE_URL: 'none', DATA_DIR: dataDir, ADMIN_PASSWORD, DEMO_PASSWORD, ...TEST_RATE_LIMITS }),
    mqtt: false,
    // E2E_WEB_DIST runs the browser tests against a build elsewhere (a developer's own check
    // while apps/web/dist is being rebuilt).
    webDist: resolve(process.env.E2E_WEB_DIST ?? 'apps/web/dist'),
    ...overrides,
  };
  // The embedded database under the data directory, started from the run's migrated schema (apps/server/src/test/db-template.ts).
  const from = (await runTemplates()).pglite;
  const database = from && !config.databaseUrl ? await openDatabase({ kind: 'pglite', dataDir, from }) : undefined;
  try {
    const app = await buildApp(config, { database });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    return {
      app,
      url,
      close: async () => {
        await app.close();
        await database?.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await database?.close();
    throw e;
  }
}

/**
 * The demo's data as `npm start` seeds it: the fleet, then the transport tasks and templates
 * (the recogniser starts and ends them from the readings), and, with `warehouse`, the warehouse
 * records. Answers the fleet.
 */
export async function seedDemoData(server: Server, opts: { warehouse?: boolean; beforeWarehouse?: (fleet: Awaited<ReturnType<typeof demoDevices>>) => Promise<void> } = {}) {
  const db = server.app.database.db;
  await seedDemoFleet(db);
  const fleet = await demoDevices(db);
  await seedDemoTransport(db, { tasks: server.app.transportTasks, templates: server.app.transportTemplates }, fleet);
  await opts.beforeWarehouse?.(fleet);
  if (opts.warehouse) await seedDemoWarehouse(db);
  return fleet;
}

/** A token of `account` (admin by default), signed in through the API. */
export async function apiToken(server: Server, account = 'admin', password = ADMIN_PASSWORD): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/iot-cloud-auth/auth/v1/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ account, password }),
  });
  return (res.json() as { data: { token: string } }).data.token;
}

/** A call to the API as a signed-in user (inject, JSON body): the envelope's data; any answer but 200 throws with its message. */
export async function apiCall<T>(server: Server, token: string, method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  const res = await server.app.inject({ method, url, headers: { access_token: token, 'content-type': 'application/json' }, payload: body === undefined ? undefined : JSON.stringify(body) });
  const envelope = res.json() as { data: T; errormsg: string | null };
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${envelope.errormsg}`);
  return envelope.data;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  profile: string;
  /** Closes the browser (session cookies and session storage end with it) and starts it again on the same profile. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A browser with the system's "reduce motion" on by default: the console then shows menus and
 * dialogs without Ant Design's motion (lib/motion.ts). With motion, a popup sits at its final
 * place for a frame or two before its zoom starts from nothing; on a loaded machine Playwright
 * can take those frames as "stable" and click the point just as the popup shrinks away from it.
 */
export async function launchBrowser(opts: { locale?: string; profile?: string; reducedMotion?: 'reduce' | 'no-preference' } = {}): Promise<Browser> {
  const profile = opts.profile ?? mkdtempSync(join(tmpdir(), 'iotc-profile-'));
  const open = () =>
    chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
      headless: true,
      viewport: { width: 1440, height: 900 },
      locale: opts.locale ?? 'en-US',
      reducedMotion: opts.reducedMotion ?? 'reduce',
    });
  const b: Browser = {
    context: await open(),
    page: undefined as unknown as Page,
    profile,
    async restart() {
      await b.context.close();
      b.context = await open();
      b.page = b.context.pages()[0] ?? (await b.context.newPage());
    },
    async close() {
      await b.context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
  b.page = b.context.pages()[0] ?? (await b.context.newPage());
  return b;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: join(process.env.E2E_SHOTS, `${name}.png`) });
}

/** Runs `fn` in a fresh browser of the given locale, closed afterwards whatever happens. */
export async function withBrowser(locale: string, fn: (b: Browser) => Promise<void>): Promise<void> {
  const b = await launchBrowser({ locale });
  // What the page said and where it went, to name the cause when a step fails.
  const log: string[] = [];
  const at = () => new Date().toISOString().slice(11, 23);
  const watch = (page: Page) => {
    page.on('console', (m) => log.push(`${at()} console.${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => log.push(`${at()} pageerror: ${e.message}`));
    page.on('framenavigated', (f) => f === page.mainFrame() && log.push(`${at()} navigated: ${f.url()}`));
    page.on('requestfailed', (r) => log.push(`${at()} request failed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
  };
  watch(b.page);
  // Where each click landed (element, id, classes), for the log above.
  await b.context.addInitScript(() => {
    document.addEventListener(
      'click',
      (e) => {
        const t = e.target instanceof Element ? e.target : null;
        const name = t ? `${t.tagName.toLowerCase()}${t.id ? `#${t.id}` : ''}.${Array.from(t.classList).slice(0, 3).join('.')}` : String(e.target);
        console.debug(`click at ${e.clientX},${e.clientY} on ${name} "${(t?.textContent ?? '').slice(0, 30)}"`);
      },
      true,
    );
  });
  try {
    await fn(b);
  } catch (error) {
    if (error instanceof Error) {
      let url = '';
      try {
        url = b.page.url();
      } catch {
        // the page is gone
      }
      error.message += `\n--- browser at ${at()} on ${url}\n${log.slice(-40).join('\n')}`;
    }
    throw error;
  } finally {
    await b.close();
  }
}

/**
 * Picks an entry of the header's user menu and waits for what it does (the page it opens, or the
 * logout question). On a machine at load 15-20 a click now and then lands beside the popup
 * (the click log of withBrowser shows it on <body>, which closes the menu): the menu is then
 * opened and the entry picked again, up to three times. A real defect fails all three.
 */
export async function chooseUserMenu(page: Page, entry: 'my-services' | 'change-password' | 'logout'): Promise<void> {
  const done = async () => {
    if (entry === 'logout') return (await page.locator('.logout-confirm').count()) > 0;
    const path = new URL(page.url()).pathname;
    return path === (entry === 'my-services' ? '/view/login/productService' : '/view/login/confirmPassword');
  };
  const item = page.locator(`[data-testid=${entry}]`);
  for (let attempt = 1; ; attempt++) {
    if (!(await item.isVisible())) await page.locator('[data-testid=user-menu]').click();
    await item.click();
    const until = Date.now() + 10_000;
    while (Date.now() < until && !(await done())) await new Promise((r) => setTimeout(r, 100));
    if (await done()) return;
    if (attempt === 3) throw new Error(`the user menu's ${entry} did nothing, three times (page at ${page.url()})`);
  }
}

/** Signs in on the login page (admin by default) and waits for the console. */
export async function signInAs(
  page: Page,
  server: Pick<Server, 'url'>,
  account = 'admin',
  password = ADMIN_PASSWORD,
  opts: { week?: boolean } = {},
): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill(account);
  await page.locator('#password').fill(password);
  // "Stay logged in for a week": the token in a cookie, which every tab of the profile shares.
  if (opts.week) await page.locator('#period').check();
  await page.locator('#login-submit').click();
  await page.waitForURL((u) => u.pathname.startsWith('/view'));
}

/** The signed-in page's token (the week-long cookie, else session storage). */
export async function pageToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'token');
  if (cookie) return cookie.value;
  return (JSON.parse((await page.evaluate(() => sessionStorage.getItem('token')))!) as { content: string }).content;
}
