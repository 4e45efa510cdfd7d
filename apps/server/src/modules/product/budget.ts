// A batch's excursion budget from the database: the periods it went through and their readings,
// given to shared/excursion-budget.ts.
//
// The periods:
// - each transport task carrying the batch that has started: from its start to its arrival (or
//   completion, or cancellation; still going: until now), over every device of the task;
// - each storage stay: the approved warehouse records of the batch number in the batch's
//   organisation, in time order, per place (the cold room or refrigerator, else the warehouse);
//   a stay opens when the batch's quantity there goes above zero (an 'in' record) and closes when
//   an 'out' record brings it back to zero or below (still open: until now). The devices are those
//   bound to that place (device_bindings) during the stay, each read while it was bound.
// Everything still going on (a task not arrived, a stay not closed) runs until the `now` given.
// A reading's temperature is the decoded `temperature` sensor value.
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { excursionBudget, type BudgetProfile, type BudgetSeries, type BudgetUse, type Extreme } from '@iotc/shared/excursion-budget';
import type { Budget, BudgetPeriod } from '@iotc/shared/product';
import type { Db, Tx } from '../../db/client.ts';
import { deviceBindings, devices, productBatchTasks, transportTaskDevices, transportTasks, warehouseRecords } from '../../db/schema.ts';
import { readPackRows, sensorNumber, sensorsOf } from '../archive/reader.ts';

type Executor = Db | Tx;

/** Most readings read for one device in one period. */
const MAX_PERIOD_READINGS = 200_000;

export interface PeriodSource {
  kind: 'task' | 'storage';
  ref: string;
  label: string;
  from: Date;
  to: Date | null;
  /** Each device with the window it is read in (a bound device: while bound). */
  devices: { ref: string; deviceId: string; from: Date; to: Date | null }[];
}

export interface BatchKey {
  id: string;
  orgId: string;
  batchNo: string;
}

/** The periods of the tasks carrying the batch (`batchId`), or of one task (`taskId`), that have started. */
export async function taskPeriods(q: Executor, of: { batchId: string } | { taskId: string }): Promise<PeriodSource[]> {
  const base = q
    .select({ id: transportTasks.id, code: transportTasks.code, startedAt: transportTasks.startedAt, arrivedAt: transportTasks.arrivedAt, completedAt: transportTasks.completedAt, cancelledAt: transportTasks.cancelledAt })
    .from(transportTasks);
  const tasks = await ('batchId' in of
    ? base.innerJoin(productBatchTasks, eq(transportTasks.id, productBatchTasks.taskId)).where(and(eq(productBatchTasks.batchId, of.batchId), isNotNull(transportTasks.startedAt)))
    : base.where(and(eq(transportTasks.id, of.taskId), isNotNull(transportTasks.startedAt)))
  ).orderBy(asc(transportTasks.startedAt));
  if (tasks.length === 0) return [];
  const devs = await q
    .select({ taskId: transportTaskDevices.taskId, ref: devices.id, deviceId: devices.deviceId })
    .from(transportTaskDevices)
    .innerJoin(devices, eq(devices.id, transportTaskDevices.deviceRef))
    .where(inArray(transportTaskDevices.taskId, tasks.map((t) => t.id)))
    .orderBy(asc(transportTaskDevices.position));
  return tasks.map((t) => {
    const from = t.startedAt!;
    const to = t.arrivedAt ?? t.completedAt ?? t.cancelledAt ?? null;
    return { kind: 'task', ref: t.id, label: t.code, from, to, devices: devs.filter((d) => d.taskId === t.id).map((d) => ({ ref: d.ref, deviceId: d.deviceId, from, to })) };
  });
}

/** The batch's storage stays; a stay still open runs until `now` (epoch ms). */
export async function storagePeriods(q: Executor, batch: BatchKey, now: number): Promise<PeriodSource[]> {
  const records = await q
    .select({
      id: warehouseRecords.id,
      warehouseRef: warehouseRecords.warehouseRef,
      warehouseName: warehouseRecords.warehouseName,
      roomRef: warehouseRecords.roomRef,
      roomName: warehouseRecords.roomName,
      direction: warehouseRecords.direction,
      quantity: warehouseRecords.quantity,
      time: warehouseRecords.time,
    })
    .from(warehouseRecords)
    .where(and(eq(warehouseRecords.orgId, batch.orgId), eq(warehouseRecords.batchNo, batch.batchNo), eq(warehouseRecords.auditStatus, 'approved')))
    .orderBy(asc(warehouseRecords.time), asc(warehouseRecords.createdAt));
  const open = new Map<string, { qty: number; period: PeriodSource | null }>();
  const periods: PeriodSource[] = [];
  const placeOf = new Map<PeriodSource, string>();
  for (const r of records) {
    const place = r.roomRef ?? r.warehouseRef;
    const key = place ?? `${r.warehouseName}/${r.roomName ?? ''}`;
    const at = open.get(key) ?? { qty: 0, period: null };
    at.qty += r.direction === 'in' ? r.quantity : -r.quantity;
    if (at.qty > 0 && !at.period) {
      at.period = { kind: 'storage', ref: r.id, label: r.roomName ? `${r.warehouseName} / ${r.roomName}` : r.warehouseName, from: r.time, to: null, devices: [] };
      periods.push(at.period);
      if (place) placeOf.set(at.period, place);
    } else if (at.qty <= 0 && at.period) {
      at.period.to = r.time;
      at.period = null;
    }
    open.set(key, at);
  }
  // The devices bound to each stay's place while it lasted: the bindings of every place read once.
  const places = [...new Set(placeOf.values())];
  if (places.length === 0) return periods;
  const bindings = await q
    .select({ assetRef: deviceBindings.assetRef, ref: deviceBindings.deviceRef, deviceId: deviceBindings.deviceId, boundAt: deviceBindings.boundAt, unboundAt: deviceBindings.unboundAt })
    .from(deviceBindings)
    .where(and(inArray(deviceBindings.assetRef, places), isNotNull(deviceBindings.deviceRef)))
    .orderBy(asc(deviceBindings.boundAt));
  for (const p of periods) {
    const place = placeOf.get(p);
    if (!place) continue;
    const end = p.to?.getTime() ?? now;
    p.devices = bindings
      .filter((b) => b.assetRef === place && b.boundAt.getTime() < end && (!b.unboundAt || b.unboundAt > p.from))
      .map((b) => ({
        ref: b.ref!,
        deviceId: b.deviceId,
        from: b.boundAt > p.from ? b.boundAt : p.from,
        to: b.unboundAt && (!p.to || b.unboundAt < p.to) ? b.unboundAt : p.to,
      }));
  }
  return periods;
}

export async function periodsOf(q: Executor, batch: BatchKey, now: number): Promise<PeriodSource[]> {
  const all = [...(await taskPeriods(q, { batchId: batch.id })), ...(await storagePeriods(q, batch, now))];
  return all.sort((a, b) => a.from.getTime() - b.from.getTime());
}

async function seriesOf(q: Executor, d: PeriodSource['devices'][number], now: number): Promise<BudgetSeries> {
  const to = d.to?.getTime() ?? now;
  const rows = await readPackRows(q, d.ref, { from: d.from.getTime(), to, toInclusive: true }, { limit: MAX_PERIOD_READINGS, fields: ['temperature'] });
  return { device: d.deviceId, readings: rows.map((p) => ({ t: Math.floor(p.timeUs / 1000), value: sensorNumber(sensorsOf(p), 'temperature') })) };
}

export interface Computed {
  use: BudgetUse;
  budget: Budget;
  periods: BudgetPeriod[];
  /** device id → device ref, for the alarms. */
  deviceRefs: Map<string, string>;
}

const extreme = (e: Extreme | null) => (e ? { value: e.value, at: new Date(e.t).toISOString(), device: e.device } : null);

/** The budget of a batch under a profile at `now` (epoch ms): every open period runs until then. */
export async function computeBudget(q: Executor, batch: BatchKey, profile: BudgetProfile, now = Date.now()): Promise<Computed> {
  return budgetOf(q, await periodsOf(q, batch, now), profile, now);
}

/** One task's trip alone under a profile (the shipment report's section): its period as if it were the whole life. */
export async function tripBudget(q: Executor, taskId: string, profile: BudgetProfile, now = Date.now()): Promise<Computed> {
  return budgetOf(q, await taskPeriods(q, { taskId }), profile, now);
}

async function budgetOf(q: Executor, sources: PeriodSource[], profile: BudgetProfile, now: number): Promise<Computed> {
  const inputs = [];
  const deviceRefs = new Map<string, string>();
  for (const s of sources) {
    const series: BudgetSeries[] = [];
    for (const d of s.devices) {
      deviceRefs.set(d.deviceId, d.ref);
      series.push(await seriesOf(q, d, now));
    }
    inputs.push({ from: s.from.getTime(), to: s.to?.getTime() ?? now, series });
  }
  const use = excursionBudget(profile, inputs);
  return {
    use,
    deviceRefs,
    budget: {
      above: use.above,
      below: use.below,
      absoluteMax: { limit: profile.absoluteMaxC, crossed: use.absoluteMax.crossed, extreme: extreme(use.absoluteMax.extreme) },
      absoluteMin: { limit: profile.absoluteMinC, crossed: use.absoluteMin.crossed, extreme: extreme(use.absoluteMin.extreme) },
    },
    periods: sources.map((s, i) => {
      const u = use.periods[i]!;
      return {
        kind: s.kind,
        ref: s.ref,
        label: s.label,
        from: s.from.toISOString(),
        to: s.to?.toISOString() ?? null,
        devices: [...new Set(s.devices.map((d) => d.deviceId))],
        aboveMin: u.aboveMin,
        belowMin: u.belowMin,
        coveredMin: u.coveredMin,
        readings: u.readings,
        maxC: u.max?.value ?? null,
        minC: u.min?.value ?? null,
      };
    }),
  };
}
