// Every request body of the API, fuzzed: for each route of the route table that declares a body,
// as the platform administrator, (a) arbitrary JSON of the wrong shape, (b) the route's own
// shape with each text field replaced by injection and Unicode edge cases, (c) JSON nested
// 10,000 deep, (d) a body over the 1 MB limit, (e) malformed JSON and wrong content types.
// Never a 5xx; a refusal is the product's envelope with a message in the requested language and
// stores nothing; an accepted nasty text reads back exactly as sent (stored as data, never run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { errorText, isErrorCode } from '@iotc/shared/errors';
import { ADMIN_PASSWORD, login, testApp, type TestApp } from '../test/harness.ts';
import { rowsOf } from '../db/client.ts';
import type { RouteEntry } from '../app.ts';
import { seedDemoFleet, demoDevices } from '../demo/seed-demo.ts';
import { seedDemoTransport } from '../demo/seed-demo-transport.ts';
import { addressWith, apiRoutes, changedTables, dbDigest, idsOfOrg, pathParams, withIds, type Ids } from './route-kit.ts';

/**
 * Tables that change without any request (the ledger's feeder tick), or that a refused request
 * writes by design (the sliding session, counted wrong passwords).
 */
const MAY_CHANGE = ['sessions', 'login_failures', 'ledger_watermarks', 'ledger_leaves', 'ledger_nodes', 'ledger_checkpoints'];
/** A refused sign-in is audited, and so is a refused electronic signature (a wrong password or external proof). */
const MAY_CHANGE_ON: Record<string, string[]> = {
  'POST /iot-cloud-auth/auth/v1/login': ['audit_logs'],
  'POST /api/iot/v2/transport-tasks/:id/signatures': ['audit_logs'],
  'POST /api/iot/v2/reports/temperature/signatures': ['audit_logs'],
  'POST /api/iot/v2/warehouse-records/:id/approve': ['audit_logs'],
  'POST /api/iot/v2/warehouse-records/:id/reject': ['audit_logs'],
  'POST /api/iot/v2/commands/:id/review': ['audit_logs'],
  'POST /api/iot/v2/work-orders/:id/transition': ['audit_logs'],
};

/** Injection and Unicode edge cases put into text fields. */
const NASTY = [
  "'; DROP TABLE users; --",
  "' OR '1'='1",
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'abc\u202Egnp.exe',
  'a\u200Db\u200Cc\u2060d',
  '冷链🚚❄️🧊𠀀',
  'e\u0301\u0308\u0327 Z\u0336\u0335',
  '${7*7}{{7*7}}%s%n',
  'a\\"\\\\/\b\f\n\r\tz',
  'x'.repeat(70_000),
];
/** Fields whose text may be accepted and dropped, with the reason. */
const DROPPED: Record<string, string> = { 'targets.0': "an alarm policy of scope 'all' (the sample's) keeps no targets" };

/** Texts the API must refuse with a clear 400: PostgreSQL cannot store NUL, nor UTF-8 a lone surrogate. */
const UNSTORABLE = ['a\u0000b', 'x\uD800y', 'x\uDC00'];

let t: TestApp;
let token: string;
let routes: RouteEntry[];
let sent = 0;
/** The demo organisation's ids: bodies and addresses refer to real records, so valid ones are stored. */
let ids: Ids;

beforeAll(async () => {
  // The periodic jobs (offline alarms of the seeded fleet, the archive, retention, storage figures,
  // the ledger) off: a refused request must change nothing, and a job's write on a busy machine
  // would be taken for the request's.
  t = await testApp({ alarmTickMs: 3_600_000, archiveMs: 0, retentionMs: 0, storageMs: 0, ledgerTickMs: 0, ledgerCheckpointMs: 86_400_000 });
  token = await login(t.app, 'admin', ADMIN_PASSWORD);
  const db = t.app.database.db;
  await seedDemoFleet(db);
  await seedDemoTransport(db, { tasks: t.app.transportTasks, templates: t.app.transportTemplates }, await demoDevices(db));
  const demo = rowsOf<{ id: string }>(await db.execute(sql`select id from orgs where code = 'demo'`))[0]!.id;
  ids = await idsOfOrg(db, demo);
  routes = apiRoutes(t.app.routeTable).filter((r) => r.schema?.body && r.url !== '/api/iot/v2/device/report');
}, 120_000);
afterAll(async () => t?.close());

type Lang = 'zh' | 'en';
const HEADER: Record<Lang, string> = { zh: 'zh-CN', en: 'en-US' };

/** The route's address with a real record's id for each parameter (a random one when there is none). */
const addressOf = (r: RouteEntry) => addressWith(ids, r).replace('unmapped', crypto.randomUUID());

async function send(r: RouteEntry, url: string, payload: string, lang: Lang, contentType = 'application/json') {
  const res = await t.app.inject({
    method: r.method as 'POST',
    url,
    headers: { access_token: token, language: HEADER[lang], 'content-type': contentType },
    payload,
    // A client address of its own per request: the sign-in rate limits would otherwise answer first.
    remoteAddress: `10.${fc.sample(fc.integer({ min: 0, max: 255 }), 1)[0]}.${(++sent >> 8) & 255}.${sent & 255}`,
  });
  return res;
}

/** What is wrong with an answer: a 5xx, or a 4xx that is not the envelope in the requested language. */
function problemOf(res: { statusCode: number; payload: string }, lang: Lang): string | undefined {
  if (res.statusCode >= 500) return `${res.statusCode} ${res.payload.slice(0, 200)}`;
  if (res.statusCode < 400) return undefined;
  let body: { isSuccess?: string; errorcode?: unknown; errormsg?: unknown };
  try {
    body = JSON.parse(res.payload) as typeof body;
  } catch {
    return `${res.statusCode} not JSON: ${res.payload.slice(0, 100)}`;
  }
  if (body.isSuccess !== 'N' || typeof body.errorcode !== 'string' || typeof body.errormsg !== 'string' || !body.errormsg) return `${res.statusCode} not the envelope: ${res.payload.slice(0, 200)}`;
  if (!isErrorCode(body.errorcode)) return `${res.statusCode} unknown error code ${body.errorcode}`;
  if (!body.errormsg.startsWith(errorText(body.errorcode, lang))) return `${res.statusCode} not in ${lang}: ${body.errormsg.slice(0, 120)}`;
  return undefined;
}

/** Paths to every string of a value. */
function stringPaths(v: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof v === 'string') return [path];
  if (Array.isArray(v)) return v.flatMap((x, i) => stringPaths(x, [...path, i]));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => stringPaths(x, [...path, k]));
  return [];
}

function replaced(v: unknown, path: (string | number)[], text: string): unknown {
  if (path.length === 0) return text;
  const copy = (Array.isArray(v) ? [...v] : { ...(v as object) }) as Record<string | number, unknown>;
  copy[path[0]!] = replaced(copy[path[0]!], path.slice(1), text);
  return copy;
}

function everyString(v: unknown, text: string): unknown {
  return stringPaths(v).reduce((acc, p) => replaced(acc, p, text), v);
}

/** Whether some stored row holds the text exactly (as a column's value or inside a JSON column). */
async function storedExactly(text: string): Promise<boolean> {
  const tables = rowsOf<{ table_name: string; column_name: string; data_type: string }>(
    await t.app.database.db.execute(sql`select table_name, column_name, data_type from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY')`),
  );
  for (const c of tables) {
    const col = sql.raw(`"${c.column_name}"`);
    const tab = sql.raw(`"${c.table_name}"`);
    const cond =
      c.data_type === 'jsonb' || c.data_type === 'json'
        ? sql`jsonb_path_exists(${col}::jsonb, '$.** ? (@ == $v)', jsonb_build_object('v', ${text}::text))`
        : c.data_type === 'ARRAY'
          ? sql`${text}::text = any(${col}::text[])`
          : sql`${col} = ${text}`;
    const n = rowsOf<{ n: number }>(await t.app.database.db.execute(sql`select count(*)::int as n from ${tab} where ${cond}`))[0]!.n;
    if (n > 0) return true;
  }
  return false;
}

/** Runs one route's requests; asserts nothing was stored unless one was accepted. */
async function batch(r: RouteEntry, requests: { url: string; payload: string; lang: Lang; contentType?: string; text?: string; field?: string }[], problems: string[]): Promise<string[]> {
  const readBack: string[] = [];
  const skip = [...MAY_CHANGE, ...(MAY_CHANGE_ON[`${r.method} ${r.url}`] ?? [])];
  const before = await dbDigest(t.app.database.db, skip);
  let accepted = false;
  for (const q of requests) {
    const res = await send(r, q.url, q.payload, q.lang, q.contentType);
    const p = problemOf(res, q.lang);
    if (p) problems.push(`${r.method} ${r.url}: ${p}`);
    if (res.statusCode < 300) {
      accepted = true;
      // Accepted text is data: it reads back exactly as sent.
      if (q.text !== undefined && !DROPPED[q.field ?? ''] && !(await storedExactly(q.text)) && !res.payload.includes(JSON.stringify(q.text).slice(1, -1))) {
        problems.push(`${r.method} ${r.url}: accepted ${JSON.stringify(q.text.slice(0, 40))} in ${q.field} but it is not stored as sent`);
      } else if (q.text !== undefined) readBack.push(q.field ?? '');
    }
  }
  if (!accepted) {
    const changed = changedTables(before, await dbDigest(t.app.database.db, skip));
    if (changed.length) problems.push(`${r.method} ${r.url}: refused requests changed ${changed.join(', ')}`);
  }
  return readBack;
}

describe('every API body, fuzzed', () => {
  it('refuses JSON of the wrong shape with the envelope in the requested language, storing nothing', async () => {
    const problems: string[] = [];
    for (const [i, r] of routes.entries()) {
      const values = fc.sample(fc.jsonValue({ maxDepth: 3 }), { numRuns: 4, seed: 1000 + i });
      await batch(
        r,
        values.map((v, k) => ({ url: addressOf(r), payload: JSON.stringify(v) ?? 'null', lang: k % 2 ? 'zh' : 'en' })),
        problems,
      );
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('stores injection and Unicode edge cases in text fields as data, and refuses NUL and lone surrogates with a clear 400', async () => {
    const problems: string[] = [];
    const accepted: string[] = [];
    for (const [i, r] of routes.entries()) {
      const shape = withIds(ids, r.schema!.body).value;
      const paths = stringPaths(shape);
      if (process.env.FUZZ_VERBOSE) {
        const res = await send(r, addressOf(r), JSON.stringify(shape), 'en');
        console.log(`${res.statusCode} ${r.method} ${r.url} ${res.statusCode >= 300 ? res.payload.slice(0, 200) : ''}`);
      }
      const requests: Parameters<typeof batch>[1] = [];
      // Each text field on its own, with one of the nasty texts in turn.
      paths.forEach((p, k) => {
        const text = NASTY[(i + k) % NASTY.length]!;
        requests.push({ url: addressOf(r), payload: JSON.stringify(replaced(shape, p, text)), lang: k % 2 ? 'zh' : 'en', text, field: p.join('.') });
      });
      const took = await batch(r, requests, problems);
      // A field that took one nasty text gets all the others too.
      const more = [...new Set(took)].flatMap((field) =>
        NASTY.map((text, k) => ({ url: addressOf(r), payload: JSON.stringify(replaced(shape, field ? field.split('.').map((x) => (/^\d+$/.test(x) ? Number(x) : x)) : [], text)), lang: (k % 2 ? 'zh' : 'en') as Lang, text, field })),
      );
      const tookMore = more.length ? await batch(r, more, problems) : [];
      accepted.push(...[...took, ...tookMore].map((f) => `${r.method} ${r.url} ${f}`));
      for (const text of UNSTORABLE) {
        for (const lang of ['zh', 'en'] as const) {
          const res = await send(r, addressOf(r), JSON.stringify(paths.length ? everyString(shape, text) : { name: text }), lang);
          const p = problemOf(res, lang);
          if (p || res.statusCode !== 400 || !res.payload.includes('"TEXT_UNSTORABLE"')) problems.push(`${r.method} ${r.url} ${JSON.stringify(text)}: ${res.statusCode} ${p ?? ''}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // Enough nasty texts were accepted, and so read back, to mean something.
    if (process.env.FUZZ_VERBOSE) console.log(accepted.join('\n'));
    expect(accepted.length).toBeGreaterThan(50);
    // Stored as data, never run: the users table is still there and still holds the administrator.
    const users = rowsOf<{ n: number }>(await t.app.database.db.execute(sql`select count(*)::int as n from users where account = 'admin'`));
    expect(users[0]!.n).toBe(1);
  }, 180_000);

  it('refuses JSON nested 10,000 deep, a body over 1 MB, malformed JSON and wrong content types', async () => {
    const problems: string[] = [];
    const deepArray = '['.repeat(10_000) + ']'.repeat(10_000);
    const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    const oversized = JSON.stringify({ name: 'x'.repeat(1_100_000) });
    for (const [i, r] of routes.entries()) {
      const lang: Lang = i % 2 ? 'zh' : 'en';
      await batch(
        r,
        [
          { url: addressOf(r), payload: deepArray, lang },
          { url: addressOf(r), payload: deepObject, lang },
          { url: addressOf(r), payload: oversized, lang },
          { url: addressOf(r), payload: '{"name": "x",', lang },
          { url: addressOf(r), payload: "{'name': 'x'}", lang },
          { url: addressOf(r), payload: 'name=x', lang, contentType: 'application/x-www-form-urlencoded' },
          { url: addressOf(r), payload: '{"name":"x"}', lang, contentType: 'text/plain' },
        ],
        problems,
      );
    }
    expect(problems).toEqual([]);
    // The oversized body answers 413 in the envelope.
    const big = await send(routes[0]!, addressOf(routes[0]!), oversized, 'zh');
    expect(big.statusCode).toBe(413);
    expect(problemOf(big, 'zh')).toBeUndefined();
  }, 120_000);

  it('refuses NUL in a query or path with a clear 400 on every route', async () => {
    const problems: string[] = [];
    for (const [i, r] of apiRoutes(t.app.routeTable).entries()) {
      // The intake logs refusals per report; signing out would end this test's session; the live socket is no HTTP answer.
      if (['/api/iot/v2/device/report', '/iot-cloud-auth/auth/v1/logout', '/api/iot/v2/live'].includes(r.url)) continue;
      const lang: Lang = i % 2 ? 'zh' : 'en';
      // (A surrogate cannot be sent in an address: percent-decoding makes broken UTF-8 U+FFFD.)
      const urls = [`${addressOf(r)}?probe=a%00b`];
      if (pathParams(r.url).length) urls.push(r.url.replace(/:(\w+)/g, 'a%00b'));
      for (const url of urls) {
        const res = await t.app.inject({ method: r.method as 'GET', url, headers: { access_token: token, language: HEADER[lang] }, remoteAddress: `10.9.${(++sent >> 8) & 255}.${sent & 255}` });
        const p = problemOf(res, lang);
        if (p || res.statusCode !== 400) problems.push(`${r.method} ${url}: ${res.statusCode} ${p ?? res.payload.slice(0, 120)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('covers every route that declares a body, path parameters included', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.some((r) => pathParams(r.url).length > 0)).toBe(true);
  });
});
