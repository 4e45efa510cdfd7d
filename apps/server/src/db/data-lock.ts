// One process per embedded database. PGlite has no lock of its own: a second process opening
// DATA_DIR/pglite while another has it open writes the same files unsynchronised and corrupts
// them (indexes missing heap tuples, duplicate primary keys, a later start failing with XX002).
// So whoever opens it (the server, backup, restore, verify-ledger) first takes DATA_DIR/pglite.lock:
// a file created exclusively (O_EXCL) holding the owner's process id, its start time (so a process
// id reused after a reboot is not taken for the owner), host, command and time. A lock whose
// process is gone is stale and taken over; the takeover itself runs under a second exclusive file
// and checks the lock again under it, so two processes finding the same stale lock never both win,
// and a lock taken meanwhile is never removed.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/** Who holds a data directory, as its lock file says. */
export interface LockHolder {
  pid: number;
  /** The process's start time (Linux: clock ticks since boot, /proc/<pid>/stat), null where unknown. */
  startTime: string | null;
  host: string;
  /** What holds it: `server`, `backup`, `restore`, `verify-ledger`. */
  what: string;
  since: string;
}

/** The embedded database is open in another process (named), or its lock cannot be read. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder | null,
    detail: string,
  ) {
    super(detail);
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  readonly path: string;
  /** Removes the lock (only if it is still this process's). */
  release(): void;
}

export const LOCK_FILE = 'pglite.lock';
const TAKEOVER_SUFFIX = '.takeover';
/** A takeover file this old whose process is gone was left by a crash mid-takeover. */
const TAKEOVER_STALE_MS = 10_000;

/** The start time of a process (Linux), null where /proc does not tell. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22, counted after the command name (which may hold spaces and parentheses).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, under another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process a lock names is still the one that wrote it. */
function isAlive(h: LockHolder): boolean {
  if (h.host !== hostname()) return true; // another machine's process (a shared disk): cannot tell, so it holds it
  if (h.pid === process.pid) return h.startTime === null || h.startTime === processStartTime(process.pid);
  if (!processExists(h.pid)) return false;
  const now = processStartTime(h.pid);
  return h.startTime === null || now === null || now === h.startTime;
}

function readHolder(path: string): LockHolder | null | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid !== 'number' || !Number.isInteger(h.pid) || h.pid <= 0) return 'unreadable';
    return { pid: h.pid, startTime: h.startTime ?? null, host: h.host ?? hostname(), what: h.what ?? 'process', since: h.since ?? '' };
  } catch {
    return 'unreadable';
  }
}

const sameHolder = (a: LockHolder, b: LockHolder) => a.pid === b.pid && a.startTime === b.startTime && a.host === b.host && a.since === b.since;

function writeExclusive(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

export function describeHolder(h: LockHolder): string {
  const where = h.host === hostname() ? '' : ` on ${h.host}`;
  return `process ${h.pid}${where} (${h.what}${h.since ? `, since ${h.since}` : ''})`;
}

/**
 * The other processes that have files of the PGlite directory open (Linux, from /proc): a server
 * of a version before the lock file. PGlite leaves postmaster.pid while open and removes it on a
 * clean close; without /proc the file alone counts as "in use" (null).
 */
export function pgliteFileHolders(pgDir: string): number[] | null {
  if (!existsSync(join(pgDir, 'postmaster.pid'))) return [];
  if (!existsSync('/proc/self/fd')) return null;
  const root = `${resolve(pgDir)}/`;
  const holders: number[] = [];
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p) || Number(p) === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${p}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target = '';
      try {
        target = readlinkSync(`/proc/${p}/fd/${fd}`);
      } catch {
        continue;
      }
      if (target.startsWith(root)) {
        holders.push(Number(p));
        break;
      }
    }
  }
  return holders;
}

/** Who holds the data directory now, by its lock (null: nobody alive). */
export function dataDirHolder(dataDir: string): LockHolder | null {
  const h = readHolder(join(dataDir, LOCK_FILE));
  if (h === null || h === 'unreadable') return null;
  return isAlive(h) ? h : null;
}

/**
 * Takes the data directory's lock for this process, or throws DataDirInUseError naming the
 * process that holds it. A stale lock (its process gone) is taken over.
 */
export function lockDataDir(dataDir: string, what: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, startTime: processStartTime(process.pid), host: hostname(), what, since: new Date().toISOString() };
  const content = `${JSON.stringify(mine)}\n`;
  for (let attempt = 0; attempt < 20; attempt++) {
    if (writeExclusive(path, content)) {
      const lock = {
        path,
        release() {
          const h = readHolder(path);
          if (h && h !== 'unreadable' && sameHolder(h, mine)) unlinkSync(path);
        },
      };
      // A server of a version before this lock holds the files without a lock file.
      const others = pgliteFileHolders(join(dataDir, 'pglite'));
      if (others?.length) {
        lock.release();
        throw new DataDirInUseError(dataDir, null, `the embedded database ${join(dataDir, 'pglite')} is in use by process ${others.join(', ')}`);
      }
      return lock;
    }
    const h = readHolder(path);
    if (h === null) continue; // released meanwhile: try again
    if (h === 'unreadable') {
      // Being written this instant, or left empty by a crash before its first write.
      const age = Date.now() - safeMtime(path);
      if (age < 2_000) {
        sleepMs(50);
        continue;
      }
      throw new DataDirInUseError(dataDir, null, `the embedded database's lock ${path} cannot be read: if no server or tool runs on ${dataDir}, remove it`);
    }
    if (isAlive(h)) throw new DataDirInUseError(dataDir, h, `the embedded database ${join(dataDir, 'pglite')} is in use by ${describeHolder(h)}`);
    takeOverStale(path, h);
  }
  throw new DataDirInUseError(dataDir, null, `could not take the embedded database's lock ${path}: other processes keep taking it`);
}

/** Removes a stale lock, under the takeover file, only if it is still the same stale lock. */
function takeOverStale(path: string, stale: LockHolder) {
  const takeover = path + TAKEOVER_SUFFIX;
  const me = `${JSON.stringify({ pid: process.pid, startTime: processStartTime(process.pid), host: hostname() })}\n`;
  if (!writeExclusive(takeover, me)) {
    // Someone else is taking it over; a takeover file of a process that died mid-way is cleared.
    const t = readHolder(takeover);
    if (t !== null && (t === 'unreadable' || !isAlive({ ...t, what: '', since: '' })) && Date.now() - safeMtime(takeover) > TAKEOVER_STALE_MS) {
      try {
        unlinkSync(takeover);
      } catch {
        // gone already
      }
    } else sleepMs(20);
    return;
  }
  try {
    const now = readHolder(path);
    if (now !== null && now !== 'unreadable' && sameHolder(now, stale)) unlinkSync(path);
  } finally {
    unlinkSync(takeover);
  }
}

function safeMtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms: number) {
  Atomics.wait(sleeper, 0, 0, ms);
}
