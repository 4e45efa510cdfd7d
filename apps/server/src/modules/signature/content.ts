// The canonical content of each signable record: what a signature's hash covers. Only the
// record's meaningful content, as the signer saw it: no `updated_at`, and no state that moves on
// by itself after signing (a command's delivery status), so a signature stops matching only when
// what was signed changed. Keys are sorted by canonicalJson; times are ISO 8601 UTC.
import { createHash } from 'node:crypto';
import { and, asc, eq, gte, lt, or } from 'drizzle-orm';
import { GSP_ASSET_KINDS, GSP_INTERVAL_MIN, gspDays, gspMode, gspRows } from '@iotc/shared/gsp-report';
import { canonicalJson } from '@iotc/shared/ledger/canonical-json';
import { parseGspRecordId, type SignatureRecordType } from '@iotc/shared/signature';
import type { Db, Tx } from '../../db/client.ts';
import { assets, commands, transportTaskDevices, transportTasks, warehouseRecords, workOrderAlarms, workOrders } from '../../db/schema.ts';
import { gspReadings } from '../report/gsp-data.ts';

type Q = Db | Tx;
const iso = (d: Date | null) => d?.toISOString() ?? null;

export interface RecordContent {
  orgId: string;
  /** The task of a GSP record or shipment report (the ledger files the signature under it). */
  taskId: string | null;
  warehouseRecordId: string | null;
  content: Record<string, unknown>;
}

/** What a warehouse record says (not its review, which moves on by itself after a GSP record is signed). */
const warehouseFields = (r: typeof warehouseRecords.$inferSelect): Record<string, unknown> => ({
  id: r.id,
  orgId: r.orgId,
  direction: r.direction,
  time: iso(r.time),
  warehouseCode: r.warehouseCode,
  warehouseName: r.warehouseName,
  roomCode: r.roomCode,
  roomName: r.roomName,
  goodsName: r.goodsName,
  batchNo: r.batchNo,
  quantity: r.quantity,
  unit: r.unit,
  handler: r.handler,
  remark: r.remark,
  temperature: r.temperature,
  humidity: r.humidity,
  readingTime: iso(r.readingTime),
  readingDeviceId: r.readingDeviceId,
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
});

async function warehouseRecord(q: Q, id: string): Promise<RecordContent | null> {
  const [r] = await q.select().from(warehouseRecords).where(eq(warehouseRecords.id, id));
  if (!r) return null;
  return { orgId: r.orgId, taskId: null, warehouseRecordId: r.id, content: warehouseFields(r) };
}

async function command(q: Q, id: string): Promise<RecordContent | null> {
  const [c] = await q.select().from(commands).where(eq(commands.id, id));
  if (!c) return null;
  return {
    orgId: c.orgId,
    taskId: null,
    warehouseRecordId: null,
    content: { id: c.id, orgId: c.orgId, deviceRef: c.deviceRef, kind: c.kind, params: c.params, remark: c.remark, requesterAccount: c.requesterAccount, createdAt: iso(c.createdAt) },
  };
}

async function workOrder(q: Q, id: string): Promise<RecordContent | null> {
  const [w] = await q.select().from(workOrders).where(eq(workOrders.id, id));
  if (!w) return null;
  const alarms = await q.select({ id: workOrderAlarms.alarmId }).from(workOrderAlarms).where(eq(workOrderAlarms.workOrderId, id)).orderBy(asc(workOrderAlarms.alarmId));
  return {
    orgId: w.orgId,
    taskId: null,
    warehouseRecordId: null,
    content: {
      id: w.id,
      orgId: w.orgId,
      code: w.code,
      title: w.title,
      description: w.description,
      priority: w.priority,
      source: w.source,
      assigneeId: w.assigneeId,
      dueAt: iso(w.dueAt),
      createdBy: w.createdBy,
      createdAt: iso(w.createdAt),
      resolvedAt: iso(w.resolvedAt),
      closedAt: iso(w.closedAt),
      alarmIds: alarms.map((a) => a.id),
    },
  };
}

/** A task's GSP record and shipment report: the task as planned and run, and its devices. */
async function taskDocument(q: Q, id: string, document: 'gsp_record' | 'shipment_report'): Promise<RecordContent | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [t] = await q.select().from(transportTasks).where(eq(transportTasks.id, id));
  if (!t) return null;
  const devices = await q.select({ ref: transportTaskDevices.deviceRef }).from(transportTaskDevices).where(eq(transportTaskDevices.taskId, id)).orderBy(asc(transportTaskDevices.position));
  const { updatedAt: _updated, templateId: _template, ...rest } = t;
  const content: Record<string, unknown> = { document, devices: devices.map((d) => d.ref) };
  for (const [k, v] of Object.entries(rest)) content[k] = v instanceof Date ? v.toISOString() : v;
  return { orgId: t.orgId, taskId: t.id, warehouseRecordId: null, content };
}

/**
 * An asset's GSP record (a day or a month, days cut in the id's time zone): every row of the
 * period as the slot rule records it (modules/report/gsp.ts shows the same rows), the limits that
 * judge them, the devices, and the warehouse records made at the asset in the period. A reading
 * or a warehouse record changed afterwards changes the hash. Signed only once the period is over
 * (the service refuses an open one), so the rows do not grow by themselves.
 */
async function assetGspRecord(q: Q, id: string): Promise<RecordContent | null> {
  const key = parseGspRecordId(id);
  if (!key) return null;
  const [a] = await q.select().from(assets).where(eq(assets.id, key.assetId));
  if (!a || !(GSP_ASSET_KINDS as readonly string[]).includes(a.kind)) return null;
  let days;
  try {
    days = gspDays(key.period, key.date, key.tz);
  } catch {
    return null; // not a time zone
  }
  const from = days[0]!.from;
  const to = days[days.length - 1]!.to;
  const limits = { tempMin: a.tempMin, tempMax: a.tempMax, humidityMin: a.humidityMin, humidityMax: a.humidityMax };
  const { readings, devices } = await gspReadings(q, a.id, from, to);
  const baseMin = GSP_INTERVAL_MIN[gspMode(a.kind)];
  const rows = days.flatMap((d) => gspRows(readings, limits, d.from, d.to, baseMin));
  const records = await q
    .select()
    .from(warehouseRecords)
    .where(and(or(eq(warehouseRecords.roomRef, a.id), eq(warehouseRecords.warehouseRef, a.id)), gte(warehouseRecords.time, new Date(from)), lt(warehouseRecords.time, new Date(to))))
    .orderBy(asc(warehouseRecords.time), asc(warehouseRecords.id));
  return {
    orgId: a.orgId,
    taskId: null,
    warehouseRecordId: null,
    content: {
      document: 'gsp_record',
      assetId: a.id,
      orgId: a.orgId,
      code: a.code,
      name: a.name,
      kind: a.kind,
      period: key.period,
      date: key.date,
      timezone: key.tz,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      limits,
      devices: [...devices.keys()],
      rows: rows.map((r) => ({ time: new Date(r.start).toISOString(), end: new Date(r.end).toISOString(), temperature: r.temp, humidity: r.humidity, inRange: r.inRange })),
      warehouseRecords: records.map(warehouseFields),
    },
  };
}

/** The record's canonical content, or null when there is no such record. */
export function recordContent(q: Q, type: SignatureRecordType, id: string): Promise<RecordContent | null> {
  if (type === 'asset_gsp_record') return assetGspRecord(q, id);
  if (!/^[0-9a-f-]{36}$/i.test(id)) return Promise.resolve(null);
  switch (type) {
    case 'warehouse_record':
      return warehouseRecord(q, id);
    case 'command':
      return command(q, id);
    case 'work_order':
      return workOrder(q, id);
    case 'gsp_record':
    case 'shipment_report':
      return taskDocument(q, id, type);
  }
}

/** SHA-256 (hex) of the content's canonical JSON. */
export const contentHash = (content: Record<string, unknown>): string => createHash('sha256').update(canonicalJson(content)).digest('hex');
