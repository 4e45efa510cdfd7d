// The canonical content of each signable record: what a signature's hash covers. Only the
// record's meaningful content, as the signer saw it: no `updated_at`, and no state that moves on
// by itself after signing (a command's delivery status), so a signature stops matching only when
// what was signed changed. Keys are sorted by canonicalJson; times are ISO 8601 UTC.
import { createHash } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { canonicalJson } from '@iotc/shared/ledger/canonical-json';
import type { SignatureRecordType } from '@iotc/shared/signature';
import type { Db, Tx } from '../../db/client.ts';
import { commands, transportTaskDevices, transportTasks, warehouseRecords, workOrderAlarms, workOrders } from '../../db/schema.ts';

type Q = Db | Tx;
const iso = (d: Date | null) => d?.toISOString() ?? null;

export interface RecordContent {
  orgId: string;
  /** The task of a GSP record or shipment report (the ledger files the signature under it). */
  taskId: string | null;
  warehouseRecordId: string | null;
  content: Record<string, unknown>;
}

async function warehouseRecord(q: Q, id: string): Promise<RecordContent | null> {
  const [r] = await q.select().from(warehouseRecords).where(eq(warehouseRecords.id, id));
  if (!r) return null;
  return {
    orgId: r.orgId,
    taskId: null,
    warehouseRecordId: r.id,
    content: {
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
    },
  };
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

/** The record's canonical content, or null when there is no such record. */
export function recordContent(q: Q, type: SignatureRecordType, id: string): Promise<RecordContent | null> {
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
