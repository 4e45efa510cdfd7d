// Audit in the change's transaction, across a crash (issue 27 item 1): the real server process
// (main.ts) on its own PostgreSQL database makes a device while this test holds audit_logs locked,
// so the change's transaction has inserted the device and waits on its audit row's INSERT. Killed
// with SIGKILL there, the process leaves neither the device nor an audit row once the lock goes;
// left alive (the control), the same call stores both when the lock goes.
// PostgreSQL only: the lock is held from a second connection, which PGlite (in-process, one
// connection) does not have.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ADMIN_PASSWORD, createPgDatabase, embeddedServerEnv, runTemplates } from '../../test/harness.ts';
import { nodeStarter, type Node } from '../../cluster/nodes.ts';

const { DATABASE_URL } = process.env;

describe.skipIf(!DATABASE_URL)('a change and its audit row across a kill -9 (skipped without DATABASE_URL: PostgreSQL only, the lock is held from a second connection)', () => {
  let db: { url: string; drop: () => Promise<void> };
  let dataDir: string;
  let watcher: pg.Client;
  let server: Node;
  let token: string;
  const nodes = nodeStarter(() => embeddedServerEnv(dataDir, { DATABASE_URL: db.url, LOG_LEVEL: 'warn' }));

  beforeAll(async () => {
    db = await createPgDatabase(DATABASE_URL!, (await runTemplates()).pg);
    dataDir = mkdtempSync(join(tmpdir(), 'iotc-audit-kill-'));
    watcher = new pg.Client({ connectionString: db.url });
    await watcher.connect();
    server = await nodes.start('audit-kill');
    const res = await fetch(`${server.url}/iot-cloud-auth/auth/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', language: 'en-US' },
      body: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }),
    });
    token = ((await res.json()) as { data: { token: string } }).data.token;
  });
  afterAll(async () => {
    await nodes.stopAll();
    await watcher?.end();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const n = async (text: string, values: unknown[]) => Number((await watcher.query<{ n: string }>(text, values)).rows[0]!.n);
  const stored = async (deviceId: string) => ({
    device: await n('select count(*) as n from devices where device_id = $1', [deviceId]),
    audit: await n(`select count(*) as n from audit_logs where action = 'device_create' and detail = $1`, [deviceId]),
  });

  /**
   * Holds audit_logs in EXCLUSIVE mode from a connection of the test's, asks the server for a device,
   * and resolves once the server's transaction has inserted the device (it holds a lock on devices)
   * and waits on its INSERT into audit_logs; `release` commits the holder's transaction.
   */
  async function createWhileAuditLocked(deviceId: string) {
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE audit_logs IN EXCLUSIVE MODE');
    const answer = fetch(`${server.url}/api/iot/v2/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', language: 'en-US', access_token: token },
      body: JSON.stringify({ deviceId, name: 'Audit across a kill' }),
    }).then(
      async (res) => ({ status: res.status, body: (await res.json()) as { isSuccess: string } }),
      (err: unknown) => ({ status: 0, body: { isSuccess: 'N', error: String(err) } }),
    );
    let pid = 0;
    await expect
      .poll(
        async () => {
          const waiting = await watcher.query<{ pid: number }>(
            `select a.pid from pg_stat_activity a
              where a.datname = current_database() and a.pid not in ($1, pg_backend_pid())
                and a.wait_event_type = 'Lock' and a.query ilike 'insert into "audit_logs"%'
                and exists (select 1 from pg_locks l where l.pid = a.pid and l.relation = 'devices'::regclass and l.mode = 'RowExclusiveLock' and l.granted)`,
            [(holder as unknown as { processID: number }).processID],
          );
          pid = waiting.rows[0]?.pid ?? 0;
          return pid;
        },
        { timeout: 60_000 },
      )
      .toBeGreaterThan(0);
    // The device row is in the waiting transaction, not yet visible to anyone else.
    expect(await stored(deviceId)).toEqual({ device: 0, audit: 0 });
    return {
      answer,
      pid,
      release: async () => {
        await holder.query('COMMIT');
        await holder.end();
      },
    };
  }

  it('control: the process left alive stores the device and its audit row once the lock goes', async () => {
    const call = await createWhileAuditLocked('AUDIT-KILL-CTRL');
    await call.release();
    const res = await call.answer;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await stored('AUDIT-KILL-CTRL')).toEqual({ device: 1, audit: 1 });
  });

  it('kill -9 while the audit INSERT waits: neither the device nor its audit row is stored', async () => {
    const call = await createWhileAuditLocked('AUDIT-KILL-1');
    await nodes.stop(server, 'SIGKILL');
    await call.release();
    expect((await call.answer).status).toBe(0);
    // The killed process's backend ends (its INSERT runs, no COMMIT ever comes): wait for it to go.
    await expect.poll(async () => n('select count(*) as n from pg_stat_activity where pid = $1', [call.pid]), { timeout: 60_000 }).toBe(0);
    expect(await stored('AUDIT-KILL-1')).toEqual({ device: 0, audit: 0 });
    // The control's rows are still there: the count reads what it should.
    expect(await stored('AUDIT-KILL-CTRL')).toEqual({ device: 1, audit: 1 });
  });
});
