// SQL of the ledger's own tables. Bytes travel as hex (encode / decode in the database), which
// both drivers pass through unchanged; indexes as text (bigint), read back with Number.
import { sql, type SQL } from 'drizzle-orm';
import { fromHex, toHex } from '@iotc/shared/ledger/bytes';
import { nodeKey, type Hash, type NodeId, type NodeReader, type StoredNode } from '@iotc/shared/ledger/merkle';
import { rowsOf, type Executor } from '../../db/client.ts';
import type { LedgerRecord } from '@iotc/shared/ledger/leaf';
import type { Candidate } from './sources.ts';

/** The number of leaves. */
export async function treeSize(q: Executor): Promise<number> {
  return Number(rowsOf<{ n: string }>(await q.execute(sql`select coalesce(max(idx) + 1, 0)::text as n from ledger_leaves`))[0]!.n);
}

/** The stored hashes of these nodes (one query); a reader over them that throws for any other. */
export async function readNodes(q: Executor, nodes: readonly NodeId[]): Promise<NodeReader> {
  const found = new Map<string, Hash>();
  if (nodes.length) {
    const rows = rowsOf<{ level: number; idx: string; hash: string }>(
      await q.execute(sql`select n.level, n.idx::text as idx, encode(n.hash, 'hex') as hash
        from unnest(${`{${nodes.map((n) => n.level).join(',')}}`}::smallint[], ${`{${nodes.map((n) => n.index).join(',')}}`}::bigint[]) as u(l, i)
        join ledger_nodes n on n.level = u.l and n.idx = u.i`),
    );
    for (const r of rows) found.set(nodeKey(Number(r.level), Number(r.idx)), fromHex(r.hash));
  }
  return (level, index) => {
    const h = found.get(nodeKey(level, index));
    if (!h) throw new Error(`ledger node ${level}/${index} is missing`);
    return h;
  };
}

export async function existingRefs(q: Executor, refs: readonly string[]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const rows = rowsOf<{ ref: string }>(await q.execute(sql`select ref from ledger_leaves where ref in (select jsonb_array_elements_text(${JSON.stringify(refs)}::jsonb))`));
  return new Set(rows.map((r) => r.ref));
}

export interface NewLeaf {
  idx: number;
  candidate: Candidate;
  data: Uint8Array;
  leafHash: Hash;
}

export async function insertLeaves(q: Executor, leaves: readonly NewLeaf[], nodes: readonly StoredNode[]): Promise<void> {
  if (leaves.length === 0) return;
  const json = JSON.stringify(
    leaves.map((l) => ({
      idx: l.idx,
      org_id: l.candidate.orgId,
      kind: l.candidate.kind,
      ref: l.candidate.ref,
      data: toHex(l.data),
      leaf_hash: toHex(l.leafHash),
      at: l.candidate.at,
      device_ref: l.candidate.deviceRef,
      task_id: l.candidate.taskId,
      warehouse_record_id: l.candidate.warehouseRecordId,
      alarm_id: l.candidate.alarmId,
    })),
  );
  await q.execute(sql`insert into ledger_leaves (idx, org_id, kind, ref, data, leaf_hash, at, device_ref, task_id, warehouse_record_id, alarm_id)
    select idx, org_id, kind, ref, decode(data, 'hex'), decode(leaf_hash, 'hex'), at, device_ref, task_id, warehouse_record_id, alarm_id
    from jsonb_to_recordset(${json}::jsonb) as x(idx bigint, org_id uuid, kind text, ref text, data text, leaf_hash text, at timestamptz,
      device_ref uuid, task_id uuid, warehouse_record_id uuid, alarm_id uuid)`);
  const nodeJson = JSON.stringify(nodes.map((n) => ({ level: n.level, idx: n.index, hash: toHex(n.hash) })));
  await q.execute(sql`insert into ledger_nodes (level, idx, hash)
    select level, idx, decode(hash, 'hex') from jsonb_to_recordset(${nodeJson}::jsonb) as x(level smallint, idx bigint, hash text)`);
}

export async function getWatermark(q: Executor, source: string): Promise<string | undefined> {
  return rowsOf<{ value: string }>(await q.execute(sql`select value from ledger_watermarks where source = ${source}`))[0]?.value;
}

export async function setWatermark(q: Executor, source: string, value: string): Promise<void> {
  await q.execute(sql`insert into ledger_watermarks (source, value) values (${source}, ${value})
    on conflict (source) do update set value = excluded.value, updated_at = now()`);
}

export interface StoredCheckpoint {
  size: number;
  rootHash: Hash;
  note: string;
  signedAt: string;
}

type CheckpointRow = { n: string; root: string; note: string; signed_at: Date | string };
const checkpointOf = (r: CheckpointRow): StoredCheckpoint => ({
  size: Number(r.n),
  rootHash: fromHex(r.root),
  note: r.note,
  signedAt: new Date(r.signed_at).toISOString(),
});
const checkpointSelect = sql`select size::text as n, encode(root_hash, 'hex') as root, note, signed_at from ledger_checkpoints`;

export async function latestCheckpoint(q: Executor): Promise<StoredCheckpoint | null> {
  const r = rowsOf<CheckpointRow>(await q.execute(sql`${checkpointSelect} order by size desc limit 1`))[0];
  return r ? checkpointOf(r) : null;
}

/** Every checkpoint, oldest first (the command-line verifier checks each against the next). */
export async function allCheckpoints(q: Executor): Promise<StoredCheckpoint[]> {
  return rowsOf<CheckpointRow>(await q.execute(sql`${checkpointSelect} order by size`)).map(checkpointOf);
}

export async function insertCheckpoint(q: Executor, size: number, rootHash: Hash, note: string): Promise<void> {
  await q.execute(sql`insert into ledger_checkpoints (size, root_hash, note) values (${size}, decode(${toHex(rootHash)}, 'hex'), ${note})`);
}

export interface LeafRow {
  index: number;
  orgId: string;
  kind: LedgerRecord['kind'];
  ref: string;
  data: Uint8Array;
  leafHash: Hash;
  at: string;
  deviceRef: string | null;
}

type RawLeaf = { i: string; org_id: string; kind: LeafRow['kind']; ref: string; data: string; leaf_hash: string; at: Date | string; device_ref: string | null };
const leafOf = (r: RawLeaf): LeafRow => ({
  index: Number(r.i),
  orgId: r.org_id,
  kind: r.kind,
  ref: r.ref,
  data: fromHex(r.data),
  leafHash: fromHex(r.leaf_hash),
  at: new Date(r.at).toISOString(),
  deviceRef: r.device_ref,
});
const leafSelect = sql`select idx::text as i, org_id, kind, ref, encode(data, 'hex') as data, encode(leaf_hash, 'hex') as leaf_hash, at, device_ref from ledger_leaves`;

export async function leafAt(q: Executor, index: number): Promise<LeafRow | null> {
  const r = rowsOf<RawLeaf>(await q.execute(sql`${leafSelect} where idx = ${index}`))[0];
  return r ? leafOf(r) : null;
}

/** Leaves matching `where` after index `after`, index order, at most `limit`. */
export async function leavesWhere(q: Executor, where: SQL, after: number, limit: number): Promise<LeafRow[]> {
  return rowsOf<RawLeaf>(await q.execute(sql`${leafSelect} where (${where}) and idx > ${after} order by idx limit ${limit}`)).map(leafOf);
}

/** Leaves [from, to) in index order (the command-line verifier reads the whole log in such pages). */
export async function leavesRange(q: Executor, from: number, to: number): Promise<LeafRow[]> {
  return rowsOf<RawLeaf>(await q.execute(sql`${leafSelect} where idx >= ${from} and idx < ${to} order by idx`)).map(leafOf);
}
