// The ledger (issue 9; DESIGN.md "Ledger (traceability) interface"): the feeder that appends
// what sources.ts reads, in index order, one node at a time; signed tree heads at an interval;
// proofs; the records of a task, a device range, a warehouse batch or one warehouse record with
// everything a browser needs to check them; and share links that publish one such scope
// (shares.ts).
//
// Appending: one transaction per batch holds the ledger's advisory lock, re-reads the tree's size
// and right edge from the database (so whichever node holds the lock continues the same tree),
// and writes the leaves, every subtree they complete (ledger_nodes) and the watermarks together.
// The unique ref makes logging a record twice impossible, whatever the watermarks say.
import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  MAX_RECORDS_PAGE,
  type ConsistencyProof,
  type InclusionProof,
  type LeafAnswer,
  type LedgerItem,
  type LedgerScope,
  type RecordsAnswer,
  type RecordsQuery,
  type ShareSubject,
} from '@iotc/shared/ledger/api';
import { toBase64 } from '@iotc/shared/ledger/bytes';
import { formatCheckpoint, signNote } from '@iotc/shared/ledger/checkpoint';
import { decodeLeaf, encodeLeaf, LeafError } from '@iotc/shared/ledger/leaf';
import {
  appendLeaf,
  consistencyPlan,
  frontierFromReader,
  inclusionPlan,
  leafHash,
  planNodes,
  rangeNodes,
  resolvePlan,
  rootFromReader,
  type NodeId,
  type ProofPlan,
  type StoredNode,
} from '@iotc/shared/ledger/merkle';
import type { Permission } from '@iotc/shared/platform';
import { LOCKS, type Db } from '../../db/client.ts';
import { leases, type Lease } from '../../db/lease.ts';
import { uuidList } from '../../db/list.ts';
import { devices, orgs, transportTaskDevices, transportTasks, warehouseRecords } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { AuditWriter } from '../audit/repo.ts';
import type { Caller } from '../../lib/caller.ts';
import { loadSigner, type Signer } from './keys.ts';
import { SHARE_PERMISSION, scopeKind, scopeOf, shareService } from './shares.ts';
import {
  insertCheckpoint,
  insertLeaves,
  existingRefs,
  getWatermark,
  latestCheckpoint,
  leafAt,
  leavesWhere,
  readNodes,
  setWatermark,
  treeSize,
  type LeafRow,
  type NewLeaf,
  type StoredCheckpoint,
} from './repo.ts';
import {
  currentRecords,
  markRemovalsLogged,
  minuteKey,
  nextAlarmEvents,
  nextRetentionRemovals,
  removalsCovering,
  nextSensorMinutes,
  nextTaskEvents,
  nextWarehouseRecords,
  nextSignatures,
  readingsOfMinutes,
  SENSOR_START,
  sensorCandidate,
  type Candidate,
  type SensorCursor,
} from './sources.ts';

export interface LedgerOptions {
  log: FastifyBaseLogger;
  /** Where signer.key lives (DATA_DIR); empty: a key for this process only. */
  dataDir?: string;
  /** LEDGER_ORIGIN. */
  origin?: string;
  /** LEDGER_SIGNER_KEY. */
  signerKey?: string;
  /** The audit log's recorder (share links made and revoked). */
  audit?: AuditWriter;
  /** PUBLIC_URL, for absolute share links. */
  publicUrl?: string;
  now?: () => Date;
  /** A stored minute is logged this long after it ends. */
  graceMs?: number;
  /** Most records of each source one batch reads. */
  batchSize?: number;
  /** The node's leases (the jobs plugin's): appending runs on one node at a time. */
  lease?: Lease;
}

/** An id the feeder has not seen yet after this long is taken for a rolled-back insert and passed. */
const GAP_MS = 5 * 60_000;
/** Batches of one tick at most (the next tick carries on). */
const MAX_BATCHES = 20;
const EPOCH = '1970-01-01T00:00:00.000Z';

/** What a records call or a share covers; stored as is in ledger_shares.scope. */
type Scope = LedgerScope;

/** Goods names a batch subject lists (a batch usually holds one or two). */
const BATCH_GOODS = 5;

const b64 = toBase64;

export function ledgerService(db: Db, opts: LedgerOptions) {
  const now = opts.now ?? (() => new Date());
  const lease = opts.lease ?? leases(db);
  const graceMs = opts.graceMs ?? 30_000;
  const batchSize = opts.batchSize ?? 500;
  let signerPromise: Promise<Signer> | undefined;
  const signer = () => (signerPromise ??= loadSigner({ dataDir: opts.dataDir || undefined, signerKey: opts.signerKey, origin: opts.origin }));
  /** Per id-ordered source: where an unseen id was first met, and when. */
  const gaps = new Map<string, { at: number; since: number }>();
  let feeding: Promise<number> | null = null;
  let signing: Promise<StoredCheckpoint | null> | null = null;

  /** The highest id up to which every id has been seen (or given up on, see GAP_MS). */
  function advance(source: string, from: number, ids: readonly number[]): number {
    let next = from;
    for (const id of ids) {
      if (id <= next) continue;
      if (id === next + 1) {
        next = id;
        continue;
      }
      const gap = gaps.get(source);
      const t = now().getTime();
      if (gap && gap.at === next) {
        if (t - gap.since < GAP_MS) break;
        gaps.delete(source);
        next = id;
        continue;
      }
      gaps.set(source, { at: next, since: t });
      break;
    }
    return next;
  }

  async function batch(): Promise<{ appended: number; progressed: boolean }> {
    return lease('ledger', async (tx) => {
      const marks: [string, string][] = [];
      const candidates: Candidate[] = [];

      const sensorMark = await getWatermark(tx, 'sensor');
      const cursor: SensorCursor = sensorMark ? (JSON.parse(sensorMark) as SensorCursor) : SENSOR_START;
      const closeBefore = new Date(Math.floor((now().getTime() - graceMs) / 60_000) * 60_000);
      const sensor = await nextSensorMinutes(tx, cursor, closeBefore, batchSize);
      const readings = await readingsOfMinutes(tx, sensor.keys);
      for (const key of sensor.keys) {
        const m = readings.get(`${key.deviceRef}|${key.minute}`);
        if (m) candidates.push(sensorCandidate(key, m));
      }
      if (JSON.stringify(sensor.cursor) !== JSON.stringify(cursor)) marks.push(['sensor', JSON.stringify(sensor.cursor)]);

      for (const [source, read] of [
        ['task-events', nextTaskEvents],
        ['alarm-events', nextAlarmEvents],
      ] as const) {
        const from = Number((await getWatermark(tx, source)) ?? 0);
        const got = await read(tx, from, batchSize);
        candidates.push(...got.candidates);
        const to = advance(source, from, got.ids);
        if (to !== from) marks.push([source, String(to)]);
      }

      // Retention removals: their rows are the queue (ledger_index null until logged).
      candidates.push(...(await nextRetentionRemovals(tx, batchSize)));

      const since = (await getWatermark(tx, 'warehouse')) ?? EPOCH;
      const approved = await nextWarehouseRecords(tx, since, batchSize);
      candidates.push(...approved.candidates);
      if (approved.last && approved.last > since) marks.push(['warehouse', approved.last]);

      const signedSince = (await getWatermark(tx, 'signatures')) ?? EPOCH;
      const signed = await nextSignatures(tx, signedSince, batchSize);
      candidates.push(...signed.candidates);
      if (signed.last && signed.last > signedSince) marks.push(['signatures', signed.last]);

      const logged = await existingRefs(tx, candidates.map((c) => c.ref));
      const size = await treeSize(tx);
      let frontier = frontierFromReader(size, await readNodes(tx, rangeNodes(0, size)));
      const leaves: NewLeaf[] = [];
      const nodes: StoredNode[] = [];
      for (const c of candidates) {
        if (logged.has(c.ref)) continue;
        logged.add(c.ref);
        let data: Uint8Array;
        try {
          data = encodeLeaf(c.record);
        } catch (err) {
          if (!(err instanceof LeafError)) throw err;
          opts.log.warn({ err, ref: c.ref }, 'ledger: record left out, it is not a valid leaf');
          continue;
        }
        const hash = leafHash(data);
        leaves.push({ idx: frontier.size, candidate: c, data, leafHash: hash });
        const next = appendLeaf(frontier, hash);
        frontier = next.frontier;
        nodes.push(...next.completed);
      }
      await insertLeaves(tx, leaves, nodes);
      if (leaves.some((l) => l.candidate.kind === 'retention.removal')) await markRemovalsLogged(tx);
      for (const [source, value] of marks) await setWatermark(tx, source, value);
      return { appended: leaves.length, progressed: leaves.length > 0 || marks.length > 0 };
    }, { appended: 0, progressed: false });
  }

  async function feed(): Promise<number> {
    let total = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const r = await batch();
      total += r.appended;
      if (!r.progressed) break;
    }
    return total;
  }

  async function sign(): Promise<StoredCheckpoint | null> {
    const key = await signer();
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCKS.ledger}, 0)`);
      const size = await treeSize(tx);
      const last = await latestCheckpoint(tx);
      if (size === 0 || (last && last.size >= size)) return null;
      const rootHash = rootFromReader(size, await readNodes(tx, rangeNodes(0, size)));
      const note = await signNote(formatCheckpoint({ origin: key.origin, size, rootHash }), key.name, key.seed);
      await insertCheckpoint(tx, size, rootHash, note);
      return { size, rootHash, note, signedAt: now().toISOString() };
    });
  }

  async function requireCheckpoint(): Promise<StoredCheckpoint> {
    const cp = await latestCheckpoint(db);
    if (!cp) throw new AppError(404, 'LEDGER_NO_CHECKPOINT');
    return cp;
  }

  async function requireSize(size: number): Promise<void> {
    const current = await treeSize(db);
    if (size > current) throw new AppError(400, 'LEDGER_SIZE_TOO_LARGE', `${size} > ${current}`);
  }

  // ---- scopes: what a records call or a share covers ----

  async function need(caller: Caller, permission: Permission) {
    if (!caller.permissions.includes(permission)) throw new AppError(403, 'NO_PERMISSION');
  }

  const permissionOf = (scope: Scope): Permission => SHARE_PERMISSION[scopeKind(scope)];

  /**
   * The leaves of a scope inside the organisations `tree`, what it publishes about its subject,
   * and the organisation whose tree a share of it opens; 404 when its subject is not there.
   */
  async function resolve(scope: Scope, tree: readonly string[]): Promise<{ where: SQL; subject: ShareSubject; orgId: string }> {
    const orgs = sql`org_id = any(${uuidList(tree)})`;
    if ('taskId' in scope) {
      const [task] = await db.select().from(transportTasks).where(eq(transportTasks.id, scope.taskId));
      if (!task || !tree.includes(task.orgId)) throw new AppError(404, 'NOT_FOUND');
      const refs = (await db.select({ ref: transportTaskDevices.deviceRef }).from(transportTaskDevices).where(eq(transportTaskDevices.taskId, task.id))).map((r) => r.ref);
      let where = sql`task_id = ${task.id}`;
      if (task.startedAt && refs.length) {
        const start = new Date(Math.floor(task.startedAt.getTime() / 60_000) * 60_000).toISOString();
        const end = (task.completedAt ?? task.cancelledAt ?? now()).toISOString();
        where = sql`(${where} or (kind = 'sensor.minute' and device_ref = any(${uuidList(refs)}) and at >= ${start}::timestamptz and at < ${end}::timestamptz))`;
      }
      return {
        where: sql`${where} and ${orgs}`,
        subject: { kind: 'task', code: task.code, goodsName: task.goodsName, origin: task.originName, destination: task.destinationName },
        orgId: task.orgId,
      };
    }
    if ('deviceId' in scope) {
      const [device] = await db.select().from(devices).where(eq(devices.id, scope.deviceId));
      if (!device || !tree.includes(device.orgId)) throw new AppError(404, 'NOT_FOUND');
      return {
        where: sql`device_ref = ${device.id} and at >= ${scope.from}::timestamptz and at < ${scope.to}::timestamptz and ${orgs}`,
        subject: { kind: 'device', deviceId: device.deviceId, name: device.name, from: new Date(scope.from).toISOString(), to: new Date(scope.to).toISOString() },
        orgId: device.orgId,
      };
    }
    if ('warehouseBatch' in scope) {
      // A batch may span organisations of the tree: a share of it opens the same tree (its root).
      const ofBatch = and(sql`${warehouseRecords.orgId} = any(${uuidList(tree)})`, eq(warehouseRecords.batchNo, scope.warehouseBatch));
      const [found] = await db.select({ id: warehouseRecords.id }).from(warehouseRecords).where(ofBatch).limit(1);
      if (!found) throw new AppError(404, 'NOT_FOUND');
      // Only approved records are logged.
      const approved = and(ofBatch, eq(warehouseRecords.auditStatus, 'approved'));
      const [n] = await db.select({ n: count() }).from(warehouseRecords).where(approved);
      const goods = await db.selectDistinct({ name: warehouseRecords.goodsName }).from(warehouseRecords).where(approved).orderBy(warehouseRecords.goodsName).limit(BATCH_GOODS);
      return {
        where: sql`warehouse_record_id = any(select w.id from warehouse_records w
          where w.org_id = any(${uuidList(tree)}) and w.batch_no = ${scope.warehouseBatch} and w.audit_status = 'approved') and ${orgs}`,
        subject: { kind: 'batch', batchNo: scope.warehouseBatch, records: Number(n?.n ?? 0), goods: goods.map((g) => g.name) },
        orgId: tree[0]!,
      };
    }
    const [record] = await db.select().from(warehouseRecords).where(eq(warehouseRecords.id, scope.warehouseRecordId));
    if (!record || !tree.includes(record.orgId)) throw new AppError(404, 'NOT_FOUND');
    return {
      where: sql`warehouse_record_id = ${record.id} and ${orgs}`,
      subject: { kind: 'warehouseRecord', batchNo: record.batchNo, goodsName: record.goodsName, warehouse: record.warehouseName, direction: record.direction, time: record.time.toISOString() },
      orgId: record.orgId,
    };
  }

  /** One page of leaves with their proofs to the latest checkpoint and the rows as stored now. */
  async function page(where: SQL, after: number | undefined): Promise<RecordsAnswer> {
    const key = await signer();
    const rows = await leavesWhere(db, where, after ?? -1, MAX_RECORDS_PAGE + 1);
    const more = rows.length > MAX_RECORDS_PAGE;
    const leaves = rows.slice(0, MAX_RECORDS_PAGE);
    const cp = await latestCheckpoint(db);
    const records = leaves.map((l) => decodeLeaf(l.data));
    // Proofs: every node of every plan, fetched at once.
    const plans = leaves.map((l) => (cp && l.index < cp.size ? inclusionPlan(l.index, cp.size) : null));
    const wanted: NodeId[] = planNodes(plans.flatMap((p) => p ?? []));
    const reader = await readNodes(db, wanted);
    const sensor = leaves.flatMap((l, i) => {
      const record = records[i]!;
      return record.kind === 'sensor.minute' && l.deviceRef ? [{ deviceRef: l.deviceRef, record }] : [];
    });
    const readings = await readingsOfMinutes(
      db,
      sensor.map((m) => ({ deviceRef: m.deviceRef, minute: m.record.minute })),
    );
    // Minutes with fewer readings than logged: the logged removal that spans them, if any.
    const removals = await removalsCovering(db, sensor, readings);
    const removalPlans = new Map<number, ProofPlan | null>();
    for (const rm of removals.values()) {
      if (!removalPlans.has(rm.index)) removalPlans.set(rm.index, cp && rm.index < cp.size ? inclusionPlan(rm.index, cp.size) : null);
    }
    const removalReader = await readNodes(db, planNodes([...removalPlans.values()].flatMap((p) => p ?? [])));
    const current = await currentRecords(
      db,
      leaves.filter((l) => l.kind !== 'sensor.minute' && l.kind !== 'retention.removal').map((l) => l.ref),
    );
    const items: LedgerItem[] = leaves.map((l, i) => {
      const record = records[i]!;
      const plan = plans[i];
      const base = {
        index: l.index,
        ref: l.ref,
        kind: l.kind,
        data: b64(l.data),
        leafHash: b64(l.leafHash),
        record,
        proof: plan ? resolvePlan(plan, reader).map(b64) : null,
      };
      if (record.kind === 'sensor.minute') {
        const item: LedgerItem = { ...base, readings: readings.get(`${l.deviceRef}|${record.minute}`)?.readings ?? [] };
        const rm = l.deviceRef ? removals.get(minuteKey(l.deviceRef, record.minute)) : undefined;
        if (rm) {
          const plan = removalPlans.get(rm.index);
          item.removal = { index: rm.index, data: b64(rm.data), proof: plan ? resolvePlan(plan, removalReader).map(b64) : null };
        }
        return item;
      }
      if (record.kind === 'retention.removal') return base;
      return { ...base, currentRecord: current.get(l.ref) ?? null };
    });
    return {
      checkpoint: cp?.note ?? null,
      signedAt: cp?.signedAt ?? null,
      verifierKey: key.verifierKey,
      origin: key.origin,
      items,
      next: more ? leaves.at(-1)!.index : null,
    };
  }

  const shares = shareService(db, {
    scopes: { resolve, page, orgName: async (id) => (await db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, id)))[0]?.name ?? '' },
    audit: opts.audit,
    publicUrl: opts.publicUrl,
    now,
  });

  return {
    /** Loads (or at first start makes) the signer key. */
    signer,

    /** Appends what the sources hold that is not logged yet; resolves to the number of leaves added. */
    tick(): Promise<number> {
      feeding ??= feed().finally(() => {
        feeding = null;
      });
      return feeding;
    },

    /** Signs a checkpoint of the current tree when it grew since the last one. */
    checkpoint(): Promise<StoredCheckpoint | null> {
      signing ??= sign().finally(() => {
        signing = null;
      });
      return signing;
    },

    /** Resolves when the running tick and signing are done. */
    async settled(): Promise<void> {
      await Promise.allSettled([feeding, signing]);
    },

    async latestCheckpoint(): Promise<StoredCheckpoint> {
      return requireCheckpoint();
    },

    async publicKey(): Promise<{ verifierKey: string; origin: string }> {
      const key = await signer();
      return { verifierKey: key.verifierKey, origin: key.origin };
    },

    async inclusion(index: number, size?: number): Promise<InclusionProof> {
      const n = size ?? (await requireCheckpoint()).size;
      await requireSize(n);
      if (index >= n) throw new AppError(400, 'LEDGER_INDEX_OUT_OF_RANGE', `${index} >= ${n}`);
      const plan = inclusionPlan(index, n);
      const reader = await readNodes(db, [{ level: 0, index }, ...planNodes(plan)]);
      return { index, size: n, leafHash: b64(reader(0, index)), proof: resolvePlan(plan, reader).map(b64) };
    },

    async consistency(from: number, to: number): Promise<ConsistencyProof> {
      if (from > to) throw new AppError(400, 'LEDGER_RANGE_INVERTED', `${from} > ${to}`);
      await requireSize(to);
      const plan = consistencyPlan(from, to);
      const reader = await readNodes(db, planNodes(plan));
      return { from, to, proof: resolvePlan(plan, reader).map(b64) };
    },

    /** One leaf, for a user of its organisation tree (404 for anyone else, as if it did not exist). */
    async leaf(caller: Caller, index: number): Promise<LeafAnswer> {
      const leaf: LeafRow | null = await leafAt(db, index);
      if (!leaf || !caller.scope.has(leaf.orgId)) throw new AppError(404, 'NOT_FOUND');
      return { index: leaf.index, leafHash: b64(leaf.leafHash), data: b64(leaf.data) };
    },

    async records(caller: Caller, q: RecordsQuery): Promise<RecordsAnswer> {
      const scope = scopeOf(q);
      await need(caller, permissionOf(scope));
      const { where } = await resolve(scope, caller.scope.orgs);
      return page(where, q.after);
    },

    /** Share links: make, list, revoke, and what a live one publishes (shares.ts). */
    shares,
  };
}
export type LedgerService = ReturnType<typeof ledgerService>;
