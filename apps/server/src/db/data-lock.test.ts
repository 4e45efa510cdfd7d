// One process per embedded data folder: a second server on a DATA_DIR that a running server holds
// refuses to start, naming it; a lock left by a process that died is taken over, and when several
// processes find the same stale lock at once exactly one of them gets it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { dataDirHolder, DataDirInUseError, LOCK_FILE, lockDataDir, processStartTime } from './data-lock.ts';
import { embeddedServerEnv } from '../test/harness.ts';

const main = fileURLToPath(new URL('../main.ts', import.meta.url));
const lockModule = fileURLToPath(new URL('./data-lock.ts', import.meta.url));
const dirs: string[] = [];
const children: ChildProcess[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'iotc-lock-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The id of a process that has ended. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

const writeLock = (dir: string, holder: object) => writeFileSync(join(dir, LOCK_FILE), JSON.stringify(holder));

describe('the data folder lock', () => {
  it('refuses a second holder in this process and names the first', () => {
    const dir = tempDir();
    const lock = lockDataDir(dir, 'server');
    try {
      expect(() => lockDataDir(dir, 'backup')).toThrow(DataDirInUseError);
      expect(() => lockDataDir(dir, 'backup')).toThrow(new RegExp(`in use by process ${process.pid} \\(server, since `));
      expect(dataDirHolder(dir)?.pid).toBe(process.pid);
    } finally {
      lock.release();
    }
    expect(dataDirHolder(dir)).toBeNull();
    lockDataDir(dir, 'server').release();
  });

  it('takes over the lock of a process that has ended', () => {
    const dir = tempDir();
    writeLock(dir, { pid: deadPid(), startTime: '1', host: hostname(), what: 'server', since: '2026-01-01T00:00:00.000Z' });
    expect(dataDirHolder(dir)).toBeNull();
    const lock = lockDataDir(dir, 'server');
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, what: 'server' });
    lock.release();
  });

  it.skipIf(processStartTime(process.pid) === null)('takes over a lock whose process id now belongs to another process (reused after a restart)', () => {
    const dir = tempDir();
    // The parent of this process is alive, but it is not the process that wrote this lock.
    writeLock(dir, { pid: process.ppid, startTime: '12345', host: hostname(), what: 'server', since: '2020-01-01T00:00:00.000Z' });
    lockDataDir(dir, 'server').release();
  });

  it('gives a stale lock to exactly one of several processes taking it over at once', async () => {
    const dir = tempDir();
    writeLock(dir, { pid: deadPid(), startTime: '1', host: hostname(), what: 'server', since: '2026-01-01T00:00:00.000Z' });
    // Each contender waits for the go file, tries once, says what it got, and keeps a won lock until told to stop.
    const go = join(dir, 'go');
    const script = `
      const { lockDataDir } = await import(${JSON.stringify(lockModule)});
      const fs = await import('node:fs');
      console.log('ready');
      while (!fs.existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 2));
      try { lockDataDir(${JSON.stringify(dir)}, 'contender'); console.log('won'); }
      catch (e) { console.log(e.name === 'DataDirInUseError' ? 'refused' : 'error ' + e.message); }
      process.stdin.resume();
      process.stdin.on('end', () => process.exit(0));`;
    const contenders = Array.from({ length: 6 }, () => {
      const c = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
      children.push(c);
      let out = '';
      c.stdout!.on('data', (b: Buffer) => (out += b.toString()));
      const lines = () => out.trim().split('\n');
      return { c, ready: () => lines()[0] === 'ready', out: () => lines()[1] ?? '' };
    });
    // All loaded and waiting before the race begins.
    await expect.poll(() => contenders.every((x) => x.ready()), { timeout: 150_000, interval: 50 }).toBe(true);
    writeFileSync(go, '');
    await expect.poll(() => contenders.every((x) => x.out() !== ''), { timeout: 150_000, interval: 50 }).toBe(true);
    const results = contenders.map((x) => x.out()).sort();
    expect(results).toEqual(['refused', 'refused', 'refused', 'refused', 'refused', 'won']);
    const winner = contenders.find((x) => x.out() === 'won')!;
    expect(dataDirHolder(dir)?.pid).toBe(winner.c.pid);
    for (const x of contenders) x.c.stdin!.end();
  }, 330_000);
});

describe('a second server on one DATA_DIR', () => {
  const startServer = (dataDir: string) => {
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      env: embeddedServerEnv(dataDir, { LOG_LEVEL: 'warn', ARCHIVE_SECONDS: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr!.on('data', (b: Buffer) => (out += b.toString('utf8')));
    // The exit code, or the signal that ended it, with what it printed (a failure says why).
    const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(code === null ? `signal ${signal}\n${out}` : String(code))));
    return { child, out: () => out, exited };
  };

  /**
   * Node crashes now and then with a native SIGSEGV while several processes start PGlite's
   * WebAssembly at once (nodejs/node#64500, electric-sql/pglite#1053: not our code, nothing to do
   * with the lock). A server ending by such a signal is a crash of the runtime, not an answer of
   * the lock: the scenario is run again on a fresh folder, once.
   */
  class RuntimeCrash extends Error {}
  const CRASH = /^signal (SIGSEGV|SIGBUS|SIGILL|SIGABRT)\n/;
  const exitOf = async (exited: Promise<string>) => {
    const e = await exited;
    if (CRASH.test(e)) throw new RuntimeCrash(e);
    return e;
  };

  async function scenario() {
    const dataDir = tempDir();
    const first = startServer(dataDir);
    await expect.poll(() => first.out(), { timeout: 150_000, interval: 100 }).toMatch(/running at http:\/\//);

    const second = startServer(dataDir);
    expect(await exitOf(second.exited)).toBe('1');
    expect(second.out()).toMatch(new RegExp(`Cannot start: the embedded database .* is in use by process ${first.child.pid} \\(server, since `));
    expect(second.out()).not.toMatch(/running at/);
    // The first one is untouched by the refused start.
    expect(first.child.exitCode).toBeNull();

    // Killed without a chance to remove its lock: the lock is stale and the next server takes it.
    first.child.kill('SIGKILL');
    await first.exited;
    expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).toContain(`"pid":${first.child.pid}`);
    const third = startServer(dataDir);
    await expect.poll(() => third.out(), { timeout: 150_000, interval: 100 }).toMatch(/running at http:\/\//);
    expect(dataDirHolder(dataDir)?.pid).toBe(third.child.pid);
    third.child.kill('SIGTERM');
    expect(await exitOf(third.exited)).toBe('0');
    // A clean stop removes the lock.
    expect(dataDirHolder(dataDir)).toBeNull();
  }

  it('refuses to start, naming the running one; after that one is killed, the next starts', async () => {
    try {
      await scenario();
    } catch (e) {
      if (!(e instanceof RuntimeCrash)) throw e;
      console.warn(`a server process crashed in the runtime (${e.message.split('\n')[0]}); running the scenario again`);
      await scenario();
    }
  }, 400_000);
});
