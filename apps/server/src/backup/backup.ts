// Backup and restore of the console's state, `npm run backup` / `npm run restore` (see cli.ts):
// the database and the ledger's key files of DATA_DIR/ledger, which a restored ledger needs to
// go on signing tree heads with the same key (and to be verified with the key already
// published).
//
// PGlite (DATA_DIR/pglite): one process owns the directory, so the server must be stopped; a
// running one is found by DATA_DIR's lock (db/data-lock.ts) and named, and the lock is held
// through the backup or restore so that no server starts on the directory meanwhile. The database is
// opened once (for the manifest's counts) and closed, which leaves its directory shut down
// cleanly, and then copied file by file, each gzipped (streamed: PGlite's own dumpDataDir holds
// the whole directory in memory, about 2.5 times its size in RSS, too much for a large one).
// Restored into a new directory beside the target, opened once, then renamed into place.
// PostgreSQL (DATABASE_URL): online, with pg_dump in the custom format. The row counts of the
// manifest are read in a repeatable-read transaction whose snapshot pg_dump is given
// (--snapshot), so they are exactly the dump's even while servers keep writing. Restored with
// pg_restore in one transaction (a failed restore changes nothing).
//
// Nothing is deleted: a restore refuses a target that holds a database or other ledger keys
// unless forced, and then moves (PGlite) or first dumps (PostgreSQL) what was there into
// DATA_DIR/before-restore-<time>/.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { chmodSync, copyFileSync, createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { formatVerifierKey, openCheckpoint, parseSignerKey } from '@iotc/shared/ledger/checkpoint';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase, rowsOf, type Db, type Executor } from '../db/client.ts';
import { verifyLedger, type LedgerAudit } from '../modules/ledger/cli.ts';
import { DataDirInUseError, lockDataDir, type DataDirLock } from '../db/data-lock.ts';
import { BackupError, checkFiles, describeFile, DUMP_FILE, FORMAT_VERSION, LEDGER_FILES, MANIFEST, readManifest, type Manifest } from './archive.ts';

export { BackupError } from './archive.ts';

const here = dirname(fileURLToPath(import.meta.url));
const journalFile = join(here, '../../drizzle/meta/_journal.json');
const serverPackage = join(here, '../../package.json');
const pglitePackage = join(dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite'))), '../package.json');

type Env = Record<string, string | undefined>;

export interface Target {
  mode: 'pglite' | 'postgres';
  dataDir: string;
  databaseUrl?: string;
  /** LEDGER_SIGNER_KEY when set. */
  signerKey?: string;
  /** The environment the target was read from (the ledger verifier reads LEDGER_ORIGIN from it). */
  env: Env;
}

export interface TargetOptions {
  /** The environment (default process.env); the server's variables, read with its loadConfig. */
  env?: Env;
  /** Overrides DATA_DIR. */
  dataDir?: string;
  /** Overrides DATABASE_URL. */
  databaseUrl?: string;
  /** Folder of pg_dump / pg_restore (default: found on PATH). */
  pgBin?: string;
}

/** DATA_DIR and DATABASE_URL as the server would read them. */
export function resolveTarget(opts: TargetOptions): Target {
  const env = { ...(opts.env ?? process.env), ...(opts.dataDir ? { DATA_DIR: opts.dataDir } : {}), ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}) };
  try {
    const c = loadConfig(env);
    return { mode: c.databaseUrl ? 'postgres' : 'pglite', dataDir: c.dataDir, databaseUrl: c.databaseUrl, signerKey: c.ledgerSignerKey, env };
  } catch (e) {
    if (e instanceof ConfigError) throw new BackupError(e.message);
    throw e;
  }
}

// ---- what is in a database ----

interface JournalEntry {
  tag: string;
  when: number;
}

/** The migrations this version of the server knows, oldest first. */
export function knownMigrations(): JournalEntry[] {
  return (JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: JournalEntry[] }).entries;
}

function appVersion(): string {
  return (JSON.parse(readFileSync(serverPackage, 'utf8')) as { version: string }).version;
}

/** A password never reaches a message or the process list. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unreadable URL)';
  }
}

type Inspection = Pick<Manifest['database'], 'migrations' | 'rows'> & {
  serverVersion: string;
  ledger: { leaves: number; checkpoints: number; latest: { size: number; note: string } | null };
};

/** Migrations applied, exact row counts of every public table, and the ledger's size. */
async function inspect(q: Executor, where: string): Promise<Inspection> {
  const present = rowsOf<{ t: string | null }>(await q.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`))[0]?.t;
  if (!present) throw new BackupError(`${where} is not a console database (it has no migrations table): check DATA_DIR / DATABASE_URL`);
  const applied = rowsOf<{ at: string }>(await q.execute(sql`select created_at::text as at from drizzle.__drizzle_migrations order by created_at`));
  const lastAt = applied.length ? Number(applied.at(-1)!.at) : null;
  const last = lastAt === null ? null : (knownMigrations().find((m) => m.when === lastAt)?.tag ?? `unknown migration of ${new Date(lastAt).toISOString()}`);
  const tables = rowsOf<{ name: string }>(await q.execute(sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`)).map((r) => r.name);
  const rows: Record<string, number> = {};
  if (tables.length) {
    const union = tables.map((t) => `select ${quoteLiteral(t)} as t, count(*)::text as n from public.${quoteIdent(t)}`).join(' union all ');
    for (const r of rowsOf<{ t: string; n: string }>(await q.execute(sql.raw(union)))) rows[r.t] = Number(r.n);
  }
  const serverVersion = rowsOf<{ v: string }>(await q.execute(sql`select current_setting('server_version') as v`))[0]!.v;
  let latest: { size: number; note: string } | null = null;
  if (tables.includes('ledger_checkpoints')) {
    const r = rowsOf<{ n: string; note: string }>(await q.execute(sql`select size::text as n, note from ledger_checkpoints order by size desc limit 1`))[0];
    latest = r ? { size: Number(r.n), note: r.note } : null;
  }
  return {
    serverVersion,
    migrations: { count: applied.length, last, lastAt },
    rows,
    ledger: { leaves: rows['ledger_leaves'] ?? 0, checkpoints: rows['ledger_checkpoints'] ?? 0, latest },
  };
}

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;
const quoteLiteral = (s: string) => `'${s.replace(/'/g, "''")}'`;

// ---- the ledger's keys ----

interface Keys {
  verifierKey: string | null;
  source: Manifest['ledger']['signerKey'];
}

/** The signer the server would use, read without making one (loadSigner makes a key when none is there). */
async function currentKeys(dataDir: string, envKey: string | undefined): Promise<Keys> {
  const fromSigner = async (text: string) => {
    try {
      const k = await parseSignerKey(text.trim());
      return formatVerifierKey(k.name, k.publicKey);
    } catch (e) {
      throw new BackupError(`the ledger signer key ${envKey ? 'in LEDGER_SIGNER_KEY' : `in ${join(dataDir, 'ledger', 'signer.key')}`} is not usable: ${(e as Error).message}`);
    }
  };
  if (envKey) return { verifierKey: await fromSigner(envKey), source: 'environment' };
  const signer = join(dataDir, 'ledger', 'signer.key');
  if (existsSync(signer)) return { verifierKey: await fromSigner(readFileSync(signer, 'utf8')), source: 'file' };
  const verifier = join(dataDir, 'ledger', 'verifier.key');
  return { verifierKey: existsSync(verifier) ? readFileSync(verifier, 'utf8').trim() : null, source: 'none' };
}

// ---- external tools ----

/** Runs pg_dump / pg_restore with the password in the environment, not on the command line. */
async function runTool(tool: 'pg_dump' | 'pg_restore', pgBin: string | undefined, url: string, args: string[]): Promise<void> {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  const bin = pgBin ? join(pgBin, tool) : tool;
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  await new Promise<void>((done, fail) => {
    const child = spawn(bin, [...args, `--dbname=${u.toString()}`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    child.on('error', (e: NodeJS.ErrnoException) =>
      fail(
        e.code === 'ENOENT'
          ? new BackupError(`${bin} was not found: install the PostgreSQL client tools (e.g. apt-get install postgresql-client; the same major version as the server or newer), or give their folder with --pg-bin`)
          : e,
      ),
    );
    child.on('close', (code) => {
      if (code === 0) done();
      else fail(new BackupError(`${tool} failed (exit code ${code}): ${stderr.trim().split('\n').slice(-5).join(' | ') || 'no message'}`));
    });
  });
}

/** Constraints a table inherits from its parent (a partition's key), as `table|constraint` the way pg_dump names them. */
async function inheritedConstraints(url: string): Promise<Set<string>> {
  const client = await connect(url);
  try {
    const r = await client.query<{ t: string; c: string }>(
      `select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as t, quote_ident(k.conname) as c
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace where k.coninhcount > 0`,
    );
    return new Set(r.rows.map((x) => `${x.t}|${x.c}`));
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * pg_restore --clean over a database with partitioned tables (the readings, migration 0025):
 * its script drops each partition's key on its own (`ALTER TABLE ONLY <partition> DROP
 * CONSTRAINT`) before the tables, which PostgreSQL refuses for a constraint the partition
 * inherits; it goes with its table, dropped further on. So pg_restore writes the script, those
 * statements are left out, and psql runs the rest in one transaction, stopping at the first
 * error. A pg_restore that fails ends psql before the end of its input: nothing is committed.
 */
async function restoreOverPartitions(pgBin: string | undefined, url: string, dumpFile: string, inherited: Set<string>): Promise<void> {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  const bin = (tool: string) => (pgBin ? join(pgBin, tool) : tool);
  const run = (tool: string, args: string[], stdio: ('ignore' | 'pipe')[]) => {
    const child = spawn(bin(tool), args, { env, stdio: stdio as ['ignore' | 'pipe', 'ignore' | 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const exited = new Promise<number>((done, fail) => {
      child.on('error', (e: NodeJS.ErrnoException) =>
        fail(e.code === 'ENOENT' ? new BackupError(`${bin(tool)} was not found: install the PostgreSQL client tools (e.g. apt-get install postgresql-client), or give their folder with --pg-bin`) : e),
      );
      child.on('close', (code) => done(code ?? 1));
    });
    const failed = (code: number) => new BackupError(`${tool} failed (exit code ${code}): ${stderr.trim().split('\n').slice(-5).join(' | ') || 'no message'}`);
    return { child, exited, failed };
  };
  const psql = run('psql', ['--no-psqlrc', '--quiet', '--single-transaction', '--set=ON_ERROR_STOP=1', `--dbname=${u.toString()}`], ['pipe', 'ignore']);
  const restore = run('pg_restore', ['--no-owner', '--no-acl', '--clean', '--if-exists', '--file=-', dumpFile], ['ignore', 'pipe']);
  psql.child.stdin!.on('error', () => undefined); // psql stopped at an error: told by its exit code
  let psqlDone = false;
  const psqlExit = psql.exited.finally(() => {
    psqlDone = true;
  });
  psqlExit.catch(() => undefined);
  const skip = /^ALTER TABLE IF EXISTS ONLY (\S+) DROP CONSTRAINT IF EXISTS (\S+);$/;
  const out = restore.child.stdout!;
  out.setEncoding('utf8');
  let rest = '';
  try {
    for await (const chunk of out as AsyncIterable<string>) {
      if (psqlDone) break;
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      const kept = lines.filter((line) => {
        const m = line.startsWith('ALTER TABLE IF EXISTS ONLY ') ? skip.exec(line) : null;
        return !(m && inherited.has(`${m[1]}|${m[2]}`));
      });
      if (kept.length && !psql.child.stdin!.write(kept.join('\n') + '\n')) await Promise.race([once(psql.child.stdin!, 'drain').catch(() => undefined), psqlExit]); // once() rejects on the pipe's EPIPE: psql's exit code tells
    }
  } finally {
    if (psqlDone) restore.child.kill();
  }
  const restoreCode = await restore.exited;
  if (restoreCode !== 0 && !psqlDone) {
    psql.child.kill();
    await psqlExit.catch(() => undefined);
    throw restore.failed(restoreCode);
  }
  if (!psqlDone) psql.child.stdin!.end(rest);
  const psqlCode = await psqlExit;
  if (psqlCode !== 0) throw psql.failed(psqlCode);
}

// ---- backup ----

export interface BackupOptions extends TargetOptions {
  /** The folder the backup folder is made in (default ./backups). */
  outDir?: string;
  now?: () => Date;
}

export interface BackupResult {
  path: string;
  manifest: Manifest;
  warnings: string[];
  seconds: number;
}

const stampOf = (d: Date) => d.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');

/** Makes a backup folder of the configured database and ledger keys; throws BackupError when it cannot. */
export async function createBackup(opts: BackupOptions = {}): Promise<BackupResult> {
  const t = resolveTarget(opts);
  // Held through the copy: no server may open the embedded database meanwhile.
  const existed = existsSync(t.dataDir);
  const lock = t.mode === 'pglite' ? holdDataDir(t.dataDir, 'backup') : undefined;
  try {
    return await backupOf(t, opts);
  } finally {
    lock?.release();
    if (!existed) rmdirIfEmpty(t.dataDir);
  }
}

async function backupOf(t: Target, opts: BackupOptions): Promise<BackupResult> {
  const started = Date.now();
  const now = (opts.now ?? (() => new Date()))();
  if (t.mode === 'pglite') pgliteSource(t);
  const outDir = resolve(opts.outDir ?? 'backups');
  mkdirSync(outDir, { recursive: true, mode: 0o700 });
  let name = `iotc-backup-${t.mode}-${stampOf(now)}`;
  for (let i = 2; existsSync(join(outDir, name)); i++) name = `iotc-backup-${t.mode}-${stampOf(now)}-${i}`;
  const final = join(outDir, name);
  const partial = `${final}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { mode: 0o700 });
  const warnings: string[] = [];
  try {
    const keys = await currentKeys(t.dataDir, t.signerKey);
    const dumpFile = DUMP_FILE[t.mode];
    const info = t.mode === 'pglite' ? await dumpPglite(t, partial, dumpFile) : await dumpPostgres(t, partial, dumpFile, opts.pgBin);
    const files = [];
    for (const path of info.files) files.push(await describeFile(partial, path));
    const ledgerDir = join(t.dataDir, 'ledger');
    mkdirSync(join(partial, 'ledger'), { mode: 0o700 });
    for (const f of LEDGER_FILES) {
      if (!existsSync(join(ledgerDir, f))) continue;
      copyFileSync(join(ledgerDir, f), join(partial, 'ledger', f));
      chmodSync(join(partial, 'ledger', f), 0o600);
      files.push(await describeFile(partial, `ledger/${f}`));
    }
    if (keys.source === 'environment') {
      warnings.push('the signer key comes from LEDGER_SIGNER_KEY and is not in this backup: keep that key with it (a restore needs the same LEDGER_SIGNER_KEY)');
    } else if (keys.source === 'none' && info.ledger.checkpoints > 0) {
      warnings.push(`no ledger signer key in ${ledgerDir} nor LEDGER_SIGNER_KEY: the restored ledger cannot be continued with the key that signed it`);
    }
    if (keys.verifierKey && info.ledger.latest) {
      try {
        await openCheckpoint(info.ledger.latest.note, keys.verifierKey);
      } catch {
        warnings.push(`the latest checkpoint (size ${info.ledger.latest.size}) is not signed by the key in use (${keys.verifierKey}): is LEDGER_SIGNER_KEY / DATA_DIR the server's?`);
      }
    }
    const manifest: Manifest = {
      format: 'iot-cloud-console-backup',
      formatVersion: FORMAT_VERSION,
      mode: t.mode,
      createdAt: now.toISOString(),
      app: { version: appVersion() },
      database: { engine: info.engine, file: dumpFile, ...(info.directories ? { directories: info.directories } : {}), migrations: info.migrations, rows: info.rows },
      ledger: {
        verifierKey: keys.verifierKey,
        signerKey: keys.source,
        leaves: info.ledger.leaves,
        checkpoints: info.ledger.checkpoints,
        latestCheckpointSize: info.ledger.latest?.size ?? null,
      },
      files,
    };
    writeFileSync(join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    renameSync(partial, final);
    return { path: final, manifest, warnings, seconds: (Date.now() - started) / 1000 };
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw e;
  }
}

/** Takes DATA_DIR's lock (db/data-lock.ts), or refuses naming the process (the server) that holds it. */
function holdDataDir(dataDir: string, doing: 'backup' | 'restore'): DataDirLock {
  try {
    return lockDataDir(dataDir, doing);
  } catch (e) {
    if (!(e instanceof DataDirInUseError)) throw e;
    throw new BackupError(`${e.message}: stop the server first, then run the ${doing} again (PGlite serves one process only; on PostgreSQL, backups run while the server runs)`);
  }
}

/** The PGlite directory to back up: there, and no server holding it. */
function pgliteSource(t: Target): string {
  const dir = join(t.dataDir, 'pglite');
  if (!existsSync(join(dir, 'PG_VERSION'))) throw new BackupError(`no database at ${dir}: set DATA_DIR (or --data-dir) to the server's data directory, or DATABASE_URL for PostgreSQL`);
  return dir;
}

type Dump = Inspection & {
  engine: string;
  /** What was written, relative to the backup folder. */
  files: string[];
  directories?: string[];
};

async function dumpPglite(t: Target, root: string, name: string): Promise<Dump> {
  const dir = pgliteSource(t);
  const client = await PGlite.create(dir);
  let info: Inspection;
  try {
    info = await inspect(drizzlePglite(client) as unknown as Db, `PGlite ${dir}`);
  } finally {
    await client.close();
  }
  // Closed: the directory is shut down cleanly and nobody writes it while it is copied.
  const directories: string[] = [name];
  const files: string[] = [];
  const walk = async (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        directories.push(`${name}/${path}`);
        mkdirSync(join(root, name, path), { mode: 0o700 });
        await walk(path);
      } else if (e.isFile() && path !== 'postmaster.pid') {
        await pipeline(createReadStream(join(dir, path)), createGzip(), createWriteStream(join(root, name, `${path}.gz`), { mode: 0o600 }));
        files.push(`${name}/${path}.gz`);
      }
    }
  };
  mkdirSync(join(root, name), { mode: 0o700 });
  await walk('');
  const version = (JSON.parse(readFileSync(pglitePackage, 'utf8')) as { version: string }).version;
  return { ...info, engine: `PostgreSQL ${info.serverVersion} (PGlite ${version})`, files, directories };
}

async function dumpPostgres(t: Target, root: string, name: string, pgBin: string | undefined): Promise<Dump> {
  const file = join(root, name);
  const url = t.databaseUrl!;
  const client = await connect(url);
  try {
    // One snapshot for the counts and the dump; held open until pg_dump has read it all.
    await client.query('begin isolation level repeatable read, read only');
    const snapshot = (await client.query<{ s: string }>('select pg_export_snapshot() as s')).rows[0]!.s;
    const info = await inspect(drizzlePg(client) as unknown as Db, `PostgreSQL ${redactUrl(url)}`);
    await runTool('pg_dump', pgBin, url, ['--format=custom', `--file=${file}`, `--snapshot=${snapshot}`]);
    await client.query('commit');
    chmodSync(file, 0o600);
    return { ...info, engine: `PostgreSQL ${info.serverVersion}`, files: [name] };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw new BackupError(`cannot connect to ${redactUrl(url)}: ${(e as Error).message}`);
  }
  return client;
}

// ---- restore ----

export interface RestoreOptions extends TargetOptions {
  /** The backup folder. */
  backupDir: string;
  /** Restore over an existing database / other ledger keys, keeping them aside first. */
  force?: boolean;
  /** Afterwards open the database (migrating it), compare the row counts and verify the ledger. */
  verify?: boolean;
  now?: () => Date;
}

export interface RestoreResult {
  mode: Target['mode'];
  /** Where it went: the PGlite directory or the PostgreSQL URL (password hidden). */
  target: string;
  manifest: Manifest;
  /** Where what was there before went (with --force), if anything was. */
  keptAside: string | null;
  warnings: string[];
  seconds: number;
  verification?: Verification;
}

/** Reads and checks a backup folder (manifest, every file's size and SHA-256); changes nothing. */
export async function checkBackup(backupDir: string): Promise<Manifest> {
  const dir = resolve(backupDir);
  const manifest = readManifest(dir);
  await checkFiles(dir, manifest);
  return manifest;
}

/** Restores a backup into the configured DATA_DIR / DATABASE_URL; throws BackupError (having changed nothing) when it refuses. */
export async function restoreBackup(opts: RestoreOptions): Promise<RestoreResult> {
  const t = resolveTarget(opts);
  // Held from the first check to the end of the verification: no server may start on it meanwhile.
  const existed = existsSync(t.dataDir);
  const lock = t.mode === 'pglite' ? holdDataDir(t.dataDir, 'restore') : undefined;
  try {
    return await restoreInto(t, opts);
  } catch (e) {
    lock?.release();
    // A refused restore creates nothing: not even the folder the lock was taken in.
    if (!existed) rmdirIfEmpty(t.dataDir);
    throw e;
  } finally {
    lock?.release();
  }
}

function rmdirIfEmpty(dir: string) {
  try {
    rmdirSync(dir);
  } catch {
    // not empty, or gone: left as it is
  }
}

async function restoreInto(t: Target, opts: RestoreOptions): Promise<RestoreResult> {
  const started = Date.now();
  const backupDir = resolve(opts.backupDir);
  const manifest = await checkBackup(backupDir);
  const stamp = stampOf((opts.now ?? (() => new Date()))());
  const warnings: string[] = [];

  if (manifest.mode !== t.mode) {
    throw new BackupError(
      manifest.mode === 'pglite'
        ? 'this is a backup of the embedded database (PGlite) but DATABASE_URL is set: unset DATABASE_URL to restore it into DATA_DIR (restore does not move data between PGlite and PostgreSQL)'
        : 'this is a backup of a PostgreSQL database but DATABASE_URL is not set: set DATABASE_URL (or --database-url) to the empty database to restore it into (restore does not move data between PostgreSQL and PGlite)',
    );
  }
  assertKnownMigrations(manifest);
  await assertSameSigner(manifest, t);

  const ledgerDir = join(t.dataDir, 'ledger');
  const ledgerConflicts = LEDGER_FILES.filter((f) => {
    const there = join(ledgerDir, f);
    if (!existsSync(there)) return false;
    const ours = join(backupDir, 'ledger', f);
    return !existsSync(ours) || !readFileSync(there).equals(readFileSync(ours));
  });
  const aside = join(t.dataDir, `before-restore-${stamp}`);
  const conflictText = ledgerConflicts.length ? `; ${ledgerDir} holds other ledger files (${ledgerConflicts.join(', ')})` : '';

  let keptAside: string | null = null;
  let target: string;
  if (t.mode === 'pglite') {
    const pgDir = join(t.dataDir, 'pglite');
    target = pgDir;
    const occupied = existsSync(pgDir) && readdirSync(pgDir).length > 0;
    if ((occupied || ledgerConflicts.length) && !opts.force) {
      throw new BackupError(
        `${t.dataDir} is not empty${occupied ? `: ${pgDir} holds a database` : ''}${conflictText}. Restore into an empty DATA_DIR, or add --force: ` +
          `what is there is then moved to ${aside} (nothing is deleted). Nothing was changed.`,
      );
    }
    // Loaded beside the target first: a dump that does not load leaves DATA_DIR as it was.
    const made = !existsSync(t.dataDir);
    mkdirSync(t.dataDir, { recursive: true });
    const staging = join(t.dataDir, `.restore-${stamp}`);
    rmSync(staging, { recursive: true, force: true });
    try {
      try {
        await loadPglite(backupDir, manifest, join(staging, 'pglite'));
      } catch (e) {
        rmSync(staging, { recursive: true, force: true });
        if (made) rmSync(t.dataDir, { recursive: true, force: true });
        throw e;
      }
      if (occupied || ledgerConflicts.length) {
        keptAside = aside;
        mkdirSync(aside, { recursive: true, mode: 0o700 });
        if (occupied) renameSync(pgDir, join(aside, 'pglite'));
      }
      if (existsSync(pgDir)) rmSync(pgDir, { recursive: true }); // an empty folder
      renameSync(join(staging, 'pglite'), pgDir);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  } else {
    const url = t.databaseUrl!;
    target = `PostgreSQL ${redactUrl(url)}`;
    const objects = await userObjects(url);
    if ((objects.length || ledgerConflicts.length) && !opts.force) {
      throw new BackupError(
        `the target is not empty${objects.length ? `: ${target} holds ${objects.length} table(s) or other objects (${objects.slice(0, 5).join(', ')}${objects.length > 5 ? ', ...' : ''})` : ''}${conflictText}. ` +
          `Restore into an empty database (CREATE DATABASE ...), or add --force: the database is then first saved with pg_dump to ${aside}/database.pgdump` +
          `${ledgerConflicts.length ? ' and the ledger files moved there' : ''}, and the backup restored over it (pg_restore --clean --if-exists). Nothing was changed.`,
      );
    }
    await assertNoOtherSessions(url);
    if (objects.length || ledgerConflicts.length) {
      keptAside = aside;
      mkdirSync(aside, { recursive: true, mode: 0o700 });
      if (objects.length) await runTool('pg_dump', opts.pgBin, url, ['--format=custom', `--file=${join(aside, 'database.pgdump')}`]);
    }
    try {
      const inherited = objects.length ? await inheritedConstraints(url) : new Set<string>();
      if (inherited.size) await restoreOverPartitions(opts.pgBin, url, join(backupDir, manifest.database.file), inherited);
      else {
        await runTool('pg_restore', opts.pgBin, url, [
          '--no-owner',
          '--no-acl',
          '--single-transaction',
          '--exit-on-error',
          ...(objects.length ? ['--clean', '--if-exists'] : []),
          join(backupDir, manifest.database.file),
        ]);
      }
    } catch (e) {
      if (!(e instanceof BackupError)) throw e;
      throw new BackupError(`${e.message}. The restore ran in one transaction: the database is as it was.`);
    }
    const left = (await userObjects(url, 'tables')).filter((name) => !(name.replace(/^public\./, '') in manifest.database.rows) && !name.startsWith('drizzle.'));
    if (left.length) warnings.push(`tables that are not in the backup were left in the database: ${left.join(', ')}`);
  }

  // The ledger files: the ones in the way go aside, the backup's are put in place.
  mkdirSync(ledgerDir, { recursive: true });
  if (ledgerConflicts.length) mkdirSync(join(aside, 'ledger'), { recursive: true, mode: 0o700 });
  for (const f of ledgerConflicts) renameSync(join(ledgerDir, f), join(aside, 'ledger', f));
  for (const f of LEDGER_FILES) {
    const ours = join(backupDir, 'ledger', f);
    if (!existsSync(ours)) continue;
    copyFileSync(ours, join(ledgerDir, f));
    chmodSync(join(ledgerDir, f), f === 'signer.key' ? 0o600 : 0o644);
  }
  if (manifest.ledger.signerKey === 'environment') {
    warnings.push('the backed-up server took its signer key from LEDGER_SIGNER_KEY: start the server with that same LEDGER_SIGNER_KEY');
  }

  const result: RestoreResult = { mode: t.mode, target, manifest, keptAside, warnings, seconds: 0 };
  if (opts.verify) result.verification = await verifyRestore(t, manifest);
  result.seconds = (Date.now() - started) / 1000;
  return result;
}

/** Refuses a backup whose database has migrations this version does not know. */
function assertKnownMigrations(manifest: Manifest): void {
  const known = knownMigrations();
  const { lastAt, count } = manifest.database.migrations;
  if (lastAt === null) return;
  if (!known.some((m) => m.when === lastAt) || count > known.length) {
    const newer = lastAt > (known.at(-1)?.when ?? 0) || count > known.length;
    throw new BackupError(
      newer
        ? `this backup was made by a newer version of the console (app ${manifest.app.version}, ${count} database migrations; this version knows ${known.length}): restore it with that version or a later one`
        : `this backup's database has a migration this version does not know (${manifest.database.migrations.last}): restore it with the version that made it (app ${manifest.app.version})`,
    );
  }
}

/** With LEDGER_SIGNER_KEY set, it must be the key that signed the backed-up ledger. */
async function assertSameSigner(manifest: Manifest, t: Target): Promise<void> {
  const backedUp = manifest.ledger.verifierKey;
  if (t.signerKey) {
    const mine = await currentKeys(t.dataDir, t.signerKey);
    if (backedUp && mine.verifierKey !== backedUp) {
      throw new BackupError(
        `LEDGER_SIGNER_KEY is another key (${mine.verifierKey}) than the one of the backed-up ledger (${backedUp}): the restored ledger could not be continued with it. ` +
          'Set LEDGER_SIGNER_KEY to the backed-up key, or unset it to use the signer.key in the backup. Nothing was changed.',
      );
    }
  } else if (manifest.ledger.signerKey === 'environment') {
    throw new BackupError(
      `the backed-up server took its ledger signer key from LEDGER_SIGNER_KEY, which is not in the backup: set LEDGER_SIGNER_KEY to that key (its public half is ${backedUp}) and run the restore again. Nothing was changed.`,
    );
  }
}

/** Unpacks the backed-up PGlite directory into `dir` (new) and opens it once. */
async function loadPglite(backupDir: string, manifest: Manifest, dir: string): Promise<void> {
  const name = manifest.database.file;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const d of manifest.database.directories ?? []) if (d !== name) mkdirSync(join(dir, d.slice(name.length + 1)), { recursive: true, mode: 0o700 });
    for (const f of manifest.files) {
      if (!f.path.startsWith(`${name}/`) || !f.path.endsWith('.gz')) continue;
      const to = join(dir, f.path.slice(name.length + 1, -'.gz'.length));
      mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
      await pipeline(createReadStream(join(backupDir, f.path)), createGunzip(), createWriteStream(to, { mode: 0o600 }));
    }
  } catch (e) {
    throw new BackupError(`the database in ${join(backupDir, name)} could not be unpacked: ${(e as Error).message.replace(/\.+$/, '')}. Nothing was changed.`);
  }
  if (!existsSync(join(dir, 'PG_VERSION'))) throw new BackupError(`${join(backupDir, name)} holds no PGlite database (no PG_VERSION). Nothing was changed.`);
  let client: PGlite | undefined;
  try {
    client = await PGlite.create(dir);
    await client.query('select 1');
  } catch (e) {
    throw new BackupError(`the database in ${join(backupDir, name)} could not be opened: ${(e as Error).message.replace(/\.+$/, '')}. Nothing was changed.`);
  } finally {
    await client?.close().catch(() => undefined);
  }
}

/** Tables, views, sequences... outside the system schemas (names schema-qualified). */
async function userObjects(url: string, only?: 'tables'): Promise<string[]> {
  const client = await connect(url);
  try {
    const kinds = only === 'tables' ? `('r', 'p')` : `('r', 'p', 'v', 'm', 'S', 'f')`;
    const r = await client.query<{ name: string }>(
      `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ${kinds} and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
       order by 1`,
    );
    return r.rows.map((x) => x.name);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A restore under a running server would mix the two: refuse while others are connected. */
async function assertNoOtherSessions(url: string): Promise<void> {
  const client = await connect(url);
  try {
    // Sessions just closed (a stopped server's pool) take a moment to leave pg_stat_activity.
    for (let i = 0; ; i++) {
      const r = await client.query<{ n: string }>(`select count(*)::text as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`);
      const n = Number(r.rows[0]!.n);
      if (n === 0) return;
      if (i >= 20) throw new BackupError(`${n} other session(s) are connected to ${redactUrl(url)} (a running server?): stop the servers on it first. Nothing was changed.`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

// ---- verification ----

export interface VerificationCheck {
  name: 'migrations' | 'rows' | 'key' | 'ledger';
  ok: boolean;
  detail: string;
}

export interface Verification {
  ok: boolean;
  checks: VerificationCheck[];
  ledger: LedgerAudit | null;
}

/**
 * Opens the restored database as the server does (which applies any newer migrations), compares
 * the row counts with the manifest's, checks the signer key is the backed-up one, and runs the
 * ledger verifier over it.
 */
export async function verifyRestore(t: Target, manifest: Manifest): Promise<Verification> {
  const checks: VerificationCheck[] = [];
  // PGlite: the restore holds DATA_DIR's lock already.
  const database = await openDatabase(t.mode === 'postgres' ? { kind: 'postgres', url: t.databaseUrl! } : { kind: 'pglite', dataDir: t.dataDir, lockAs: false });
  let ledger: LedgerAudit | null = null;
  try {
    const now = await inspect(database.db, t.mode === 'postgres' ? `PostgreSQL ${redactUrl(t.databaseUrl!)}` : `PGlite ${join(t.dataDir, 'pglite')}`);
    const known = knownMigrations().length;
    checks.push({
      name: 'migrations',
      ok: now.migrations.count === known && now.migrations.count >= manifest.database.migrations.count,
      detail: `${now.migrations.count} applied (the backup had ${manifest.database.migrations.count}; this version has ${known})`,
    });
    const differ = Object.entries(manifest.database.rows)
      .filter(([table, n]) => now.rows[table] !== n)
      .map(([table, n]) => `${table}: ${now.rows[table] ?? 'missing'} (backup ${n})`);
    const total = Object.values(manifest.database.rows).reduce((a, b) => a + b, 0);
    checks.push({
      name: 'rows',
      ok: differ.length === 0,
      detail: differ.length ? `differ from the backup: ${differ.join('; ')}` : `${total} rows in ${Object.keys(manifest.database.rows).length} tables, as in the backup`,
    });
    const keys = await currentKeys(t.dataDir, t.signerKey);
    checks.push({
      name: 'key',
      ok: keys.verifierKey === manifest.ledger.verifierKey,
      detail: keys.verifierKey === manifest.ledger.verifierKey ? `signer ${keys.verifierKey ?? '(none)'} as in the backup` : `the signer is ${keys.verifierKey ?? '(none)'}, the backup's was ${manifest.ledger.verifierKey}`,
    });
    ledger = await verifyLedger({ db: database.db, dataDir: t.dataDir, env: t.env, save: false });
    const sameSize = ledger.leaves === manifest.ledger.leaves && (ledger.latest?.size ?? null) === manifest.ledger.latestCheckpointSize;
    checks.push({
      name: 'ledger',
      ok: ledger.ok && sameSize,
      detail: ledger.error
        ? ledger.error
        : `${ledger.ok ? 'verifies' : `does not verify (${ledger.checks.filter((c) => !c.ok).map((c) => c.name).join(', ')})`}: ${ledger.leaves} leaves, latest checkpoint ${ledger.latest?.size ?? 'none'}` +
          (sameSize ? '' : ` (the backup had ${manifest.ledger.leaves} leaves, checkpoint ${manifest.ledger.latestCheckpointSize ?? 'none'})`),
    });
  } finally {
    await database.close();
  }
  return { ok: checks.every((c) => c.ok), checks, ledger };
}
