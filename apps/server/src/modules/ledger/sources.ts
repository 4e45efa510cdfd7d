// What the ledger logs, read from the tables that hold it, and the same records rebuilt from the
// rows as they are now (for verification: a changed row gives a different record).
//
// - Sensor minutes: one leaf per device and minute in which the platform STORED readings
//   (telemetry.received_at), so readings uploaded late (a logger's backlog) are covered by the
//   leaf of the minute they arrived in. A minute is closed GRACE after its end (received_at is
//   the storing transaction's start; those transactions last milliseconds).
//   Each reading in the digest is { time: received_at, deviceTime: time, lat, lon, speed,
//   course, positioning, network, sensors } (times ISO 8601 UTC with milliseconds, absent values
//   null): the decoded values every screen, report, alarm and certificate shows. The raw report
//   blocks (telemetry.raw) are left out: they are kept for diagnosis, and hashing them would only
//   make each digest larger.
// - Custody: transport task events (created → task.created; started, or a manual move to
//   in_transit → task.started; arrived, or a manual move to arrived / completed / cancelled →
//   task.ended, the status in fields) and warehouse inbound / outbound records once APPROVED
//   (before that they may still be changed or deleted; approved records never change).
//   A hand-over (handover → task.handover) carries its from, to, place, seals, temperature,
//   signed and note: the event's own detail, written once. `updated` / `copied` are not logged.
// - Alarms: alarm events created (→ opened) and cleared or closed (→ closed, `how` in fields).
// - Signatures (issue 27): each electronic signature once (→ custody record.signed), with the
//   hash of the record as signed; the signatures table is append-only, so the record rebuilt
//   from it always matches, and a later change of the signed record shows in the signature's
//   own check (modules/signature), which compares that hash with the record as it is now.
// - Retention removals (issue 24): each removal of packs that retention made (retention_removals,
//   what = 'packs'), once: the device's readings stored in the removal's received span are gone
//   under its policy. Its row gets the leaf's index. A sensor minute of that device in that span
//   whose readings are fewer than logged then verifies as removed under that policy.
import { sql } from 'drizzle-orm';
import type { JsonValue } from '@iotc/shared/ledger/canonical-json';
import { decodeLeaf, LEAF_VERSION, sensorMinuteRecord, type RetentionRemovalRecord, type SensorMinuteRecord, type AlarmRecord, type CustodyRecord, type LedgerRecord, type Reading } from '@iotc/shared/ledger/leaf';
import { rowsOf, type Executor } from '../../db/client.ts';
import { uuidList } from '../../db/list.ts';
import { readReceived } from '../archive/reader.ts';

export interface Candidate {
  ref: string;
  kind: LedgerRecord['kind'];
  orgId: string;
  record: LedgerRecord;
  /** ISO time of the record (the minute, the event). */
  at: string;
  deviceRef: string | null;
  taskId: string | null;
  warehouseRecordId: string | null;
  alarmId: string | null;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
/** The start of the minute of a timestamptz, in absolute time (date_trunc would follow the session's time zone). */
const minuteOf = (col: string) => `date_bin('1 minute', ${col}, timestamptz '2000-01-01T00:00:00Z')`;
/** An ISO 8601 UTC text with milliseconds of a timestamptz, made by the database (same on every driver). */
const iso = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', ${ISO})`);

// ---- sensor minutes ----

export interface MinuteKey {
  deviceRef: string;
  /** ISO start of the minute. */
  minute: string;
}

export const minuteKey = (deviceRef: string, minute: string) => `${deviceRef}|${minute}`;

export interface MinuteReadings {
  orgId: string;
  deviceId: string;
  readings: Reading[];
}

/** The stored readings of these device-minutes, by minuteKey (a minute without readings is absent). */
export async function readingsOfMinutes(q: Executor, keys: readonly MinuteKey[]): Promise<Map<string, MinuteReadings>> {
  const out = new Map<string, MinuteReadings>();
  if (keys.length === 0) return out;
  const minutes = keys.map((k) => Date.parse(k.minute));
  const lo = new Date(Math.min(...minutes)).toISOString();
  const hi = new Date(Math.max(...minutes) + 60_000).toISOString();
  const refs = [...new Set(keys.map((k) => k.deviceRef))];
  const wanted = new Set(keys.map((k) => minuteKey(k.deviceRef, k.minute)));
  const ids = new Map(
    rowsOf<{ id: string; device_id: string }>(await q.execute(sql`select id, device_id from devices where id = any(${uuidList(refs)})`)).map((d) => [d.id, d.device_id]),
  );
  // Packs and rows alike (modules/archive): a device-minute reads the same either way.
  for (const r of await readReceived(q, refs, Date.parse(lo), Date.parse(hi))) {
    const deviceId = ids.get(r.deviceRef);
    if (deviceId === undefined) continue;
    const minute = new Date(Math.floor(r.receivedAt.getTime() / 60_000) * 60_000).toISOString();
    const k = minuteKey(r.deviceRef, minute);
    if (!wanted.has(k)) continue;
    let m = out.get(k);
    if (!m) out.set(k, (m = { orgId: r.orgId, deviceId, readings: [] }));
    m.readings.push({
      time: r.receivedAt.toISOString(),
      deviceTime: r.time.toISOString(),
      lat: r.lat,
      lon: r.lon,
      speed: r.speed,
      course: r.course,
      positioning: r.positioning,
      network: r.network,
      sensors: r.sensors as JsonValue,
    });
  }
  return out;
}

export function sensorCandidate(key: MinuteKey, m: MinuteReadings): Candidate {
  return {
    ref: `sensor:${key.deviceRef}:${key.minute}`,
    kind: 'sensor.minute',
    orgId: m.orgId,
    record: sensorMinuteRecord(m.orgId, m.deviceId, key.minute, m.readings),
    at: key.minute,
    deviceRef: key.deviceRef,
    taskId: null,
    warehouseRecordId: null,
    alarmId: null,
  };
}

/** Position of the sensor feeder: the last device-minute logged, in (minute, device) order. */
export interface SensorCursor {
  minute: string;
  deviceRef: string;
}
export const SENSOR_START: SensorCursor = { minute: '1970-01-01T00:00:00.000Z', deviceRef: '00000000-0000-0000-0000-000000000000' };
/** One batch reads at most this span of stored time, so a large backlog is read in pieces. */
const SENSOR_WINDOW_MS = 10 * 60_000;

/**
 * The next closed device-minutes after the cursor (at most `limit`), and the cursor after them.
 * `closeBefore` is the first minute not yet closed.
 */
export async function nextSensorMinutes(
  q: Executor,
  cursor: SensorCursor,
  closeBefore: Date,
  limit: number,
): Promise<{ keys: MinuteKey[]; cursor: SensorCursor }> {
  const lo = new Date(cursor.minute);
  if (lo >= closeBefore) return { keys: [], cursor };
  const hi = new Date(Math.min(closeBefore.getTime(), lo.getTime() + SENSOR_WINDOW_MS));
  const groups = rowsOf<{ device_ref: string; minute: string }>(
    await q.execute(sql`select device_ref, ${iso('m')} as minute from (
        select device_ref, ${sql.raw(minuteOf('received_at'))} as m from telemetry
        where received_at >= ${lo.toISOString()}::timestamptz and received_at < ${hi.toISOString()}::timestamptz
        group by 1, 2) g
      where (m, device_ref) > (${cursor.minute}::timestamptz, ${cursor.deviceRef}::uuid)
      order by m, device_ref limit ${limit}`),
  );
  const keys = groups.map((g) => ({ deviceRef: g.device_ref, minute: g.minute }));
  if (keys.length === limit) return { keys, cursor: { minute: keys.at(-1)!.minute, deviceRef: keys.at(-1)!.deviceRef } };
  // The window is done: on to the next stored reading (skipping a quiet stretch at once), or to
  // the first open minute.
  let next = hi;
  if (hi < closeBefore) {
    const first = rowsOf<{ m: string | null }>(
      await q.execute(sql`select ${iso(minuteOf('min(received_at)'))} as m from telemetry
        where received_at >= ${hi.toISOString()}::timestamptz and received_at < ${closeBefore.toISOString()}::timestamptz`),
    )[0]?.m;
    next = first ? new Date(first) : closeBefore;
  }
  return { keys, cursor: { minute: next.toISOString(), deviceRef: SENSOR_START.deviceRef } };
}

// ---- custody: transport task events ----

interface TaskEventRow {
  id: string | number;
  task_id: string;
  org_id: string;
  code: string;
  at: string;
  kind: string;
  actor: string | null;
  detail: Record<string, JsonValue>;
}

const ENDED = new Set(['arrived', 'completed', 'cancelled']);

function taskEvent(r: TaskEventRow): CustodyRecord['event'] | null {
  if (r.kind === 'created') return 'task.created';
  if (r.kind === 'started') return 'task.started';
  if (r.kind === 'arrived') return 'task.ended';
  if (r.kind === 'handover') return 'task.handover';
  if (r.kind === 'status_changed') {
    const to = r.detail['to'];
    if (to === 'in_transit') return 'task.started';
    if (typeof to === 'string' && ENDED.has(to)) return 'task.ended';
  }
  return null;
}

/** The hand-over as written (absent values null), named field by field so the record's shape does not follow the story's. */
function handoverFields(d: Record<string, JsonValue>): Record<string, JsonValue> {
  const f = (k: string) => d[k] ?? null;
  return { from: f('from'), to: f('to'), place: f('place'), seals: f('seals'), temperature: f('temperature'), signed: f('signed'), note: f('note') };
}

function taskCandidate(r: TaskEventRow): Candidate | null {
  const event = taskEvent(r);
  if (!event) return null;
  const id = Number(r.id);
  const status = r.kind === 'arrived' ? 'arrived' : r.kind === 'status_changed' ? (r.detail['to'] as string) : null;
  const record: CustodyRecord = {
    v: LEAF_VERSION,
    kind: 'custody',
    orgId: r.org_id,
    event,
    subjectId: r.task_id,
    time: r.at,
    actor: r.actor || 'system',
    fields: event === 'task.handover' ? { eventId: id, code: r.code, ...handoverFields(r.detail) } : { eventId: id, code: r.code, status, detail: r.detail },
  };
  return {
    ref: `custody:${event}:${r.task_id}:${id}`,
    kind: 'custody',
    orgId: r.org_id,
    record,
    at: r.at,
    deviceRef: null,
    taskId: r.task_id,
    warehouseRecordId: null,
    alarmId: null,
  };
}

const taskEventSelect = sql`select e.id::text as id, e.task_id, t.org_id, t.code, ${iso('e.at')} as at, e.kind, e.actor, e.detail
  from transport_task_events e join transport_tasks t on t.id = e.task_id`;

/** Task events with id above `after` (at most `limit`, id order): their ids, and the custody records among them. */
export async function nextTaskEvents(q: Executor, after: number, limit: number): Promise<{ ids: number[]; candidates: Candidate[] }> {
  const rows = rowsOf<TaskEventRow>(await q.execute(sql`${taskEventSelect} where e.id > ${after} order by e.id limit ${limit}`));
  return { ids: rows.map((r) => Number(r.id)), candidates: rows.map(taskCandidate).filter((c): c is Candidate => c !== null) };
}

// ---- custody: warehouse records ----

interface WarehouseRow {
  id: string;
  org_id: string;
  direction: 'in' | 'out';
  time: string;
  reviewed_at: string;
  handler: string;
  created_by: string;
  warehouse_code: string;
  warehouse_name: string;
  room_code: string | null;
  room_name: string | null;
  goods_name: string;
  batch_no: string;
  quantity: number;
  unit: string;
  temperature: number | null;
  humidity: number | null;
  reading_time: string | null;
  reading_device_id: string | null;
  reviewer: string | null;
}

function warehouseCandidate(r: WarehouseRow): Candidate {
  const event = r.direction === 'in' ? 'warehouse.in' : 'warehouse.out';
  const record: CustodyRecord = {
    v: LEAF_VERSION,
    kind: 'custody',
    orgId: r.org_id,
    event,
    subjectId: r.id,
    time: r.time,
    actor: r.handler || r.created_by || 'system',
    fields: {
      warehouseCode: r.warehouse_code,
      warehouseName: r.warehouse_name,
      roomCode: r.room_code,
      roomName: r.room_name,
      goodsName: r.goods_name,
      batchNo: r.batch_no,
      quantity: r.quantity,
      unit: r.unit,
      temperature: r.temperature,
      humidity: r.humidity,
      readingTime: r.reading_time,
      readingDeviceId: r.reading_device_id,
      reviewer: r.reviewer,
      reviewedAt: r.reviewed_at,
    },
  };
  return { ref: `custody:${event}:${r.id}`, kind: 'custody', orgId: r.org_id, record, at: r.time, deviceRef: null, taskId: null, warehouseRecordId: r.id, alarmId: null };
}

const warehouseSelect = sql`select id, org_id, direction, ${iso('time')} as time, ${iso('reviewed_at')} as reviewed_at, handler, created_by,
    warehouse_code, warehouse_name, room_code, room_name, goods_name, batch_no, quantity, unit, temperature, humidity,
    ${iso('reading_time')} as reading_time, reading_device_id, reviewer
  from warehouse_records`;

/** Re-read this far behind the watermark: an approval committed late is still found (the unique ref skips the rest). */
export const WAREHOUSE_OVERLAP_MS = 5 * 60_000;

/** Approved records reviewed after `since` (minus the overlap), oldest review first. */
export async function nextWarehouseRecords(q: Executor, since: string, limit: number): Promise<{ candidates: Candidate[]; last: string | null }> {
  const from = new Date(Date.parse(since) - WAREHOUSE_OVERLAP_MS).toISOString();
  const rows = rowsOf<WarehouseRow>(
    await q.execute(sql`${warehouseSelect} where audit_status = 'approved' and reviewed_at > ${from}::timestamptz order by warehouse_records.reviewed_at, warehouse_records.id limit ${limit}`),
  );
  return { candidates: rows.map(warehouseCandidate), last: rows.at(-1)?.reviewed_at ?? null };
}

// ---- custody: electronic signatures ----

interface SignatureLeafRow {
  id: string;
  org_id: string;
  record_type: string;
  record_id: string;
  meaning: string;
  signer_account: string;
  signer_name: string;
  method: string;
  record_hash: string;
  signed_at: string;
}

function signatureCandidate(r: SignatureLeafRow): Candidate {
  const record: CustodyRecord = {
    v: LEAF_VERSION,
    kind: 'custody',
    orgId: r.org_id,
    event: 'record.signed',
    subjectId: r.record_id,
    time: r.signed_at,
    actor: r.signer_account,
    fields: { signatureId: r.id, recordType: r.record_type, meaning: r.meaning, signerName: r.signer_name, method: r.method, recordHash: r.record_hash },
  };
  const onTask = r.record_type === 'gsp_record' || r.record_type === 'shipment_report';
  return {
    ref: `custody:record.signed:${r.id}`,
    kind: 'custody',
    orgId: r.org_id,
    record,
    at: r.signed_at,
    deviceRef: null,
    taskId: onTask ? r.record_id : null,
    warehouseRecordId: r.record_type === 'warehouse_record' ? r.record_id : null,
    alarmId: null,
  };
}

const signatureSelect = sql`select id, org_id, record_type, record_id, meaning, signer_account, signer_name, method, record_hash, ${iso('signed_at')} as signed_at from signatures`;

/** Re-read this far behind the watermark: a signature committed late is still found (the unique ref skips the rest). */
export const SIGNATURE_OVERLAP_MS = 5 * 60_000;

/** Signatures made after `since` (minus the overlap), oldest first. */
export async function nextSignatures(q: Executor, since: string, limit: number): Promise<{ candidates: Candidate[]; last: string | null }> {
  const from = new Date(Date.parse(since) - SIGNATURE_OVERLAP_MS).toISOString();
  const rows = rowsOf<SignatureLeafRow>(await q.execute(sql`${signatureSelect} where signed_at > ${from}::timestamptz order by signed_at, id limit ${limit}`));
  return { candidates: rows.map(signatureCandidate), last: rows.at(-1)?.signed_at ?? null };
}

// ---- alarms ----

interface AlarmEventRow {
  id: string | number;
  alarm_id: string;
  org_id: string;
  device_ref: string;
  device_id: string;
  task_id: string | null;
  at: string;
  kind: string;
  actor: string | null;
  detail: Record<string, JsonValue>;
  type: string;
  rule_id: string;
  policy_name: string;
  threshold: number;
  started_at: string;
}

function alarmCandidate(r: AlarmEventRow): Candidate | null {
  const event = r.kind === 'created' ? 'opened' : r.kind === 'cleared' || r.kind === 'closed' ? 'closed' : null;
  if (!event) return null;
  const id = Number(r.id);
  const record: AlarmRecord = {
    v: LEAF_VERSION,
    kind: 'alarm',
    orgId: r.org_id,
    event,
    alarmId: r.alarm_id,
    deviceId: r.device_id,
    time: r.at,
    fields: {
      eventId: id,
      how: r.kind,
      actor: r.actor,
      type: r.type,
      ruleId: r.rule_id,
      policyName: r.policy_name,
      threshold: r.threshold,
      startedAt: r.started_at,
      detail: r.detail,
    },
  };
  return {
    ref: `alarm:${event}:${r.alarm_id}:${id}`,
    kind: 'alarm',
    orgId: r.org_id,
    record,
    at: r.at,
    deviceRef: r.device_ref,
    taskId: r.task_id,
    warehouseRecordId: null,
    alarmId: r.alarm_id,
  };
}

const alarmEventSelect = sql`select e.id::text as id, e.alarm_id, a.org_id, a.device_ref, d.device_id, a.task_id, ${iso('e.at')} as at, e.kind, e.actor, e.detail,
    a.type, a.rule_id, a.policy_name, a.threshold, ${iso('a.started_at')} as started_at
  from alarm_events e join alarms a on a.id = e.alarm_id join devices d on d.id = a.device_ref`;

export async function nextAlarmEvents(q: Executor, after: number, limit: number): Promise<{ ids: number[]; candidates: Candidate[] }> {
  const rows = rowsOf<AlarmEventRow>(await q.execute(sql`${alarmEventSelect} where e.id > ${after} order by e.id limit ${limit}`));
  return { ids: rows.map((r) => Number(r.id)), candidates: rows.map(alarmCandidate).filter((c): c is Candidate => c !== null) };
}

// ---- the records as the rows are now ----

const idList = (ids: readonly (string | number)[]) => `{${ids.join(',')}}`;

/**
 * The custody and alarm records of these refs rebuilt from the current rows (a ref whose rows
 * are gone, or no longer make that record, is absent).
 */
export async function currentRecords(q: Executor, refs: readonly string[]): Promise<Map<string, LedgerRecord>> {
  const taskEvents: number[] = [];
  const alarmEvents: number[] = [];
  const warehouse: string[] = [];
  const signed: string[] = [];
  for (const ref of refs) {
    const parts = ref.split(':');
    if (parts[0] === 'custody' && parts[1]?.startsWith('task.') && parts.length === 4) taskEvents.push(Number(parts[3]));
    else if (parts[0] === 'custody' && parts[1]?.startsWith('warehouse.') && parts.length === 3) warehouse.push(parts[2]!);
    else if (parts[0] === 'custody' && parts[1] === 'record.signed' && parts.length === 3) signed.push(parts[2]!);
    else if (parts[0] === 'alarm' && parts.length === 4) alarmEvents.push(Number(parts[3]));
  }
  const out: Candidate[] = [];
  const ints = (xs: number[]) => xs.filter((x) => Number.isSafeInteger(x));
  if (taskEvents.length) {
    const rows = rowsOf<TaskEventRow>(await q.execute(sql`${taskEventSelect} where e.id = any(${idList(ints(taskEvents))}::bigint[])`));
    for (const r of rows) out.push(...[taskCandidate(r)].filter((c): c is Candidate => c !== null));
  }
  if (alarmEvents.length) {
    const rows = rowsOf<AlarmEventRow>(await q.execute(sql`${alarmEventSelect} where e.id = any(${idList(ints(alarmEvents))}::bigint[])`));
    for (const r of rows) out.push(...[alarmCandidate(r)].filter((c): c is Candidate => c !== null));
  }
  const uuids = warehouse.filter((w) => /^[0-9a-f-]{36}$/i.test(w));
  if (uuids.length) {
    const rows = rowsOf<WarehouseRow>(await q.execute(sql`${warehouseSelect} where id = any(${uuidList(uuids)}) and audit_status = 'approved'`));
    out.push(...rows.map(warehouseCandidate));
  }
  const signatureIds = signed.filter((w) => /^[0-9a-f-]{36}$/i.test(w));
  if (signatureIds.length) {
    const rows = rowsOf<SignatureLeafRow>(await q.execute(sql`${signatureSelect} where id = any(${uuidList(signatureIds)})`));
    out.push(...rows.map(signatureCandidate));
  }
  return new Map(out.map((c) => [c.ref, c.record]));
}

// ---- retention removals ----

const MINUTE_MS = 60_000;
const floorMinute = (t: Date | string) => new Date(Math.floor(new Date(t).getTime() / MINUTE_MS) * MINUTE_MS);

/** The removals of packs not logged yet, oldest first (at most `limit`). */
export async function nextRetentionRemovals(q: Executor, limit: number): Promise<Candidate[]> {
  const rows = rowsOf<{
    id: string;
    org_id: string;
    device_ref: string;
    device_id: string | null;
    received_from: Date | string;
    received_to: Date | string;
    readings: string | number;
    policy: string;
    removed_at: string;
  }>(
    await q.execute(sql`select r.id, r.org_id, r.device_ref, d.device_id, r.received_from, r.received_to, r.readings, r.policy, ${iso('r.removed_at')} as removed_at
      from retention_removals r left join devices d on d.id = r.device_ref
      where r.what = 'packs' and r.ledger_index is null and r.received_from is not null and r.received_to is not null
      order by r.removed_at, r.id limit ${limit}`),
  );
  return rows.map((r) => {
    const record: RetentionRemovalRecord = {
      v: LEAF_VERSION,
      kind: 'retention.removal',
      orgId: r.org_id,
      // A deleted device keeps its row id as the name the removal gives it.
      deviceId: r.device_id ?? r.device_ref,
      from: floorMinute(r.received_from).toISOString(),
      to: new Date(floorMinute(r.received_to).getTime() + MINUTE_MS).toISOString(),
      readings: Number(r.readings),
      policy: r.policy,
      removedAt: r.removed_at,
    };
    return { ref: `retention:${r.id}`, kind: 'retention.removal', orgId: r.org_id, record, at: r.removed_at, deviceRef: r.device_ref, taskId: null, warehouseRecordId: null, alarmId: null };
  });
}

/** Gives the removals just logged their leaf's index. */
export async function markRemovalsLogged(q: Executor): Promise<void> {
  await q.execute(sql`update retention_removals r set ledger_index = l.idx from ledger_leaves l
    where r.ledger_index is null and l.ref = 'retention:' || r.id::text`);
}

export interface LoggedRemoval {
  index: number;
  data: Uint8Array;
  record: RetentionRemovalRecord;
}

/**
 * For each logged sensor minute whose readings are now fewer than logged (`readings`, as
 * readingsOfMinutes gives them), the logged removal of its organisation and device whose span
 * holds it (the latest when several do), by minuteKey; minutes no removal accounts for are absent.
 */
export async function removalsCovering(
  q: Executor,
  minutes: readonly { deviceRef: string; record: SensorMinuteRecord }[],
  readings: ReadonlyMap<string, MinuteReadings>,
): Promise<Map<string, LoggedRemoval>> {
  const out = new Map<string, LoggedRemoval>();
  const keys = minutes
    .filter((m) => (readings.get(minuteKey(m.deviceRef, m.record.minute))?.readings.length ?? 0) < m.record.count)
    .map((m) => ({ deviceRef: m.deviceRef, minute: m.record.minute, orgId: m.record.orgId, deviceId: m.record.deviceId }));
  if (keys.length === 0) return out;
  const refs = [...new Set(keys.map((k) => k.deviceRef))];
  const lo = keys.reduce((m, k) => (k.minute < m ? k.minute : m), keys[0]!.minute);
  const rows = rowsOf<{ i: string; data: string; device_ref: string }>(
    await q.execute(sql`select idx::text as i, encode(data, 'hex') as data, device_ref from ledger_leaves
      where kind = 'retention.removal' and device_ref = any(${uuidList(refs)}) and at >= ${lo}::timestamptz order by idx`),
  );
  const byDevice = new Map<string, LoggedRemoval[]>();
  for (const r of rows) {
    const record = decodeLeaf(Buffer.from(r.data, 'hex'));
    if (record.kind !== 'retention.removal') continue;
    const list = byDevice.get(r.device_ref) ?? [];
    list.push({ index: Number(r.i), data: Buffer.from(r.data, 'hex'), record });
    byDevice.set(r.device_ref, list);
  }
  for (const k of keys) {
    for (const removal of byDevice.get(k.deviceRef) ?? []) {
      const r = removal.record;
      if (r.orgId === k.orgId && r.deviceId === k.deviceId && r.from <= k.minute && k.minute < r.to) out.set(minuteKey(k.deviceRef, k.minute), removal);
    }
  }
  return out;
}
