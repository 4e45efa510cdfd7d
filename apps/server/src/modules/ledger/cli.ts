// The ledger's command-line verifier (`npm run verify-ledger`): an auditor's check of the whole
// log that trusts neither the server process nor the ledger's own tables.
//
// Against the database (default; the same DATA_DIR / DATABASE_URL the server reads):
//   1. leaves: every stored leaf's hash is SHA-256(0x00 || data), its data decodes as exactly a
//      canonical record, and the indexes run 0, 1, 2, ... without a gap;
//   2. records: every leaf is what the rows it was made from make NOW (rebuilt through
//      sources.ts, as the records call does), so a reading or event changed in the database after
//      it was logged is named: kind, device or task, minute or time;
//   3. tree: the tree rebuilt from the leaf data (streamed through a frontier appender, a page of
//      leaves in memory at a time) gives each stored checkpoint's root at its size, and every
//      subtree hash the server keeps for proofs (ledger_nodes) is the rebuilt one;
//   4. signatures: each checkpoint note verifies with the verifier key and says what its row says;
//   5. heads: every tree head saved by earlier runs (a file of signed notes) verifies, is not
//      larger than the log, has the rebuilt root at its size, and a consistency proof computed
//      from the rebuilt tree leads from it to the latest checkpoint. After a clean run the latest
//      checkpoint is appended to that file (--no-save: not).
// Remote (`--url https://host`): only what the server publishes: the latest checkpoint, the
// public key, and the server's consistency proofs from the saved heads. No database.
//
// PGlite is one process's database: a second process opening DATA_DIR/pglite while the server
// has it open would write the same files unsynchronised. The verifier takes DATA_DIR's lock
// (db/data-lock.ts) as the server does and refuses, naming the server: stop the server first, run
// against PostgreSQL, or use --url. The verifier never migrates and writes nothing to the database
// (a read-only, repeatable-read transaction: one snapshot even while a server keeps appending).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { DataDirInUseError, lockDataDir, type DataDirLock } from '../../db/data-lock.ts';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { LEDGER_API } from '@iotc/shared/ledger/api';
import { bytesEqual, fromBase64, toBase64 } from '@iotc/shared/ledger/bytes';
import { formatVerifierKey, NoteError, openCheckpoint, parseSignerKey, parseVerifierKey, splitNote, type Checkpoint, type VerifierKey } from '@iotc/shared/ledger/checkpoint';
import { decodeLeaf, encodeLeaf, sensorMinuteRecord, type LedgerRecord } from '@iotc/shared/ledger/leaf';
import {
  appendLeaf,
  consistencyPlan,
  EMPTY_FRONTIER,
  frontierRoot,
  leafHash,
  nodeKey,
  planNodes,
  resolvePlan,
  verifyConsistency,
  type Frontier,
  type Hash,
  type StoredNode,
} from '@iotc/shared/ledger/merkle';
import { loadConfig, ConfigError } from '../../config.ts';
import { rowsOf, type Db, type Executor } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';
import { allCheckpoints, leavesRange, treeSize, type LeafRow, type StoredCheckpoint } from './repo.ts';
import { currentRecords, minuteKey, readingsOfMinutes, removalsCovering } from './sources.ts';

/** Leaves read (and held) at a time. */
const PAGE = 2000;

export type CheckName = 'leaves' | 'records' | 'tree' | 'signatures' | 'heads';

export interface Failure {
  /** What failed, for machines: e.g. leaf-hash, changed, gone, root-mismatch, bad-signature, fork. */
  problem: string;
  /** One line for people. */
  message: string;
  index?: number;
  ref?: string;
  kind?: LedgerRecord['kind'];
  deviceId?: string;
  minute?: string;
  event?: string;
  subjectId?: string;
  taskCode?: string;
  alarmId?: string;
  time?: string;
  /** A checkpoint's or a saved head's tree size. */
  size?: number;
}

export interface CheckResult {
  name: CheckName;
  ok: boolean;
  /** How many things were checked (leaves, records, checkpoints, heads). */
  checked: number;
  failures: Failure[];
  note?: string;
}

export interface LedgerAudit {
  ok: boolean;
  /** 0: all good; 1: something does not verify; 2: usage error, or the check could not run. */
  exitCode: 0 | 1 | 2;
  mode: 'database' | 'remote';
  /** What was checked: the database or the server address. */
  source: string;
  origin: string | null;
  verifierKey: string | null;
  leaves: number;
  latest: { size: number; rootHash: string; signedAt: string | null } | null;
  checks: CheckResult[];
  heads: { file: string | null; saved: number; appended: boolean };
  /** Why the check could not run (exit code 2). */
  error?: string;
}

export interface VerifyOptions {
  /** DATA_DIR (default: the environment's, else ./data). */
  dataDir?: string;
  /** DATABASE_URL (default: the environment's). */
  databaseUrl?: string;
  /** An open database (tests; the server's own process). */
  db?: Db;
  /** Remote mode: the server's address. */
  url?: string;
  /** A file holding the verifier key (default: DATA_DIR/ledger/verifier.key; remote: the server's). */
  keyFile?: string;
  /** The log's expected origin (default: LEDGER_ORIGIN, else the key's name). */
  origin?: string;
  /** The saved tree heads (default: DATA_DIR/ledger/trusted-heads.txt; remote: ./trusted-heads-<host>.txt). */
  headsFile?: string;
  /** Append the latest checkpoint to the heads file after a clean run (default true). */
  save?: boolean;
  /** Remote mode's HTTP client (tests pass one over app.inject). */
  fetch?: (url: string) => Promise<{ status: number; text(): Promise<string> }>;
  env?: Record<string, string | undefined>;
}

class UsageError extends Error {}

const b64 = toBase64;

// ---- saved tree heads ----

/**
 * The signed notes of a heads file, in file order. The file is signed notes one after another,
 * a blank line between them; a note is its body lines, a blank line, and its signature lines
 * (each beginning with an em dash), so the next note starts at the first other line.
 */
export function parseHeads(text: string): string[] {
  const lines = text.split('\n');
  const notes: string[] = [];
  let i = 0;
  while (i < lines.length) {
    while (i < lines.length && lines[i] === '') i++;
    if (i >= lines.length) break;
    const body: string[] = [];
    while (i < lines.length && lines[i] !== '') body.push(lines[i++]!);
    i++;
    const sigs: string[] = [];
    while (i < lines.length && lines[i]!.startsWith('\u2014 ')) sigs.push(lines[i++]!);
    notes.push(`${body.join('\n')}\n\n${sigs.map((s) => `${s}\n`).join('')}`);
  }
  return notes;
}

function readHeads(file: string): string[] {
  return existsSync(file) ? parseHeads(readFileSync(file, 'utf8')) : [];
}

function appendHead(file: string, note: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const sep = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  writeFileSync(file, `${before}${sep}${note}`);
}

interface Head {
  note: string;
  checkpoint: Checkpoint | null;
  failure?: Failure;
}

async function openHeads(notes: readonly string[], key: VerifierKey, origin: string): Promise<Head[]> {
  const out: Head[] = [];
  for (const note of notes) {
    let size: number | undefined;
    try {
      size = Number(splitNote(note).body.split('\n')[1]);
    } catch {
      // reported below
    }
    try {
      const cp = await openCheckpoint(note, key);
      if (cp.origin !== origin) {
        out.push({ note, checkpoint: null, failure: { problem: 'other-log', size: cp.size, message: `saved head of size ${cp.size} is of the log "${cp.origin}", not "${origin}"` } });
      } else out.push({ note, checkpoint: cp });
    } catch (e) {
      if (!(e instanceof NoteError)) throw e;
      out.push({
        note,
        checkpoint: null,
        failure: { problem: 'bad-signature', size, message: `saved head${size !== undefined && Number.isFinite(size) ? ` of size ${size}` : ''} does not verify with the key: ${e.message}` },
      });
    }
  }
  return out;
}

async function openReadOnly(opts: { dataDir: string; databaseUrl?: string }): Promise<{ db: Db; source: string; close: () => Promise<void> }> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 2 });
    pool.on('error', () => undefined);
    const url = new URL(opts.databaseUrl);
    url.password = url.password ? '***' : '';
    return { db: drizzlePg(pool, { schema }) as unknown as Db, source: `PostgreSQL ${url.toString()}`, close: () => pool.end() };
  }
  const dir = join(opts.dataDir, 'pglite');
  if (!existsSync(join(dir, 'PG_VERSION'))) throw new UsageError(`no database at ${dir}: set DATA_DIR (or --data-dir) to the server's data directory, or DATABASE_URL`);
  let lock: DataDirLock;
  try {
    lock = lockDataDir(opts.dataDir, 'verify-ledger');
  } catch (e) {
    if (!(e instanceof DataDirInUseError)) throw e;
    throw new UsageError(
      `${e.message}. PGlite serves one process only: stop the server and run again, run the server on PostgreSQL (DATABASE_URL) to verify while it runs, ` +
        'or check the public tree heads with --url http://host:port.',
    );
  }
  try {
    const client = await PGlite.create(dir);
    return {
      db: drizzlePglite(client, { schema }) as unknown as Db,
      source: `PGlite ${dir}`,
      close: async () => {
        await client.close();
        lock.release();
      },
    };
  } catch (e) {
    lock.release();
    throw e;
  }
}

// ---- the verifier key ----

function keyText(opts: VerifyOptions, dataDir: string, env: Record<string, string | undefined>): Promise<string> | string {
  if (opts.keyFile) {
    if (!existsSync(opts.keyFile)) throw new UsageError(`no key file ${opts.keyFile}`);
    return readFileSync(opts.keyFile, 'utf8').trim();
  }
  const file = join(dataDir, 'ledger', 'verifier.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const signer = env['LEDGER_SIGNER_KEY']?.trim();
  if (signer) return parseSignerKey(signer).then((k) => formatVerifierKey(k.name, k.publicKey));
  throw new UsageError(`no verifier key: ${file} does not exist; give the log's public key with --key FILE`);
}

function parseKey(text: string): VerifierKey {
  try {
    return parseVerifierKey(text);
  } catch (e) {
    throw new UsageError(`the verifier key is not usable: ${(e as Error).message}`);
  }
}

// ---- the database check ----

const result = (name: CheckName, checked: number, failures: Failure[], note?: string): CheckResult => ({ name, ok: failures.length === 0, checked, failures, ...(note ? { note } : {}) });

function describeRecord(leaf: LeafRow, record: LedgerRecord | null): Omit<Failure, 'problem' | 'message'> & { what: string } {
  const base = { index: leaf.index, ref: leaf.ref, kind: leaf.kind };
  if (!record) return { ...base, what: `#${leaf.index} ${leaf.kind} ${leaf.ref}` };
  if (record.kind === 'sensor.minute') {
    return { ...base, deviceId: record.deviceId, minute: record.minute, what: `#${leaf.index} sensor.minute device ${record.deviceId} minute ${record.minute}` };
  }
  if (record.kind === 'retention.removal') {
    return { ...base, deviceId: record.deviceId, time: record.removedAt, what: `#${leaf.index} retention.removal device ${record.deviceId} stored ${record.from} - ${record.to}` };
  }
  if (record.kind === 'alarm') {
    return { ...base, event: record.event, alarmId: record.alarmId, deviceId: record.deviceId, time: record.time, what: `#${leaf.index} alarm ${record.event} alarm ${record.alarmId} device ${record.deviceId} at ${record.time}` };
  }
  const code = typeof record.fields['code'] === 'string' ? record.fields['code'] : undefined;
  const subject = record.event.startsWith('task.') ? `task ${code ?? record.subjectId}` : `warehouse record ${record.subjectId}`;
  return { ...base, event: record.event, subjectId: record.subjectId, ...(code ? { taskCode: code } : {}), time: record.time, what: `#${leaf.index} custody ${record.event} ${subject} at ${record.time}` };
}

/**
 * Checks 2 for one page of leaves: each rebuilt from the rows as they are now. A sensor minute
 * with fewer readings than logged is no failure when a logged retention removal of the same
 * device spans it (counted in `removed`); a removal leaf is a statement, with no rows behind it.
 */
async function checkRecords(q: Executor, page: readonly { leaf: LeafRow; record: LedgerRecord | null }[], failures: Failure[]): Promise<number> {
  const sensor = page.flatMap((p) => (p.record?.kind === 'sensor.minute' && p.leaf.deviceRef ? [{ deviceRef: p.leaf.deviceRef, record: p.record }] : []));
  const readings = await readingsOfMinutes(
    q,
    sensor.map((p) => ({ deviceRef: p.deviceRef, minute: p.record.minute })),
  );
  const removals = await removalsCovering(q, sensor, readings);
  const current = await currentRecords(
    q,
    page.filter((p) => p.record && p.record.kind !== 'sensor.minute' && p.record.kind !== 'retention.removal').map((p) => p.leaf.ref),
  );
  let removed = 0;
  for (const { leaf, record } of page) {
    if (!record || record.kind === 'retention.removal') continue; // reported by the leaves check; a statement
    const d = describeRecord(leaf, record);
    const { what, ...where } = d;
    let now: Uint8Array | null = null;
    let detail = '';
    if (record.kind === 'sensor.minute') {
      const m = leaf.deviceRef ? readings.get(minuteKey(leaf.deviceRef, record.minute)) : undefined;
      if (leaf.deviceRef && removals.has(minuteKey(leaf.deviceRef, record.minute))) {
        removed++;
        continue;
      }
      if (!m) {
        failures.push({ problem: 'gone', ...where, message: `${what}: its ${record.count} reading(s) are no longer stored` });
        continue;
      }
      try {
        now = encodeLeaf(sensorMinuteRecord(record.orgId, record.deviceId, record.minute, m.readings));
      } catch {
        now = null;
      }
      detail =
        m.readings.length === record.count
          ? `the stored readings differ from the ${record.count} logged`
          : `${record.count} reading(s) logged, ${m.readings.length} stored now`;
    } else {
      const rebuilt = current.get(leaf.ref);
      if (!rebuilt) {
        failures.push({ problem: 'gone', ...where, message: `${what}: the row it was made from is gone (or no longer makes this record)` });
        continue;
      }
      now = encodeLeaf(rebuilt);
      detail = 'the row it was made from has changed';
    }
    if (!now || !bytesEqual(now, leaf.data)) failures.push({ problem: 'changed', ...where, message: `${what}: ${detail}` });
  }
  return removed;
}

async function auditDatabase(q: Executor, key: VerifierKey, origin: string, heads: readonly string[]) {
  const size = await treeSize(q);
  const checkpoints: StoredCheckpoint[] = await allCheckpoints(q);
  const latest = checkpoints.at(-1) ?? null;
  const leafFailures: Failure[] = [];
  const recordFailures: Failure[] = [];
  const treeFailures: Failure[] = [];
  const sigFailures: Failure[] = [];
  const headFailures: Failure[] = [];

  // 4: signatures, and that each note says what its row says.
  const signed = new Map<number, Checkpoint>();
  for (const cp of checkpoints) {
    try {
      const c = await openCheckpoint(cp.note, key);
      if (c.origin !== origin) sigFailures.push({ problem: 'other-log', size: cp.size, message: `checkpoint ${cp.size}: signed for the log "${c.origin}", not "${origin}"` });
      else if (c.size !== cp.size || !bytesEqual(c.rootHash, cp.rootHash)) {
        sigFailures.push({ problem: 'note-differs', size: cp.size, message: `checkpoint ${cp.size}: the signed note says size ${c.size} root ${b64(c.rootHash)}, the row size ${cp.size} root ${b64(cp.rootHash)}` });
      } else signed.set(cp.size, c);
    } catch (e) {
      if (!(e instanceof NoteError)) throw e;
      sigFailures.push({ problem: 'bad-signature', size: cp.size, message: `checkpoint ${cp.size} (signed ${cp.signedAt}): the note does not verify: ${e.message}` });
    }
  }

  const opened = await openHeads(heads, key, origin);
  for (const h of opened) if (h.failure) headFailures.push(h.failure);

  // The roots wanted (checkpoints, heads) and the subtrees consistency proofs to the latest need.
  const rootsWanted = new Set<number>([...checkpoints.map((c) => c.size), ...opened.flatMap((h) => (h.checkpoint ? [h.checkpoint.size] : []))]);
  const roots = new Map<number, Hash>();
  const proofNodes = new Map<string, Hash>();
  const wantedNodes = new Set<string>();
  const plans = new Map<number, ReturnType<typeof consistencyPlan>>();
  if (latest) {
    for (const m of rootsWanted) {
      if (m > 0 && m < latest.size && m <= size) {
        const plan = consistencyPlan(m, latest.size);
        plans.set(m, plan);
        for (const n of planNodes(plan)) wantedNodes.add(nodeKey(n.level, n.index));
      }
    }
  }
  if (rootsWanted.has(0)) roots.set(0, frontierRoot(EMPTY_FRONTIER));

  // 1-3: the leaves, page by page.
  let frontier: Frontier = EMPTY_FRONTIER;
  const counts = { 'sensor.minute': 0, custody: 0, alarm: 0, 'retention.removal': 0 };
  let removedMinutes = 0;
  let nodesChecked = 0;
  for (let from = 0; from < size; from += PAGE) {
    const rows = await leavesRange(q, from, Math.min(size, from + PAGE));
    const page: { leaf: LeafRow; record: LedgerRecord | null }[] = [];
    const completed: StoredNode[] = [];
    let expected = from;
    for (const leaf of rows) {
      while (expected < leaf.index) {
        leafFailures.push({ problem: 'missing-leaf', index: expected, message: `#${expected}: no leaf with this index` });
        expected++;
      }
      expected = leaf.index + 1;
      const hash = leafHash(leaf.data);
      let record: LedgerRecord | null = null;
      try {
        record = decodeLeaf(leaf.data);
      } catch (e) {
        leafFailures.push({ problem: 'encoding', index: leaf.index, ref: leaf.ref, kind: leaf.kind, message: `#${leaf.index} ${leaf.ref}: ${(e as Error).message}` });
      }
      if (record && (record.kind !== leaf.kind || record.orgId !== leaf.orgId)) {
        leafFailures.push({ problem: 'columns', index: leaf.index, ref: leaf.ref, kind: leaf.kind, message: `#${leaf.index} ${leaf.ref}: the row's kind or organisation differs from the record's` });
      }
      if (!bytesEqual(hash, leaf.leafHash)) {
        const { what, ...where } = describeRecord(leaf, record);
        leafFailures.push({ problem: 'leaf-hash', ...where, message: `${what}: the stored leaf hash is not SHA-256(0x00 || data)` });
      }
      if (record) counts[record.kind]++;
      page.push({ leaf, record });
      // The tree commits to the data: the recomputed hash goes in, whatever the column says.
      const next = appendLeaf(frontier, hash);
      frontier = next.frontier;
      completed.push(...next.completed);
      for (const n of next.completed) {
        const k = nodeKey(n.level, n.index);
        if (wantedNodes.has(k)) proofNodes.set(k, n.hash);
      }
      if (rootsWanted.has(frontier.size)) roots.set(frontier.size, frontierRoot(frontier));
    }
    while (expected < Math.min(size, from + PAGE)) {
      leafFailures.push({ problem: 'missing-leaf', index: expected, message: `#${expected}: no leaf with this index` });
      expected++;
    }
    // The subtrees the server keeps for proofs must be the rebuilt ones.
    const stored = await storedNodes(q, completed);
    for (const n of completed) {
      nodesChecked++;
      const s = stored.get(nodeKey(n.level, n.index));
      if (!s || !bytesEqual(s, n.hash)) {
        treeFailures.push({ problem: s ? 'node-mismatch' : 'node-missing', message: `stored subtree ${n.level}/${n.index} (leaves ${n.index * 2 ** n.level}-${(n.index + 1) * 2 ** n.level - 1}) ${s ? 'differs from the rebuilt one' : 'is missing'}` });
      }
    }
    removedMinutes += await checkRecords(q, page, recordFailures);
  }

  // 3: each checkpoint's root; the first bad one brackets where the change is.
  let lastGood = 0;
  for (const cp of checkpoints) {
    const root = roots.get(cp.size);
    if (cp.size > size) treeFailures.push({ problem: 'beyond-log', size: cp.size, message: `checkpoint ${cp.size}: larger than the log (${size} leaves)` });
    else if (!root || !bytesEqual(root, cp.rootHash)) {
      treeFailures.push({ problem: 'root-mismatch', size: cp.size, message: `checkpoint ${cp.size} (signed ${cp.signedAt}): the rebuilt tree's root is ${root ? b64(root) : '?'}, the checkpoint's ${b64(cp.rootHash)}; the change lies in leaves ${lastGood}-${cp.size - 1}` });
    } else lastGood = cp.size;
  }
  // Each checkpoint consistent with the latest, by proofs from the rebuilt tree.
  const proofReader = (level: number, index: number) => {
    const h = proofNodes.get(nodeKey(level, index));
    if (!h) throw new Error(`subtree ${level}/${index} was not rebuilt`);
    return h;
  };
  const latestRoot = latest ? roots.get(latest.size) : undefined;
  if (latest && latestRoot) {
    for (const cp of checkpoints) {
      const plan = plans.get(cp.size);
      if (!plan) continue;
      const proof = resolvePlan(plan, proofReader);
      if (!verifyConsistency(cp.size, latest.size, cp.rootHash, latest.rootHash, proof)) {
        treeFailures.push({ problem: 'inconsistent', size: cp.size, message: `checkpoint ${cp.size}: not consistent with the latest checkpoint ${latest.size}` });
      }
    }
  }

  // 5: the saved heads.
  for (const h of opened) {
    const c = h.checkpoint;
    if (!c) continue;
    headFailures.push(...checkHead(c, latest, size, (m) => roots.get(m), (m) => (plans.get(m) ? resolvePlan(plans.get(m)!, proofReader) : null)));
  }

  const total = counts['sensor.minute'] + counts.custody + counts.alarm + counts['retention.removal'];
  const pending = latest ? Math.max(0, size - latest.size) : size;
  return {
    size,
    latest,
    checks: [
      result('leaves', size, leafFailures),
      result(
        'records',
        total,
        recordFailures,
        `${counts['sensor.minute']} sensor minutes, ${counts.custody} custody events, ${counts.alarm} alarm events` +
          (counts['retention.removal'] ? `, ${counts['retention.removal']} retention removals (the readings of ${removedMinutes} sensor minutes removed under them)` : ''),
      ),
      result('tree', checkpoints.length, treeFailures, `${nodesChecked} stored subtrees compared${pending ? `; ${pending} leaves after the latest checkpoint (not signed yet)` : ''}`),
      result('signatures', checkpoints.length, sigFailures),
      result('heads', heads.length, headFailures),
    ],
  };
}

/** One saved head against the latest checkpoint: not larger, same root at its size, consistent. */
function checkHead(
  c: Checkpoint,
  latest: { size: number; rootHash: Hash } | null,
  logSize: number,
  rootAt: (m: number) => Hash | undefined,
  proofFrom: (m: number) => Hash[] | null,
): Failure[] {
  const at = `saved head of size ${c.size} (root ${b64(c.rootHash)})`;
  if (!latest) return [{ problem: 'rollback', size: c.size, message: `${at}: the log has no checkpoint now` }];
  if (c.size > latest.size) return [{ problem: 'rollback', size: c.size, message: `${at}: larger than the latest checkpoint (${latest.size}); the log was rolled back or forked` }];
  const root = c.size <= logSize ? rootAt(c.size) : undefined;
  if (root && !bytesEqual(root, c.rootHash)) return [{ problem: 'fork', size: c.size, message: `${at}: the log's root at that size is ${b64(root)}; it is not the log seen before (forked or rewritten)` }];
  if (c.size === latest.size) {
    return bytesEqual(c.rootHash, latest.rootHash) ? [] : [{ problem: 'fork', size: c.size, message: `${at}: the latest checkpoint of the same size has another root` }];
  }
  const proof = proofFrom(c.size);
  if (!proof || !verifyConsistency(c.size, latest.size, c.rootHash, latest.rootHash, proof)) {
    return [{ problem: 'inconsistent', size: c.size, message: `${at}: no valid consistency proof to the latest checkpoint ${latest.size}` }];
  }
  return [];
}

async function storedNodes(q: Executor, nodes: readonly StoredNode[]): Promise<Map<string, Hash>> {
  const out = new Map<string, Hash>();
  if (nodes.length === 0) return out;
  const rows = rowsOf<{ level: number; idx: string; hash: string }>(
    await q.execute(sql`select n.level, n.idx::text as idx, encode(n.hash, 'hex') as hash
      from unnest(${`{${nodes.map((n) => n.level).join(',')}}`}::smallint[], ${`{${nodes.map((n) => n.index).join(',')}}`}::bigint[]) as u(l, i)
      join ledger_nodes n on n.level = u.l and n.idx = u.i`),
  );
  for (const r of rows) out.set(nodeKey(Number(r.level), Number(r.idx)), Uint8Array.from(Buffer.from(r.hash, 'hex')));
  return out;
}

// ---- remote ----

async function auditRemote(opts: VerifyOptions, base: string, heads: readonly string[]) {
  const get = opts.fetch ?? ((u: string) => fetch(u));
  const text = async (path: string) => {
    const res = await get(`${base}${path}`);
    if (res.status !== 200) throw new UsageError(`${base}${path} answered ${res.status}`);
    return res.text();
  };
  const served = (await text(LEDGER_API.publicKey)).trim();
  const pinned = opts.keyFile ? keyText(opts, '', {}) : undefined;
  const keyString = pinned ? await pinned : served;
  const key = parseKey(keyString);
  const sigFailures: Failure[] = [];
  if (pinned && (await pinned) !== served) sigFailures.push({ problem: 'other-key', message: `the server publishes the key ${served}, not the one given (${await pinned})` });
  const origin = opts.origin ?? key.name;
  const note = await text(LEDGER_API.checkpoint);
  let latest: Checkpoint | null = null;
  try {
    latest = await openCheckpoint(note, key, origin);
  } catch (e) {
    if (!(e instanceof NoteError)) throw e;
    sigFailures.push({ problem: 'bad-signature', message: `the latest checkpoint does not verify: ${e.message}` });
  }
  const opened = await openHeads(heads, key, origin);
  const headFailures: Failure[] = opened.flatMap((h) => (h.failure ? [h.failure] : []));
  const proofs = new Map<number, Hash[] | null>();
  if (latest) {
    for (const h of opened) {
      const c = h.checkpoint;
      if (!c || c.size >= latest.size || c.size === 0 || proofs.has(c.size)) continue;
      const res = await get(`${base}${LEDGER_API.consistency}?from=${c.size}&to=${latest.size}`);
      let proof: Hash[] | null = null;
      if (res.status === 200) {
        try {
          proof = ((JSON.parse(await res.text()) as { data: { proof: string[] } }).data.proof ?? []).map(fromBase64);
        } catch {
          proof = null;
        }
      }
      proofs.set(c.size, proof);
    }
    for (const h of opened) {
      if (h.checkpoint) headFailures.push(...checkHead(h.checkpoint, latest, latest.size, () => undefined, (m) => proofs.get(m) ?? null));
    }
  }
  return {
    key: keyString,
    origin,
    note,
    latest,
    checks: [result('signatures', 1, sigFailures, pinned ? 'key given' : 'key as the server publishes it (pin it with --key)'), result('heads', heads.length, headFailures)],
  };
}

// ---- the whole run ----

/** Runs the checks; never throws for a failed check or a usage error (see exitCode). */
export async function verifyLedger(opts: VerifyOptions = {}): Promise<LedgerAudit> {
  const env = opts.env ?? process.env;
  const audit: LedgerAudit = {
    ok: false,
    exitCode: 2,
    mode: opts.url ? 'remote' : 'database',
    source: '',
    origin: null,
    verifierKey: null,
    leaves: 0,
    latest: null,
    checks: [],
    heads: { file: null, saved: 0, appended: false },
  };
  let close: (() => Promise<void>) | undefined;
  try {
    let dataDir: string;
    let databaseUrl: string | undefined;
    let envOrigin: string | undefined;
    try {
      const config = loadConfig({ ...env, ...(opts.dataDir ? { DATA_DIR: opts.dataDir } : {}), ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}) });
      dataDir = config.dataDir;
      databaseUrl = config.databaseUrl;
      envOrigin = config.ledgerOrigin;
    } catch (e) {
      if (e instanceof ConfigError) throw new UsageError(e.message);
      throw e;
    }

    if (opts.url) {
      let base: URL;
      try {
        base = new URL(opts.url);
      } catch {
        throw new UsageError(`--url ${opts.url} is not an address`);
      }
      if (!['http:', 'https:'].includes(base.protocol)) throw new UsageError('--url must start with http:// or https://');
      const root = base.toString().replace(/\/$/, '');
      audit.source = root;
      const headsFile = opts.headsFile ?? `trusted-heads-${base.host.replace(/[^A-Za-z0-9.-]/g, '_')}.txt`;
      audit.heads.file = headsFile;
      const heads = readHeads(headsFile);
      audit.heads.saved = heads.length;
      const r = await auditRemote({ ...opts, origin: opts.origin ?? envOrigin }, root, heads);
      audit.verifierKey = r.key;
      audit.origin = r.origin;
      audit.checks = r.checks;
      audit.latest = r.latest ? { size: r.latest.size, rootHash: b64(r.latest.rootHash), signedAt: null } : null;
      audit.leaves = r.latest?.size ?? 0;
      finish(audit);
      if (audit.ok && r.latest && opts.save !== false) audit.heads.appended = saveLatest(headsFile, heads, r.note, r.latest);
      return audit;
    }

    const key = parseKey(await keyText(opts, dataDir, env));
    const origin = opts.origin ?? envOrigin ?? key.name;
    audit.verifierKey = formatVerifierKey(key.name, key.publicKey);
    audit.origin = origin;
    const headsFile = opts.headsFile ?? join(dataDir, 'ledger', 'trusted-heads.txt');
    audit.heads.file = headsFile;
    const heads = readHeads(headsFile);
    audit.heads.saved = heads.length;

    let db = opts.db;
    if (db) audit.source = 'the open database';
    else {
      audit.source = databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite ${join(dataDir, 'pglite')}`;
      const opened = await openReadOnly({ dataDir, databaseUrl });
      db = opened.db;
      close = opened.close;
      audit.source = opened.source;
    }
    const present = rowsOf<{ t: string | null }>(await db.execute(sql`select to_regclass('ledger_checkpoints')::text as t`))[0]?.t;
    if (!present) throw new UsageError(`${audit.source} has no ledger tables: start the server on it once first`);
    const r = await db.transaction((tx) => auditDatabase(tx, key, origin, heads), { isolationLevel: 'repeatable read', accessMode: 'read only' });
    audit.leaves = r.size;
    audit.checks = r.checks;
    audit.latest = r.latest ? { size: r.latest.size, rootHash: b64(r.latest.rootHash), signedAt: r.latest.signedAt } : null;
    finish(audit);
    if (audit.ok && r.latest && opts.save !== false) {
      audit.heads.appended = saveLatest(headsFile, heads, r.latest.note, { size: r.latest.size, rootHash: r.latest.rootHash });
    }
    return audit;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    audit.error = e.message;
    audit.exitCode = 2;
    audit.ok = false;
    return audit;
  } finally {
    await close?.();
  }
}

function finish(audit: LedgerAudit) {
  audit.ok = audit.checks.every((c) => c.ok);
  audit.exitCode = audit.ok ? 0 : 1;
}

/** Appends the latest head unless the file already holds one of that size and root. */
function saveLatest(file: string, heads: readonly string[], note: string, latest: { size: number; rootHash: Hash }): boolean {
  const known = heads.some((h) => {
    try {
      const lines = splitNote(h).body.split('\n');
      return Number(lines[1]) === latest.size && lines[2] === b64(latest.rootHash);
    } catch {
      return false;
    }
  });
  if (known) return false;
  appendHead(file, note);
  return true;
}

// ---- output ----

const LABELS: Record<CheckName, string> = {
  leaves: 'leaf hashes and canonical encoding',
  records: 'records match the rows stored now',
  tree: 'tree rebuilt from the leaves matches every checkpoint and stored subtree',
  signatures: 'checkpoint signatures',
  heads: 'consistency with the saved tree heads',
};

/** The human summary. */
export function formatAudit(a: LedgerAudit): string {
  const out: string[] = [`Ledger verification (${a.mode === 'remote' ? 'public tree heads of' : 'database'} ${a.source})`];
  if (a.error) {
    out.push(`ERROR  ${a.error}`);
    return `${out.join('\n')}\n`;
  }
  out.push(`  origin: ${a.origin}`, `  key:    ${a.verifierKey}`);
  out.push(a.latest ? `  latest checkpoint: size ${a.latest.size}, root ${a.latest.rootHash}${a.latest.signedAt ? `, signed ${a.latest.signedAt}` : ''}` : '  latest checkpoint: none yet');
  if (a.mode === 'database') out.push(`  leaves: ${a.leaves}`);
  out.push('');
  for (const c of a.checks) {
    const counted = c.name === 'heads' ? `${c.checked} saved` : c.name === 'leaves' || c.name === 'records' ? `${c.checked}` : `${c.checked} checkpoint(s)`;
    out.push(`${c.ok ? 'OK    ' : 'FAILED'} ${LABELS[c.name]} (${counted}${c.note ? `; ${c.note}` : ''})`);
    const shown = c.failures.slice(0, 200);
    for (const f of shown) out.push(`         ${f.message}`);
    if (c.failures.length > shown.length) out.push(`         ... and ${c.failures.length - shown.length} more (--json lists all)`);
  }
  out.push('');
  if (a.heads.file) out.push(a.heads.appended ? `Saved the latest tree head to ${a.heads.file}` : `Tree heads file: ${a.heads.file}${a.ok ? ' (latest already saved, or --no-save)' : ' (not updated: the check failed)'}`);
  const bad = a.checks.reduce((n, c) => n + c.failures.length, 0);
  out.push(a.ok ? 'RESULT: OK' : `RESULT: FAILED (${bad} problem${bad === 1 ? '' : 's'})`);
  return `${out.join('\n')}\n`;
}

const USAGE = `Usage: npm run verify-ledger -- [options]

Checks the ledger in the server's database (DATA_DIR / DATABASE_URL as the server reads them),
or with --url only what a server publishes.

Options:
  --data-dir DIR       the server's DATA_DIR (default: $DATA_DIR, else ./data)
  --database-url URL   PostgreSQL (default: $DATABASE_URL); else PGlite under DATA_DIR,
                       which must not be open in a running server
  --url URL            remote mode: check the server's public checkpoint, key and consistency proofs
  --key FILE           the verifier key (default: DATA_DIR/ledger/verifier.key; remote: the server's)
  --origin NAME        the log's origin (default: $LEDGER_ORIGIN, else the key's name)
  --heads FILE         saved tree heads (default: DATA_DIR/ledger/trusted-heads.txt;
                       remote: ./trusted-heads-<host>.txt)
  --no-save            do not append the latest checkpoint to the heads file
  --json               print the result as JSON
  -h, --help           this text

Exit code: 0 all verified, 1 something does not verify, 2 usage error or the check could not run.
`;

/** The bin: parses the arguments, runs, prints; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: {
        'data-dir': { type: 'string' },
        'database-url': { type: 'string' },
        url: { type: 'string' },
        key: { type: 'string' },
        origin: { type: 'string' },
        heads: { type: 'string' },
        'no-save': { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const audit = await verifyLedger({
    dataDir: values['data-dir'],
    databaseUrl: values['database-url'],
    url: values.url,
    keyFile: values.key,
    origin: values.origin,
    headsFile: values.heads,
    save: !values['no-save'],
  });
  process.stdout.write(values.json ? `${JSON.stringify(audit, null, 2)}\n` : formatAudit(audit));
  return audit.exitCode;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
