// Backup and restore against data the real app made (users, devices, readings through the
// intake, a transport task, a ledger with signed checkpoints and a saved tree head):
// - PGlite: the real `npm run backup` refuses while a server holds DATA_DIR and then backs up;
//   the real `npm run restore --verify` brings it into a new DATA_DIR, where the app has the same
//   rows, a user signs in with the same password, the ledger publishes the same key and
//   checkpoint, verifies, and goes on (a new checkpoint consistent with the saved head);
//   a non-empty target is refused and left byte for byte as it was, --force keeps it aside;
//   truncated, corrupted or incomplete backups, the wrong mode, a newer version's backup, and
//   another or a missing LEDGER_SIGNER_KEY are refused with a message naming the problem.
// - PostgreSQL (with DATABASE_URL): the same on throw-away databases, the backup taken while the
//   app runs and takes readings; a restore under a connected server, over a non-empty database
//   and of a dump pg_restore cannot read are refused, changing nothing.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { ReportingDevice } from '../ingest/pipeline.ts';
import { generateNoteKeys } from '@iotc/shared/ledger/checkpoint';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { rowsOf } from '../db/client.ts';
import { orgs } from '../db/schema.ts';
import { verifyLedger } from '../modules/ledger/cli.ts';
import { addOrgUser } from '../test/fixtures.ts';
import { ADMIN_PASSWORD, call, createPgDatabase, DEMO_PASSWORD, login } from '../test/harness.ts';
import { BackupError, createBackup, knownMigrations, restoreBackup, type BackupResult } from './backup.ts';
import type { Manifest } from './archive.ts';

const exec = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../../../..');
const cli = join(repoRoot, 'apps/server/src/backup/cli.ts');
const ACCOUNT = 'backup-admin';
const PASSWORD = 'Backup#2026';
const iso = (ms: number) => new Date(ms).toISOString();

/** The environment of a child command: the server's variables as given, none inherited from the test run. */
function childEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['DATABASE_URL', 'DATA_DIR', 'LEDGER_SIGNER_KEY', 'LEDGER_ORIGIN']) delete env[k];
  return { ...env, ...vars };
}

/** Runs the real command (`node --import tsx .../cli.ts ...`) and returns its exit code and output. */
async function runCli(args: string[], vars: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: repoRoot, env: childEnv(vars), maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : -1, stdout: x.stdout ?? '', stderr: x.stderr ?? '' };
  }
}

async function startApp(dataDir: string, databaseUrl?: string): Promise<FastifyInstance> {
  // Tree heads are signed by the test only (logAndSign), not by the app's own timer.
  const base = loadConfig({ LOG_LEVEL: 'silent', ADMIN_PASSWORD, DEMO_PASSWORD, LEDGER_CHECKPOINT_SECONDS: '86400' });
  return buildApp({ ...base, dataDir, databaseUrl, mqtt: false });
}

interface Snapshot {
  counts: { telemetry: number; devices: number; users: number; tasks: number };
  publicKey: string;
  checkpoint: string;
}

async function snapshot(app: FastifyInstance): Promise<Snapshot> {
  const n = async (table: string) => Number(rowsOf<{ n: string }>(await app.database.db.execute(sql.raw(`select count(*)::text as n from ${table}`)))[0]!.n);
  return {
    counts: { telemetry: await n('telemetry'), devices: await n('devices'), users: await n('users'), tasks: await n('transport_tasks') },
    publicKey: (await app.inject({ method: 'GET', url: '/api/iot/v2/ledger/public-key' })).body,
    checkpoint: (await app.inject({ method: 'GET', url: '/api/iot/v2/ledger/checkpoint' })).body,
  };
}

/** Readings of a past minute (received then), which the ledger logs at its next tick. */
async function pastReadings(app: FastifyInstance, orgId: string, deviceRef: string, minute: number, temps: number[]) {
  for (const [i, temp] of temps.entries()) {
    const at = minute + 5_000 + i * 10_000;
    await app.database.db.execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, speed, raw, sensors)
      values (${orgId}, ${deviceRef}, ${iso(at - 2_000)}::timestamptz, ${iso(at)}::timestamptz, 31.2, 121.5, 40, '{}'::jsonb, ${JSON.stringify({ temperature: temp })}::jsonb)`);
  }
}

/** A transport task: its creation is a custody record of the ledger. */
async function newTask(app: FastifyInstance, token: string, deviceRef: string) {
  const task = await call(app, {
    method: 'POST',
    url: '/api/iot/v2/transport-tasks',
    token,
    body: { goodsName: 'Vaccines', deviceIds: [deviceRef], origin: { name: 'A', lat: 31.2, lon: 121.5, radiusM: 500 }, destination: { name: 'B', lat: 30.27, lon: 120.15, radiusM: 800 } },
  });
  expect(task.status).toBe(200);
}

async function logAndSign(app: FastifyInstance) {
  while ((await app.ledger.tick()) > 0);
  expect(await app.ledger.checkpoint()).not.toBeNull();
}

/** The app's content: a user, two devices with readings through the intake, a task, a signed ledger, a saved head. */
async function populate(app: FastifyInstance, dataDir: string): Promise<{ deviceRef: string; device: ReportingDevice }> {
  const db = app.database.db;
  const orgId = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId, account: ACCOUNT, password: PASSWORD, roleCodes: ['org_admin'] });
  const token = await login(app, ACCOUNT, PASSWORD);
  const made: (DeviceWithSecret & { id: string })[] = [];
  for (const [i, name] of ['Reefer 1', 'Reefer 2'].entries()) {
    const r = await call<DeviceWithSecret & { id: string }>(app, { method: 'POST', url: '/api/iot/v2/devices', token, body: { deviceId: `BK0000000${i + 1}`, name } });
    expect(r.status).toBe(200);
    made.push(r.body.data!);
  }
  const now = Date.now();
  for (const d of made) {
    const reports = Array.from({ length: 30 }, (_, k) => ({ deviceId: d.deviceId, time: iso(now - (30 - k) * 20_000), lat: 31.2 + k / 1000, lon: 121.5, speed: 40 }));
    const r = await app.intake.ingest({ id: d.id, orgId, deviceId: d.deviceId }, reports, 'http');
    expect(r.accepted).toBe(30);
  }
  await app.readings.flushed();
  const base = Math.floor(now / 60_000) * 60_000 - 30 * 60_000;
  for (const [i, temps] of [[-18.1, -18.2], [-18.4, -18.5, -18.6], [-19]].entries()) await pastReadings(app, orgId, made[0]!.id, base + i * 60_000, temps);
  await newTask(app, token, made[0]!.id);
  await logAndSign(app);
  // An auditor's saved tree head, kept in DATA_DIR/ledger and so in the backup.
  const audit = await verifyLedger({ db, dataDir, env: {} });
  expect(audit).toMatchObject({ ok: true, heads: { appended: true } });
  return { deviceRef: made[0]!.id, device: { id: made[1]!.id, orgId, deviceId: made[1]!.deviceId } };
}

/** After a restore: same rows and ledger, the same sign-in, and the ledger goes on under the same key. */
async function expectSameAndGoesOn(app: FastifyInstance, dataDir: string, before: Snapshot, deviceRef: string) {
  expect(await snapshot(app)).toEqual(before);
  const token = await login(app, ACCOUNT, PASSWORD);
  await expect(login(app, 'admin', ADMIN_PASSWORD)).resolves.toEqual(expect.any(String));
  const restored = await verifyLedger({ db: app.database.db, dataDir, env: {}, save: false });
  expect(restored.checks.filter((c) => !c.ok)).toEqual([]);
  expect(restored.verifierKey).toBe(before.publicKey.trim());
  // A new task is logged and signed by the same key; the head saved before the backup leads to it.
  await newTask(app, token, deviceRef);
  await logAndSign(app);
  const after = await snapshot(app);
  expect(after.publicKey).toBe(before.publicKey);
  expect(after.checkpoint).not.toBe(before.checkpoint);
  const grown = await verifyLedger({ db: app.database.db, dataDir, env: {}, save: false });
  expect(grown.checks.filter((c) => !c.ok)).toEqual([]);
  expect(grown.checks.find((c) => c.name === 'heads')).toMatchObject({ ok: true, checked: 1 });
  expect(grown.leaves).toBeGreaterThan(restored.leaves);
}

/** Every file under a folder with its SHA-256: equal fingerprints, nothing changed. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = `${statSync(p).size}:${createHash('sha256').update(readFileSync(p)).digest('hex')}`;
    }
  };
  walk(dir);
  return out;
}

const refused = async (p: Promise<unknown>, message: RegExp) => {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(BackupError);
  expect((e as Error).message).toMatch(message);
};

// Child processes (node + tsx) and whole databases copied: generous limits on a busy machine.
describe('backup and restore on PGlite', { timeout: 120_000 }, () => {
  let root: string;
  let dataA: string;
  let app: FastifyInstance | undefined;
  let before: Snapshot;
  let ids: { deviceRef: string; device: ReportingDevice };
  let backup: BackupResult & { ok: boolean };
  const env = (dataDir: string) => ({ DATA_DIR: dataDir });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'backup-pglite-'));
    dataA = join(root, 'a');
    app = await startApp(dataA);
    ids = await populate(app, dataA);
    before = await snapshot(app);
    expect(before.counts.telemetry).toBe(60 + 6);
  });

  afterAll(async () => {
    await app?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('refuses to back up while a server holds the database, then backs up with the real command once it is stopped', async () => {
    const out = join(root, 'backups');
    const busy = await runCli(['backup', '--out', out], env(dataA));
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(new RegExp(`in use by process ${process.pid} \\(server, since [^)]+\\): stop the server first`));
    expect(existsSync(out)).toBe(false);

    await app!.close();
    app = undefined;
    const done = await runCli(['backup', '--out', out, '--json'], env(dataA));
    expect(done.stderr).not.toMatch(/ERROR/);
    expect(done.code).toBe(0);
    backup = JSON.parse(done.stdout) as typeof backup;
    expect(readdirSync(out)).toEqual([backup.path.split('/').at(-1)]);
    expect(readdirSync(backup.path).sort()).toEqual(['ledger', 'manifest.json', 'pglite']);
    expect(readdirSync(join(backup.path, 'ledger')).sort()).toEqual(['signer.key', 'trusted-heads.txt', 'verifier.key']);
    // The signer key is a secret: the backup is readable by its owner only.
    expect(statSync(backup.path).mode & 0o077).toBe(0);
    expect(statSync(join(backup.path, 'ledger', 'signer.key')).mode & 0o077).toBe(0);
    const m = backup.manifest;
    expect(m).toMatchObject({ mode: 'pglite', formatVersion: 1, ledger: { signerKey: 'file', verifierKey: before.publicKey.trim() } });
    expect(m.database.rows).toMatchObject({ telemetry: before.counts.telemetry, devices: before.counts.devices, users: before.counts.users });
    expect(m.database.migrations).toMatchObject({ count: knownMigrations().length, last: knownMigrations().at(-1)!.tag });
    expect(m.ledger.latestCheckpointSize).toBe(m.ledger.leaves);
    expect(m.ledger.leaves).toBeGreaterThanOrEqual(4);
  });

  it('restores with the real command into a new DATA_DIR: same rows, sign-in, key and checkpoint; the ledger verifies and goes on', async () => {
    const dataB = join(root, 'b');
    const r = await runCli(['restore', backup.path, '--verify', '--json'], env(dataB));
    expect(r.stderr).not.toMatch(/ERROR/);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { ok: boolean; verification: { ok: boolean; checks: { name: string; ok: boolean }[] } };
    expect(result.verification.checks.map((c) => [c.name, c.ok])).toEqual([
      ['migrations', true],
      ['rows', true],
      ['key', true],
      ['ledger', true],
    ]);
    expect(readFileSync(join(dataB, 'ledger', 'signer.key'), 'utf8')).toBe(readFileSync(join(dataA, 'ledger', 'signer.key'), 'utf8'));
    expect(statSync(join(dataB, 'ledger', 'signer.key')).mode & 0o077).toBe(0);

    app = await startApp(dataB);
    await expectSameAndGoesOn(app, dataB, before, ids.deviceRef);
    await app.close();
    app = undefined;
  });

  it('refuses a non-empty DATA_DIR without --force and changes nothing; --force keeps what was there aside', async () => {
    const dataB = join(root, 'b');
    const was = fingerprint(dataB);
    expect(Object.keys(was).length).toBeGreaterThan(100);
    await refused(restoreBackup({ backupDir: backup.path, env: env(dataB) }), /is not empty: .*pglite holds a database.*add --force.*Nothing was changed/);
    expect(fingerprint(dataB)).toEqual(was);

    const r = await restoreBackup({ backupDir: backup.path, env: env(dataB), force: true, verify: true });
    expect(r.verification!.checks.filter((c) => !c.ok)).toEqual([]);
    // The database that was there (with the task added after the restore) is kept whole.
    expect(r.keptAside).toMatch(/before-restore-/);
    const kept = fingerprint(join(r.keptAside!, 'pglite'));
    expect(kept).toEqual(Object.fromEntries(Object.entries(was).filter(([k]) => k.startsWith('pglite/')).map(([k, v]) => [k.slice('pglite/'.length), v])));
    app = await startApp(dataB);
    expect((await snapshot(app)).counts).toEqual(before.counts);
    await app.close();
    app = undefined;
  });

  it('refuses truncated, corrupted and incomplete backups with a message naming the problem, creating nothing', async () => {
    const copy = (name: string) => {
      const dir = join(root, name);
      cpSync(backup.path, dir, { recursive: true });
      return dir;
    };
    const target = join(root, 'c');
    const truncated = copy('truncated');
    const largest = backup.manifest.files.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    truncateSync(join(truncated, largest.path), Math.floor(largest.bytes / 2));
    const r = await runCli(['restore', truncated], env(target));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`damaged or incomplete: ${largest.path} has ${Math.floor(largest.bytes / 2)} bytes, the manifest says ${largest.bytes}`);

    const corrupted = copy('corrupted');
    const key = join(corrupted, 'ledger', 'verifier.key');
    const text = readFileSync(key);
    text[text.length - 3] = text[text.length - 3]! ^ 1;
    writeFileSync(key, text);
    await refused(restoreBackup({ backupDir: corrupted, env: env(target) }), /damaged: ledger\/verifier\.key does not match its SHA-256/);

    const noManifest = copy('no-manifest');
    rmSync(join(noManifest, 'manifest.json'));
    await refused(restoreBackup({ backupDir: noManifest, env: env(target) }), /is not a backup: it has no manifest\.json/);

    // A database file whose checksum was made to match but is not what was backed up.
    const garbage = copy('garbage');
    writeFileSync(join(garbage, 'pglite', 'PG_VERSION.gz'), 'not a database file');
    const m = JSON.parse(readFileSync(join(garbage, 'manifest.json'), 'utf8')) as Manifest;
    m.files = m.files.map((f) => (f.path === 'pglite/PG_VERSION.gz' ? { ...f, bytes: 19, sha256: createHash('sha256').update('not a database file').digest('hex') } : f));
    writeFileSync(join(garbage, 'manifest.json'), JSON.stringify(m));
    await refused(restoreBackup({ backupDir: garbage, env: env(target) }), /could not be unpacked.*Nothing was changed/);

    await refused(restoreBackup({ backupDir: join(root, 'nowhere'), env: env(target) }), /no backup at .*nowhere: the folder does not exist/);
    expect(existsSync(target)).toBe(false);
  });

  it('refuses the wrong mode, a newer version\'s backup, another signer key and a missing one', async () => {
    const target = join(root, 'd');
    await refused(
      restoreBackup({ backupDir: backup.path, env: { ...env(target), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } }),
      /backup of the embedded database \(PGlite\) but DATABASE_URL is set/,
    );
    const newer = join(root, 'newer');
    cpSync(backup.path, newer, { recursive: true });
    const m = JSON.parse(readFileSync(join(newer, 'manifest.json'), 'utf8')) as Manifest;
    const known = knownMigrations();
    m.database.migrations = { count: known.length + 1, last: '9999_future', lastAt: known.at(-1)!.when + 1 };
    writeFileSync(join(newer, 'manifest.json'), JSON.stringify(m));
    await refused(restoreBackup({ backupDir: newer, env: env(target) }), /made by a newer version of the console .*restore it with that version or a later one/);
    m.formatVersion = 2;
    writeFileSync(join(newer, 'manifest.json'), JSON.stringify(m));
    await refused(restoreBackup({ backupDir: newer, env: env(target) }), /has format 2, made by a newer version/);

    const other = (await generateNoteKeys('someone-else')).signerKey;
    await refused(restoreBackup({ backupDir: backup.path, env: { ...env(target), LEDGER_SIGNER_KEY: other } }), /LEDGER_SIGNER_KEY is another key .* than the one of the backed-up ledger/);
    // A server that had its key from LEDGER_SIGNER_KEY: the key is not in the backup, so the restore needs it given.
    const envKey = join(root, 'env-key');
    cpSync(backup.path, envKey, { recursive: true });
    const k = JSON.parse(readFileSync(join(envKey, 'manifest.json'), 'utf8')) as Manifest;
    k.ledger.signerKey = 'environment';
    writeFileSync(join(envKey, 'manifest.json'), JSON.stringify(k));
    await refused(restoreBackup({ backupDir: envKey, env: env(target) }), /took its ledger signer key from LEDGER_SIGNER_KEY, which is not in the backup: set LEDGER_SIGNER_KEY/);
    expect(existsSync(target)).toBe(false);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('backup and restore on PostgreSQL', { timeout: 120_000 }, () => {
  const base = process.env.DATABASE_URL!;
  let root: string;
  const dbs: { url: string; drop: () => Promise<void> }[] = [];
  let app: FastifyInstance | undefined;
  let before: Snapshot;
  let ids: { deviceRef: string; device: ReportingDevice };
  let backup: BackupResult;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'backup-pg-'));
    dbs.push(await createPgDatabase(base), await createPgDatabase(base));
    app = await startApp(join(root, 'a'), dbs[0]!.url);
    ids = await populate(app, join(root, 'a'));
    before = await snapshot(app);
  });

  afterAll(async () => {
    await app?.close();
    for (const d of dbs) await d.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('backs up while the server runs and takes readings (counts from the dump\'s own snapshot)', async () => {
    // Readings keep arriving during the backup: the restore's row check fails unless the
    // manifest's counts and the dump are one snapshot.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const r = await app!.intake.ingest(ids.device, [{ deviceId: ids.device.deviceId, time: iso(Date.now() - 1000), lat: 31.3, lon: 121.6 }], 'http');
        await app!.readings.flushed();
        written += r.accepted;
      }
    })();
    while (written < 3) await new Promise((r) => setTimeout(r, 20));
    const at = written;
    backup = await createBackup({ env: { DATA_DIR: join(root, 'a'), DATABASE_URL: dbs[0]!.url }, outDir: join(root, 'backups') });
    const after = written;
    writing = false;
    await writer;
    expect(after).toBeGreaterThan(at);
    const inBackup = backup.manifest.database.rows['telemetry']!;
    expect(inBackup).toBeGreaterThanOrEqual(before.counts.telemetry + at);
    expect(inBackup).toBeLessThanOrEqual(before.counts.telemetry + after);
    before = { ...before, counts: { ...before.counts, telemetry: inBackup } };
    expect(readdirSync(backup.path).sort()).toEqual(['database.pgdump', 'ledger', 'manifest.json']);
    expect(backup.manifest).toMatchObject({ mode: 'postgres', ledger: { signerKey: 'file', verifierKey: before.publicKey.trim() } });
    expect(backup.manifest.database.rows).toMatchObject({ telemetry: before.counts.telemetry, devices: before.counts.devices, users: before.counts.users });
    // The password of the URL is not written anywhere in the backup.
    expect(readFileSync(join(backup.path, 'manifest.json'), 'utf8')).not.toContain(dbs[0]!.url);
    await app!.close();
    app = undefined;
  });

  it('restores into an empty database: same rows, sign-in, key and checkpoint; the ledger verifies and goes on', async () => {
    const dataB = join(root, 'b');
    const r = await restoreBackup({ backupDir: backup.path, env: { DATA_DIR: dataB, DATABASE_URL: dbs[1]!.url }, verify: true });
    expect(r.verification!.checks.filter((c) => !c.ok)).toEqual([]);
    expect(r.keptAside).toBeNull();
    app = await startApp(dataB, dbs[1]!.url);
    await expectSameAndGoesOn(app, dataB, before, ids.deviceRef);
  });

  it('refuses while a server is connected, and a non-empty database without --force, changing nothing; --force dumps it aside first', async () => {
    const dataB = join(root, 'b');
    const target = { backupDir: backup.path, env: { DATA_DIR: dataB, DATABASE_URL: dbs[1]!.url } };
    const grown = (await snapshot(app!)).counts;
    expect(grown.tasks).toBe(before.counts.tasks + 1);
    await refused(restoreBackup({ ...target, force: true }), /other session\(s\) are connected .*stop the servers on it first/);
    await app!.close();
    app = undefined;

    const files = fingerprint(dataB);
    await refused(restoreBackup(target), /the target is not empty: .* holds \d+ table\(s\).*add --force.*Nothing was changed/);
    expect(fingerprint(dataB)).toEqual(files);
    app = await startApp(dataB, dbs[1]!.url);
    expect((await snapshot(app)).counts).toEqual(grown);
    await app.close();
    app = undefined;

    const r = await restoreBackup({ ...target, force: true, verify: true });
    expect(r.verification!.checks.filter((c) => !c.ok)).toEqual([]);
    expect(statSync(join(r.keptAside!, 'database.pgdump')).size).toBeGreaterThan(10_000);
    app = await startApp(dataB, dbs[1]!.url);
    expect((await snapshot(app)).counts).toEqual(before.counts);
  });

  it('restores over partitioned readings in one transaction: a statement failing midway changes nothing', async () => {
    await app?.close();
    app = undefined;
    /** Runs statements on a connection of its own, closed after (a restore refuses while others are connected). */
    const query = async (text: string) => {
      const c = new pg.Client({ connectionString: dbs[1]!.url });
      await c.connect();
      try {
        return (await c.query(text)).rows;
      } finally {
        await c.end();
      }
    };
    const state = async () =>
      (await query(`select (select count(*)::int from telemetry) as readings, (select count(*)::int from pg_inherits where inhparent = 'telemetry'::regclass) as partitions`))[0];
    // The target's readings are partitioned by month (migration 0025); a view in the way makes the drop of the table fail.
    await query(`insert into telemetry (org_id, device_ref, time, raw, sensors) values (gen_random_uuid(), gen_random_uuid(), now(), '{}', '{}')`);
    await query('create view readings_in_the_way as select * from telemetry');
    const was = await state();
    expect(was.partitions).toBeGreaterThanOrEqual(4);
    const target = { backupDir: backup.path, env: { DATA_DIR: join(root, 'b'), DATABASE_URL: dbs[1]!.url }, force: true };
    await refused(restoreBackup(target), /psql failed \(exit code 3\): .*cannot drop table public\.telemetry because other objects depend on it.*the database is as it was/);
    expect(await state()).toEqual(was);
    await query('drop view readings_in_the_way');
    await restoreBackup(target);
    expect((await state()).readings).toBe(before.counts.telemetry);
  });

  it('refuses a dump pg_restore cannot read, leaving the empty database empty', async () => {
    const empty = await createPgDatabase(base);
    dbs.push(empty);
    const garbage = join(root, 'garbage');
    cpSync(backup.path, garbage, { recursive: true });
    writeFileSync(join(garbage, 'database.pgdump'), 'PGDMP but not really');
    const m = JSON.parse(readFileSync(join(garbage, 'manifest.json'), 'utf8')) as Manifest;
    m.files = m.files.map((f) => (f.path === 'database.pgdump' ? { ...f, bytes: 20, sha256: createHash('sha256').update('PGDMP but not really').digest('hex') } : f));
    writeFileSync(join(garbage, 'manifest.json'), JSON.stringify(m));
    await refused(restoreBackup({ backupDir: garbage, env: { DATA_DIR: join(root, 'e'), DATABASE_URL: empty.url } }), /pg_restore failed \(exit code 1\): .*the database is as it was/);
    const c = new pg.Client({ connectionString: empty.url });
    await c.connect();
    const tables = await c.query(`select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`);
    await c.end();
    expect(tables.rows[0]).toEqual({ n: 0 });
  });
});
