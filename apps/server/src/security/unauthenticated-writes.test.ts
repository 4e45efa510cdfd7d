// Unauthenticated writes are bounded, for every route of the route table (no hand-picked list).
// A client without a session or device secret calls each route that does not turn it away at the
// door, 40 times in a minute, once with the route's plausible sample and once with every string
// (and the device id of the intake's Basic auth) 10,000 characters long. What the database keeps
// of it must stay small per call (no caller-sized rows: a failed device sign-in kept the whole
// given device id), and the last calls of the minute must keep nothing at all: a client is cut
// off by a rate limit within a minute, whichever door it knocks at.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client.ts';
import { testApp, type TestApp } from '../test/harness.ts';
import { loadConfig } from '../config.ts';
import type { RouteEntry } from '../app.ts';
import { apiRoutes, pathParams, queryString, sampleOf } from './route-kit.ts';

const CALLS = 40;
/** The calls at the end of the minute that must keep nothing (every limit is at most 30 a minute here). */
const QUIET_TAIL = 10;
/** What one unauthenticated call may keep, at most (a captcha, an audit row of a refused sign-in, a bounded intake log row). */
const BYTES_PER_CALL = 2_048;
/** Random letters: a repeated one would be compressed by the database to nothing and hide the row's size. */
const LONG = randomBytes(7_500).toString('base64url');

let t: TestApp;
beforeAll(async () => {
  // The limits a real installation has (the other API tests raise them).
  const defaults = loadConfig({});
  // The background jobs write on their own clock (the ledger logging closed minutes and its
  // watermarks, a signed checkpoint a minute, the archive, the alarm tick): not what a caller
  // keeps, so they wait until the probes are done.
  t = await testApp({
    rateLimits: defaults.rateLimits,
    intakeAuthFailuresPerIp: defaults.intakeAuthFailuresPerIp,
    ledgerCheckpointMs: 86_400_000,
    ledgerTickMs: 0,
    archiveMs: 0,
    alarmTickMs: 3_600_000,
  });
});
afterAll(async () => t.close());

/** Bytes of every row of each table. */
async function tableBytes(db: Db): Promise<Map<string, number>> {
  const names = rowsOf<{ n: string }>(await db.execute(sql`select table_name as n from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)).map((r) => r.n);
  const parts = names.map((n) => sql`select ${n}::text as n, coalesce(sum(pg_column_size(x.*)), 0)::float8 as b from ${sql.raw(`"${n.replace(/"/g, '""')}"`)} x`);
  const rows = rowsOf<{ n: string; b: number }>(await db.execute(sql.join(parts, sql` union all `)));
  return new Map(rows.map((r) => [r.n, Number(r.b)]));
}
let lastTables = new Map<string, number>();
/** Bytes of every row of every table (and which tables they were in, for a failure's message). */
async function storedBytes(db: Db): Promise<number> {
  lastTables = await tableBytes(db);
  let sum = 0;
  for (const b of lastTables.values()) sum += b;
  return sum;
}
/** The tables that grew since `before`. */
function grown(before: Map<string, number>): string {
  return [...lastTables].filter(([n, b]) => b > (before.get(n) ?? 0)).map(([n, b]) => `${n} +${b - (before.get(n) ?? 0)}`).join(', ');
}

const key = (r: RouteEntry) => `${r.method} ${r.url}`;
let address = 0;

/** One probe of a route: its address and body, plain or with long strings everywhere. */
function probe(r: RouteEntry, long: boolean) {
  const fill = long ? (_k: string, s: { type?: unknown; enum?: unknown; format?: unknown }) => (s.type === 'string' && !s.enum && !s.format ? LONG : undefined) : undefined;
  let url = r.url;
  for (const p of pathParams(r.url)) url = url.replace(`:${p}`, long ? LONG.slice(0, 2000) : 'probe-0001');
  const body = r.schema?.body ? sampleOf(r.schema.body, { fill }) : undefined;
  const query = r.schema?.querystring ? queryString(sampleOf(r.schema.querystring, { fill, fullest: false })) : '';
  const deviceId = long ? LONG : 'PROBE0001';
  return {
    method: r.method as 'GET',
    url: url + query,
    headers: {
      language: 'en-US',
      authorization: `Basic ${Buffer.from(`${deviceId}:not-the-secret`).toString('base64')}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  };
}

describe('unauthenticated writes', () => {
  it('keep at most a bounded row per call and nothing once a client is over its limit, on every route', async () => {
    const db = t.app.database.db;
    const problems: string[] = [];
    let open = 0;
    for (const r of apiRoutes(t.app.routeTable)) {
      for (const long of [false, true]) {
        // A client address of its own per route and probe: limits of one route do not hide another's writes.
        address++;
        const remoteAddress = `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
        const req = { ...probe(r, long), remoteAddress };
        const before = await storedBytes(db);
        const first = await t.app.inject(req);
        if (first.statusCode >= 500) problems.push(`${key(r)}${long ? ' (long)' : ''}: ${first.statusCode}`);
        // Turned away at the door (no session): nothing can be written; the route needs no more calls.
        if (first.statusCode === 401 && (first.json() as { errorcode?: string }).errorcode === 'TOKEN_INVALID' && (await storedBytes(db)) === before) continue;
        open++;
        for (let i = 1; i < CALLS - QUIET_TAIL; i++) await t.app.inject(req);
        const mid = await storedBytes(db);
        const midTables = lastTables;
        for (let i = 0; i < QUIET_TAIL; i++) {
          const res = await t.app.inject(req);
          if (res.statusCode >= 500) problems.push(`${key(r)}${long ? ' (long)' : ''}: ${res.statusCode}`);
        }
        const after = await storedBytes(db);
        const perCall = (after - before) / CALLS;
        if (perCall > BYTES_PER_CALL) problems.push(`${key(r)}${long ? ' (long)' : ''}: ${Math.round(perCall)} bytes kept a call`);
        if (after > mid) problems.push(`${key(r)}${long ? ' (long)' : ''}: still keeps ${after - mid} bytes in calls ${CALLS - QUIET_TAIL + 1}-${CALLS} of one minute (${grown(midTables)})`);
      }
    }
    expect(problems).toEqual([]);
    // The doors the test went through: sign-in, captchas, registration, retrieval, SSO, the device intake, the ledger's public calls.
    expect(open).toBeGreaterThanOrEqual(20);
  }, 300_000);
});
