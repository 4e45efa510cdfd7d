// How a record reads on screen: the table row (times in the user's zone, place, quantity with its
// unit, the hand-over temperature against the room's range) and the colours of the tags.
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { RecordRow, WarehouseAuditStatus, WarehouseDirection } from '@iotc/shared/warehouse';

export const AUDIT_TABS = ['all', 'pending', 'approved', 'rejected'] as const;
export type AuditTab = (typeof AUDIT_TABS)[number];

export const AUDIT_COLORS: Record<AuditTab, string> = { all: '#1677ff', pending: '#fa8c16', approved: '#52c41a', rejected: '#f5222d' };
export const DIRECTION_COLORS: Record<WarehouseDirection, string> = { in: '#1677ff', out: '#722ed1' };

/** The tab of the address's audit status filter: one known status, else All. */
export function tabOf(status: string | undefined): AuditTab {
  return (AUDIT_TABS as readonly string[]).includes(status ?? '') ? (status as AuditTab) : 'all';
}

/** An instant in the user's time zone, '' when absent. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format(DATETIME_FORMAT) : '';
}

/** A quantity as people write it (no floating-point tail) with its unit. */
export function quantityText(quantity: number, unit: string): string {
  const n = Math.round(quantity * 1000) / 1000;
  return unit ? `${n} ${unit}` : String(n);
}

/** Whether a hand-over value lies outside the range (a missing bound does not limit). */
export function outOfRange(value: number | null, min: number | null, max: number | null): boolean {
  if (value === null) return false;
  return (min !== null && value < min) || (max !== null && value > max);
}

export interface RecordView {
  id: string;
  row: RecordRow;
  time: string;
  warehouse: string;
  room: string;
  direction: WarehouseDirection;
  goodsName: string;
  batchNo: string;
  quantity: string;
  handler: string;
  temperature: number | null;
  tempMin: number | null;
  tempMax: number | null;
  auditStatus: WarehouseAuditStatus;
  reviewer: string;
  createdBy: string;
}

export function toRecordView(r: RecordRow): RecordView {
  return {
    id: r.id,
    row: r,
    time: formatTime(r.time),
    warehouse: r.warehouseName,
    room: r.roomName ?? '',
    direction: r.direction,
    goodsName: r.goodsName,
    batchNo: r.batchNo,
    quantity: quantityText(r.quantity, r.unit),
    handler: r.handler,
    temperature: r.temperature,
    tempMin: r.tempMin,
    tempMax: r.tempMax,
    auditStatus: r.auditStatus,
    reviewer: r.reviewer ?? '',
    createdBy: r.createdBy,
  };
}

/** Whether `userId` may review the record: a pending one that someone else entered. */
export function canReview(r: Pick<RecordRow, 'auditStatus' | 'createdById'>, userId: string | undefined): boolean {
  return r.auditStatus === 'pending' && (!userId || r.createdById !== userId);
}
