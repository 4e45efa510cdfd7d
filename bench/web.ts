// The web app as a browser on a slow link gets it (issue 23, `npm run bench -- --only web`): the
// built app served by the real server, the login page and four console screens (real-time
// monitoring, alarm query, the cockpit, transport tasks) each opened with a cold cache.
//
// First load: every byte the page fetched until it settled (HTML, JavaScript, CSS, fonts and the
// API's JSON), read from the browser's Resource Timing: raw is the decoded body, gzip and br the
// body as transferred when the browser asks for only that encoding.
//
// Lighthouse (the npm package, desktop preset, its simulated throttling) on the same five pages:
// performance, accessibility and best-practices scores with LCP and TBT. Console pages are opened
// signed in: the session is started on the login page of the same Chromium profile first. Each
// page is run BENCH_WEB_LH_RUNS times (5 by default) and the median run is reported, as Lighthouse
// advises for scores that vary between runs.
//
// Then the four console screens again as the demo operator, with the demo's fleet and tasks and a
// dozen alarms of the day: the bytes of a screen that shows data (the alarm query's charts).
//
// BENCH_WEB_DIST serves another build than apps/web/dist (which is built when missing or stale).
// BENCH_WEB_LH_DETAIL=1 also prints where each page's main-thread time went (by kind of work, by
// script, the long tasks), for reading what makes up the blocking time.
import { spawn, execSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from 'playwright-core';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { eq } from 'drizzle-orm';
import { alarmLevels, alarms } from '../apps/server/src/db/schema.ts';
import { ADMIN_PASSWORD, CHROMIUM_ARGS, DEMO_PASSWORD, seedDemoData, signInAs, startServer, type Server } from '../e2e/harness.ts';

type Report = (name: string, value: number, unit: string) => void;

/** The pages measured: the login page and the console screens of the issue (spec section 2). */
export const WEB_SCREENS = [
  { name: 'login', path: '/login', signedIn: false },
  { name: 'monitoring', path: '/view/deviceManage/realTimeMonitoring', signedIn: true },
  { name: 'alarm_query', path: '/view/alarm/query', signedIn: true },
  { name: 'cockpit', path: '/view/cockpit/index', signedIn: true },
  { name: 'transport_tasks', path: '/view/transport/tasks', signedIn: true },
] as const;

/** What counts as first-load bytes: documents, scripts, styles, fonts and JSON answers (not images, not WebSockets). */
const COUNTED = /\.(js|mjs|css|woff2?|ttf|otf|json)(\?|$)/;

export interface LoadedBytes {
  raw: number;
  encoded: number;
  files: { url: string; raw: number; encoded: number }[];
  encodings: Set<string>;
}

/** The bytes the page has fetched so far (runs in the page; passed as text so no helper of the runner's transform is needed). */
const READ_ENTRIES = `(() => {
  const out = [];
  for (const e of performance.getEntriesByType('navigation')) out.push({ url: e.name, type: 'navigation', raw: e.decodedBodySize, encoded: e.encodedBodySize });
  for (const e of performance.getEntriesByType('resource')) out.push({ url: e.name, type: e.initiatorType, raw: e.decodedBodySize, encoded: e.encodedBodySize });
  return out;
})()`;

/** Waits until the screen is drawn and the network has been quiet for a while. */
async function settled(page: Page, signedIn: boolean): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 60_000 });
  // The screen itself first: on a busy machine the network can be quiet for 500 ms while the
  // first chunks are parsed, before the screen's own chunks are even asked for (such a run
  // counted 38 of the login page's 67 files).
  await page.locator(signedIn ? '[data-testid=console-layout]' : '[data-testid=login-page]').waitFor({ timeout: 60_000 });
  await page.locator('[data-testid=page-loading]').first().waitFor({ state: 'detached', timeout: 60_000 });
  await page.waitForLoadState('networkidle', { timeout: 60_000 });
}

/**
 * One cold load of `path` in a fresh context asking only for `encoding`: the counted bytes.
 * Console pages are signed in first, then the cache is emptied before the measured load.
 */
export async function firstLoad(
  browser: Browser,
  url: string,
  path: string,
  signedIn: boolean,
  encoding: 'gzip' | 'br',
  account: { name: string; password: string } = { name: 'admin', password: ADMIN_PASSWORD },
): Promise<LoadedBytes> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', extraHTTPHeaders: { 'accept-encoding': encoding } });
  try {
    await context.addInitScript(() => performance.setResourceTimingBufferSize(2000));
    const page = await context.newPage();
    if (signedIn) await signInAs(page, { url }, account.name, account.password, { week: true });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    const encodings = new Set<string>();
    page.on('response', (r) => {
      const e = r.headers()['content-encoding'];
      if (e && r.url().includes('/assets/')) encodings.add(e);
    });
    await page.goto(`${url}${path}`);
    await settled(page, signedIn);
    const entries = (await page.evaluate(READ_ENTRIES)) as { url: string; type: string; raw: number; encoded: number }[];
    const files = entries.filter((e) => e.type === 'navigation' || COUNTED.test(new URL(e.url).pathname) || e.type === 'fetch' || e.type === 'xmlhttprequest');
    return {
      raw: files.reduce((a, f) => a + f.raw, 0),
      encoded: files.reduce((a, f) => a + f.encoded, 0),
      files: files.map(({ url: u, raw, encoded }) => ({ url: u, raw, encoded })),
      encodings,
    };
  } finally {
    await context.close();
  }
}

/** Chromium with a DevTools port for Lighthouse (the project's flags, a profile of its own). */
async function chromiumWithPort(): Promise<{ port: number; proc: ChildProcess; profile: string }> {
  const profile = mkdtempSync(join(tmpdir(), 'iotc-lighthouse-'));
  const proc = spawn('/usr/bin/chromium', [...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, '--window-size=1350,940', 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const port = await new Promise<number>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('Chromium did not open its DevTools port')), 30_000);
    createInterface({ input: proc.stderr! }).on('line', (line) => {
      const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(line);
      if (m) {
        clearTimeout(timer);
        ok(Number(m[1]));
      }
    });
    proc.on('exit', (code) => fail(new Error(`Chromium exited (${code})`)));
  });
  return { port, proc, profile };
}

export interface LighthouseScores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcp: number;
  tbt: number;
  /** Audits of best practices and performance that did not pass, for reading what to fix. */
  failing: string[];
  /** With BENCH_WEB_LH_DETAIL: where the main thread's time went (work by kind, by script, long tasks). */
  detail: string[];
  /** The performance score of each run, in run order (the figures above are the median run's). */
  runs: number[];
}

interface AuditItems {
  details?: { items?: Record<string, unknown>[] };
  numericValue?: number;
  score?: number | null;
}

/** The main-thread figures behind TBT, a line each, largest first. */
function mainThreadDetail(audits: Record<string, AuditItems>): string[] {
  const items = (id: string) => audits[id]?.details?.items ?? [];
  const ms = (v: unknown) => Math.round(Number(v ?? 0));
  const short = (u: unknown) => String(u).replace(/^https?:\/\/[^/]+/, '');
  // The LCP element's audit holds two tables: the element, then its phases (LH 12).
  const lcp = (audits['largest-contentful-paint-element']?.details as { items?: { items?: Record<string, unknown>[] }[] } | undefined)?.items ?? [];
  const element = lcp[0]?.items?.[0]?.node as { snippet?: string; nodeLabel?: string } | undefined;
  // As observed on this machine (the scores use Lighthouse's simulation of the same trace).
  const observed = items('metrics')[0] ?? {};
  // The requests of the load in the order they started, observed times: where the waterfall is.
  const requests = items('network-requests')
    .filter((i) => i.resourceType !== 'Image')
    .sort((a, b) => Number(a.networkRequestTime) - Number(b.networkRequestTime));
  // The five metrics behind the score, simulated, each with its own score (weights: desktop preset).
  const metrics = ['first-contentful-paint', 'speed-index', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift'].map((id) => {
    const a = audits[id];
    return `${id} ${id === 'cumulative-layout-shift' ? (a?.numericValue ?? 0).toFixed(3) : `${ms(a?.numericValue)} ms`} (score ${Math.round((a?.score ?? 0) * 100)})`;
  });
  return [
    `metrics: ${metrics.join(', ')}`,
    `observed FCP ${ms(observed.observedFirstContentfulPaint)} ms, LCP ${ms(observed.observedLargestContentfulPaint)} ms, load ${ms(observed.observedLoad)} ms`,
    ...requests.map((i) => `request ${ms(i.networkRequestTime)}-${ms(i.networkEndTime)} ms ${short(i.url)}`),
    ...(element ? [`LCP element: ${element.nodeLabel ?? ''} ${String(element.snippet ?? '').slice(0, 160)}`] : []),
    ...(lcp[1]?.items ?? []).map((i) => `LCP phase ${String(i.phase)}: ${ms(i.timing)} ms`),
    ...items('mainthread-work-breakdown').slice(0, 6).map((i) => `work ${String(i.groupLabel ?? i.group)}: ${ms(i.duration)} ms`),
    ...items('bootup-time').slice(0, 8).map((i) => `script ${short(i.url)}: ${ms(i.total)} ms (evaluation ${ms(i.scripting)}, parse ${ms(i.scriptParseCompile)})`),
    ...items('layout-shifts').map((i) => `layout shift ${Number(i.score ?? 0).toFixed(3)}: ${String((i.node as { snippet?: string } | undefined)?.snippet ?? '').slice(0, 160)}`),
    ...items('long-tasks').slice(0, 10).map((i) => `long task at ${ms(i.startTime)} ms: ${ms(i.duration)} ms in ${short(i.url)}`),
  ];
}

/** Runs of Lighthouse per page (`BENCH_WEB_LH_RUNS`, 5 by default); the median run is reported. */
const LH_RUNS = Math.max(1, Number(process.env.BENCH_WEB_LH_RUNS ?? 5));

type LighthouseResult = Parameters<typeof computeMedianRun>[0][number];

/**
 * One Lighthouse run on `url`. A trace that could not be recorded (NO_NAVSTART and the like, on a
 * busy machine) is tried again once; a page that still fails gives nothing (and is reported).
 */
async function lighthouseRun(port: number, url: string): Promise<LighthouseResult | undefined> {
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const run = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'] }, desktopConfig);
    const lhr = run?.lhr;
    if (lhr && !lhr.runtimeError) return lhr;
    console.error(`Lighthouse on ${url}, attempt ${attempt}: ${lhr?.runtimeError?.code ?? 'no result'}`);
  }
  return undefined;
}

const performanceOf = (lhr: LighthouseResult) => Math.round((lhr.categories['performance']?.score ?? 0) * 100);

/** The figures of one run. */
function scoresOf(lhr: LighthouseResult): Omit<LighthouseScores, 'runs'> {
  const { categories, audits } = lhr;
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const failing = ['best-practices', 'performance']
    .flatMap((c) => categories[c]?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 0.9)
    .map((ref) => `${ref.id}: ${audits[ref.id]?.displayValue ?? audits[ref.id]?.score}`);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    lcp: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
    tbt: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
    failing,
    detail: process.env.BENCH_WEB_LH_DETAIL ? mainThreadDetail(audits as Record<string, AuditItems>) : [],
  };
}

/** Lighthouse's desktop run on each screen, console screens signed in; scores 0-100. */
export async function lighthouseRuns(server: Server, screens: readonly { name: string; path: string; signedIn: boolean }[]): Promise<Map<string, LighthouseScores>> {
  const { port, proc, profile } = await chromiumWithPort();
  const results = new Map<string, LighthouseScores>();
  try {
    let signedIn = false;
    for (const screen of screens) {
      if (screen.signedIn && !signedIn) {
        // The session lives in the profile's cookie and local storage, which Lighthouse keeps
        // (it empties the HTTP cache and the service workers only).
        const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
        const page = await cdp.contexts()[0]!.newPage();
        await signInAs(page, server, 'admin', ADMIN_PASSWORD, { week: true });
        await page.close();
        await cdp.close();
        signedIn = true;
      }
      // Lighthouse's own advice for a score that moves from run to run is the median of several
      // runs (its docs: the median of 5 is twice as stable as one run; Lighthouse CI runs 3):
      // BENCH_WEB_LH_RUNS runs of each page, the median run as Lighthouse picks it (the run
      // nearest the median first contentful paint and time to interactive) reported, every run's
      // score beside it.
      const runs: LighthouseResult[] = [];
      for (let i = 0; i < LH_RUNS; i += 1) {
        const lhr = await lighthouseRun(port, `${server.url}${screen.path}`);
        if (lhr) runs.push(lhr);
      }
      if (runs.length === 0) continue;
      results.set(screen.name, { ...scoresOf(computeMedianRun(runs)), runs: runs.map(performanceOf) });
    }
  } finally {
    proc.kill();
    await new Promise((r) => proc.once('exit', r));
    rmSync(profile, { recursive: true, force: true });
  }
  return results;
}

const kb = (bytes: number) => Math.round(bytes / 1024);

/** BENCH_WEB_FILES: a load's files, largest first (the first `most` of them). */
function listFiles(loaded: LoadedBytes, most = Infinity): void {
  for (const f of [...loaded.files].sort((a, b) => b.encoded - a.encoded).slice(0, most)) console.log(`  ${kb(f.encoded)} KB gzip, ${kb(f.raw)} KB raw  ${new URL(f.url).pathname}`);
}

/** The demo's fleet and twelve alarms of the last day in its organisation, over its levels and two types. */
async function withDemoAlarms(server: Server): Promise<void> {
  const db = server.app.database.db;
  const fleet = await seedDemoData(server);
  const levels = await db.select().from(alarmLevels).where(eq(alarmLevels.orgId, fleet[0]!.orgId));
  for (let i = 0; i < 12; i++) {
    const at = new Date(Date.now() - (i + 1) * 7_200_000);
    const device = fleet[i % fleet.length]!;
    await db.insert(alarms).values({ orgId: device.orgId, policyName: `Cold chain ${i}`, ruleId: 'r1', type: i % 3 ? 'temp_high' : 'humidity_low', levelId: levels[i % levels.length]!.id, deviceRef: device.id, status: 'active', startedAt: at, lastAt: at, threshold: 8, value: 9.3 + i, peak: 10 + i });
  }
}

export async function web(report: Report): Promise<void> {
  const dist = process.env.BENCH_WEB_DIST;
  // BENCH_WEB_SCREENS=alarm_query,cockpit: only those screens (for comparing one change quickly).
  const only = process.env.BENCH_WEB_SCREENS?.split(',');
  const screens = only ? WEB_SCREENS.filter((s) => only.includes(s.name)) : WEB_SCREENS;
  if (!dist) execSync('node scripts/ensure-web-build.mjs', { stdio: 'inherit' });
  const server = await startServer({ logLevel: 'error', ...(dist ? { webDist: resolve(dist) } : {}) });
  try {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    try {
      for (const screen of screens) {
        const gzip = await firstLoad(browser, server.url, screen.path, screen.signedIn, 'gzip');
        const br = await firstLoad(browser, server.url, screen.path, screen.signedIn, 'br');
        if (!gzip.encodings.has('gzip') || !br.encodings.has('br')) throw new Error(`the assets of ${screen.path} did not come back compressed as asked`);
        report(`web first load ${screen.name} raw`, kb(gzip.raw), 'KB');
        report(`web first load ${screen.name} gzip`, kb(gzip.encoded), 'KB');
        report(`web first load ${screen.name} br`, kb(br.encoded), 'KB');
        report(`web first load ${screen.name} files`, gzip.files.length, 'files');
        if (process.env.BENCH_WEB_FILES) listFiles(gzip);
      }
    } finally {
      await browser.close();
    }
    if (process.env.BENCH_WEB_LIGHTHOUSE !== '0') {
      const scores = await lighthouseRuns(server, screens);
      for (const [name, s] of scores) {
        report(`web lighthouse ${name} performance`, s.performance, 'score');
        report(`web lighthouse ${name} accessibility`, s.accessibility, 'score');
        report(`web lighthouse ${name} best-practices`, s.bestPractices, 'score');
        report(`web lighthouse ${name} LCP`, s.lcp, 'ms');
        report(`web lighthouse ${name} TBT`, s.tbt, 'ms');
        console.log(`# web lighthouse ${name} performance of each run: ${s.runs.join(' ')} (the median run above)`);
        for (const f of s.failing) console.log(`  lighthouse ${name}: ${f}`);
        for (const d of s.detail) console.log(`  lighthouse ${name} ${d}`);
      }
    }
    // The screens above are measured as the platform administrator of a new installation: no
    // devices, no alarms (so the alarm query draws no chart and fetches no ECharts). An operator's
    // screens hold data: measured last (the demo's devices and alarms would change the pages
    // above), as the demo operator with the demo's fleet and tasks and a dozen alarms of the day.
    const operatorScreens = screens.filter((s) => s.signedIn);
    if (operatorScreens.length > 0) {
      await withDemoAlarms(server);
      const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
      try {
        for (const screen of operatorScreens) {
          const loaded = await firstLoad(browser, server.url, screen.path, true, 'gzip', { name: 'demo', password: DEMO_PASSWORD });
          report(`web first load ${screen.name} with demo data gzip`, kb(loaded.encoded), 'KB');
          report(`web first load ${screen.name} with demo data files`, loaded.files.length, 'files');
          if (process.env.BENCH_WEB_FILES) listFiles(loaded, 15);
        }
      } finally {
        await browser.close();
      }
    }
  } finally {
    await server.close();
  }
}
