// The verify screen's choice in the address: `scope` (task | device | warehouse) and the picked
// `taskId`, `deviceId` with `from` / `to` (ISO 8601 UTC), or for the warehouse a `batch` number.
// A single warehouse record (`recordId`, or `warehouseRecordId` as links made before batches
// read) still opens while no batch is picked. A device range defaults to the last 24 hours.
import { MAX_BATCH_NO, MAX_LEDGER_RANGE_DAYS } from '@iotc/shared/ledger/api';
import type { LedgerScope } from '../api/records.ts';
import type { PickerKind } from '../api/pickers.ts';

export interface ScopeChoice {
  kind: PickerKind;
  taskId?: string;
  deviceId?: string;
  from?: string;
  to?: string;
  /** A warehouse batch number. */
  batch?: string;
  /** One warehouse record (older links). */
  recordId?: string;
}

const KINDS: readonly PickerKind[] = ['task', 'device', 'warehouse'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PARAMS = ['scope', 'taskId', 'deviceId', 'from', 'to', 'batch', 'recordId', 'warehouseRecordId'];

const uuid = (v: string | null) => (v && UUID.test(v) ? v : undefined);
const instant = (v: string | null) => (v && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : undefined);
const batchNo = (v: string | null) => {
  const b = v?.trim();
  return b && b.length <= MAX_BATCH_NO ? b : undefined;
};

export function parseScope(params: URLSearchParams): ScopeChoice {
  const recordId = uuid(params.get('recordId')) ?? uuid(params.get('warehouseRecordId'));
  const kind = KINDS.find((k) => k === params.get('scope')) ?? (recordId || params.has('batch') ? 'warehouse' : 'task');
  return {
    kind,
    taskId: uuid(params.get('taskId')),
    deviceId: uuid(params.get('deviceId')),
    from: instant(params.get('from')),
    to: instant(params.get('to')),
    batch: batchNo(params.get('batch')),
    recordId,
  };
}

export function writeScope(prev: URLSearchParams, choice: ScopeChoice): URLSearchParams {
  const next = new URLSearchParams(prev);
  for (const name of PARAMS) next.delete(name);
  next.set('scope', choice.kind);
  if (choice.kind === 'task' && choice.taskId) next.set('taskId', choice.taskId);
  if (choice.kind === 'device') {
    if (choice.deviceId) next.set('deviceId', choice.deviceId);
    if (choice.from) next.set('from', choice.from);
    if (choice.to) next.set('to', choice.to);
  }
  if (choice.kind === 'warehouse') {
    if (choice.batch) next.set('batch', choice.batch);
    else if (choice.recordId) next.set('recordId', choice.recordId);
  }
  return next;
}

/** The last 24 hours, to the minute. */
export function defaultRange(now = Date.now()): { from: string; to: string } {
  const to = Math.ceil(now / 60_000) * 60_000;
  return { from: new Date(to - 86_400_000).toISOString(), to: new Date(to).toISOString() };
}

/** The records call's scope, or null while the choice is incomplete or out of bounds. */
export function scopeOf(choice: ScopeChoice): LedgerScope | null {
  if (choice.kind === 'task') return choice.taskId ? { taskId: choice.taskId } : null;
  if (choice.kind === 'warehouse') {
    if (choice.batch) return { warehouseBatch: choice.batch };
    return choice.recordId ? { warehouseRecordId: choice.recordId } : null;
  }
  if (!choice.deviceId || !choice.from || !choice.to) return null;
  const span = Date.parse(choice.to) - Date.parse(choice.from);
  if (span <= 0 || span > MAX_LEDGER_RANGE_DAYS * 86_400_000) return null;
  return { deviceId: choice.deviceId, from: choice.from, to: choice.to };
}
