// The SQL of transport tasks: rows as the API shows them (organisation, vehicle or container,
// devices in order, open alarms, abnormal and why), the code of the day, the story, locks, and
// the latest states of the tasks' first devices.
import { and, asc, count, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { TaskAbnormalReason, TaskAlarm, TaskDetection, TaskEventKind, TaskEventRow, TaskRow, TaskStop, Contact, RouteSource } from '@iotc/shared/transport';
import { LOCKS, xactLockKeys, type Db, type Tx } from '../../db/client.ts';
import { anyUuid, isoOrNull } from '../../db/list.ts';
import { assets, deviceStates, devices, orgs, productProfiles, productTaskProfiles, transportTaskDevices, transportTaskEvents, transportTasks } from '../../db/schema.ts';

type Q = Db | Tx;

/** What the settings column holds (the rest of the task is columns). */
export interface TaskSettings {
  originAddress: string;
  destinationAddress: string;
  /** The stops in order (absent on tasks saved before stops existed). */
  stops?: TaskStop[];
  routeSource: RouteSource;
  route: [number, number][];
  tempMin: number | null;
  tempMax: number | null;
  humidityMin: number | null;
  humidityMax: number | null;
  alarm: TaskAlarm;
  recipients: Contact[];
  detection: TaskDetection;
  contacts: Contact[];
  remark: string;
}

/** In transit and past its planned arrival (one clock, the database's, for the filter and the flag). */
export const lateSql: SQL<boolean> = sql<boolean>`coalesce(${transportTasks.status} = 'in_transit' and ${transportTasks.plannedArrival} < now(), false)`;
/** In transit or arrived with an open alarm of the task. */
export const alarmedSql: SQL<boolean> = sql<boolean>`(${transportTasks.status} in ('in_transit', 'arrived') and exists (select 1 from alarms a where a.task_id = ${transportTasks.id} and a.status = 'active'))`;
export const abnormalSql: SQL<boolean> = sql<boolean>`(${lateSql} or ${alarmedSql})`;
const activeAlarmsSql = sql<number>`(select count(*)::int from alarms a where a.task_id = ${transportTasks.id} and a.status = 'active')`;

export function selectTasks(q: Q) {
  return q
    .select({
      t: transportTasks,
      orgName: orgs.name,
      assetKind: assets.kind,
      assetCode: assets.code,
      assetName: assets.name,
      activeAlarms: activeAlarmsSql,
      late: lateSql,
      alarmed: alarmedSql,
      profileId: productTaskProfiles.profileId,
      profileName: productProfiles.name,
    })
    .from(transportTasks)
    .innerJoin(orgs, eq(orgs.id, transportTasks.orgId))
    .leftJoin(assets, eq(assets.id, transportTasks.assetRef))
    // The product profile the trip is judged against (issue 27 item 3).
    .leftJoin(productTaskProfiles, eq(productTaskProfiles.taskId, transportTasks.id))
    .leftJoin(productProfiles, eq(productProfiles.id, productTaskProfiles.profileId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectTasks>['execute']>>[number];

/** The devices of each task, in their order. */
export async function devicesOf(q: Q, taskIds: string[]): Promise<Map<string, { id: string; deviceId: string; name: string }[]>> {
  const out = new Map<string, { id: string; deviceId: string; name: string }[]>();
  if (taskIds.length === 0) return out;
  const rows = await q
    .select({ taskId: transportTaskDevices.taskId, id: devices.id, deviceId: devices.deviceId, name: devices.name })
    .from(transportTaskDevices)
    .innerJoin(devices, eq(devices.id, transportTaskDevices.deviceRef))
    .where(anyUuid(transportTaskDevices.taskId, taskIds))
    .orderBy(asc(transportTaskDevices.taskId), asc(transportTaskDevices.position));
  for (const r of rows) {
    const list = out.get(r.taskId) ?? [];
    list.push({ id: r.id, deviceId: r.deviceId, name: r.name });
    out.set(r.taskId, list);
  }
  return out;
}

function onTimeOf(t: Selected['t']): boolean | null {
  const done = t.arrivedAt ?? t.completedAt;
  if (!t.plannedArrival || !done) return null;
  return done.getTime() <= t.plannedArrival.getTime();
}

export function toTaskRow(r: Selected, devs: { id: string; deviceId: string; name: string }[]): TaskRow {
  const t = r.t;
  const s = t.settings as TaskSettings;
  const reasons: TaskAbnormalReason[] = [];
  if (r.alarmed === true) reasons.push('alarm');
  if (r.late === true) reasons.push('late');
  return {
    id: t.id,
    code: t.code,
    orgId: t.orgId,
    orgName: r.orgName,
    templateId: t.templateId,
    status: t.status,
    abnormal: reasons.length > 0,
    abnormalReasons: reasons,
    activeAlarms: Number(r.activeAlarms),
    goodsName: t.goodsName,
    goodsQuantity: t.goodsQuantity,
    goodsUnit: t.goodsUnit,
    goodsValue: t.goodsValue,
    highValue: t.highValue,
    customer: t.customer,
    asset: t.assetRef && r.assetKind ? { id: t.assetRef, kind: r.assetKind, code: r.assetCode!, name: r.assetName! } : null,
    devices: devs,
    origin: { ...(t.originPlaceId ? { placeId: t.originPlaceId } : {}), name: t.originName, address: s.originAddress, lat: t.originLat, lon: t.originLon, radiusM: t.originRadiusM },
    destination: { ...(t.destinationPlaceId ? { placeId: t.destinationPlaceId } : {}), name: t.destinationName, address: s.destinationAddress, lat: t.destinationLat, lon: t.destinationLon, radiusM: t.destinationRadiusM },
    stops: s.stops ?? [],
    routeSource: s.routeSource,
    route: s.route,
    plannedDistanceM: t.plannedDistanceM,
    plannedStart: isoOrNull(t.plannedStart),
    plannedArrival: isoOrNull(t.plannedArrival),
    driverName: t.driverName,
    driverPhone: t.driverPhone,
    contacts: s.contacts,
    remark: s.remark,
    profile: r.profileId && r.profileName !== null ? { id: r.profileId, name: r.profileName } : null,
    tempMin: s.tempMin,
    tempMax: s.tempMax,
    humidityMin: s.humidityMin,
    humidityMax: s.humidityMax,
    alarm: s.alarm,
    recipients: s.recipients,
    detection: s.detection,
    startedAt: isoOrNull(t.startedAt),
    startMode: t.startMode,
    arrivedAt: isoOrNull(t.arrivedAt),
    arriveMode: t.arriveMode,
    completedAt: isoOrNull(t.completedAt),
    cancelledAt: isoOrNull(t.cancelledAt),
    cancelReason: t.cancelReason,
    onTime: onTimeOf(t),
    createdBy: t.createdBy,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** Selected rows as API rows (their devices read in one query). */
export async function taskRows(q: Q, rows: Selected[]): Promise<TaskRow[]> {
  const devs = await devicesOf(
    q,
    rows.map((r) => r.t.id),
  );
  return rows.map((r) => toTaskRow(r, devs.get(r.t.id) ?? []));
}

export async function taskById(q: Q, id: string): Promise<TaskRow | undefined> {
  const rows = await selectTasks(q).where(eq(transportTasks.id, id));
  return (await taskRows(q, rows))[0];
}

/**
 * `TT-YYYYMMDD-NNNN`: the UTC day and the number of that day within the organisation, drawn
 * under a transaction-scoped lock per organisation (the unique (org_id, code) index is the last guard).
 */
export async function nextCode(tx: Tx, orgId: string, now: Date): Promise<string> {
  await xactLockKeys(tx, LOCKS.taskCode, [orgId]);
  const prefix = `TT-${now.toISOString().slice(0, 10).replaceAll('-', '')}-`;
  const [last] = await tx
    .select({ code: transportTasks.code })
    .from(transportTasks)
    .where(and(eq(transportTasks.orgId, orgId), sql`${transportTasks.code} like ${`${prefix}%`}`))
    // Numbers past 9999 grow a digit: order by length first so they still come last.
    .orderBy(sql`length(${transportTasks.code}) desc`, sql`${transportTasks.code} desc`)
    .limit(1);
  const n = last ? Number(last.code.slice(prefix.length)) + 1 : 1;
  return `${prefix}${String(n).padStart(4, '0')}`;
}

export async function addEvent(q: Q, taskId: string, actor: string | null, kind: TaskEventKind, detail: Record<string, unknown> = {}, at?: Date) {
  await q.insert(transportTaskEvents).values({ taskId, actor, kind, detail, ...(at ? { at } : {}) });
}

export async function eventsOf(q: Q, taskId: string): Promise<TaskEventRow[]> {
  const rows = await q.select().from(transportTaskEvents).where(eq(transportTaskEvents.taskId, taskId)).orderBy(asc(transportTaskEvents.id));
  return rows.map((r) => ({ id: r.id, at: r.at.toISOString(), kind: r.kind as TaskEventKind, actor: r.actor, detail: r.detail as Record<string, unknown> }));
}

export async function setDevices(tx: Tx, taskId: string, deviceRefs: string[]) {
  await tx.delete(transportTaskDevices).where(eq(transportTaskDevices.taskId, taskId));
  if (deviceRefs.length) await tx.insert(transportTaskDevices).values(deviceRefs.map((deviceRef, position) => ({ taskId, deviceRef, position })));
}

/**
 * The product profile the task is judged against: one or none (product_task_profiles). A change
 * makes the stored budgets of the task's batches stale (they may take the task's profile).
 */
export async function setTaskProfile(tx: Tx, taskId: string, profileId: string | null) {
  const [was] = await tx.select({ profileId: productTaskProfiles.profileId }).from(productTaskProfiles).where(eq(productTaskProfiles.taskId, taskId));
  if ((was?.profileId ?? null) === profileId) return;
  await tx.delete(productTaskProfiles).where(eq(productTaskProfiles.taskId, taskId));
  if (profileId) await tx.insert(productTaskProfiles).values({ taskId, profileId });
  await tx.execute(sql`update product_batches set computed_at = null where id in (select batch_id from product_batch_tasks where task_id = ${taskId})`);
}

export async function deviceRefsOf(q: Q, taskId: string): Promise<string[]> {
  const rows = await q
    .select({ ref: transportTaskDevices.deviceRef })
    .from(transportTaskDevices)
    .where(eq(transportTaskDevices.taskId, taskId))
    .orderBy(asc(transportTaskDevices.position));
  return rows.map((r) => r.ref);
}

/**
 * Holds, until the transaction ends, the task's lock, then its devices' locks (so two tasks
 * sharing a device start one at a time), and the task's row. Always task first, then devices in
 * one sorted statement: no two lockers wait on each other.
 */
export async function lockTask(tx: Tx, id: string) {
  await xactLockKeys(tx, LOCKS.task, [id]);
  const [row] = await tx.select().from(transportTasks).where(eq(transportTasks.id, id)).for('update');
  if (!row) return undefined;
  const deviceRefs = await deviceRefsOf(tx, id);
  await xactLockKeys(tx, LOCKS.task, deviceRefs);
  return { row, deviceRefs };
}

/** Whether one of the devices is on another task that is in transit or arrived. */
export async function devicesBusy(q: Q, taskId: string, deviceRefs: string[]): Promise<boolean> {
  if (deviceRefs.length === 0) return false;
  const [row] = await q
    .select({ n: count() })
    .from(transportTaskDevices)
    .innerJoin(transportTasks, eq(transportTasks.id, transportTaskDevices.taskId))
    .where(and(anyUuid(transportTaskDevices.deviceRef, deviceRefs), ne(transportTasks.id, taskId), inArray(transportTasks.status, ['in_transit', 'arrived'])));
  return Number(row?.n ?? 0) > 0;
}

/** Latest states of devices, by device. */
export async function statesOf(q: Q, deviceRefs: string[]) {
  if (deviceRefs.length === 0) return new Map<string, typeof deviceStates.$inferSelect>();
  const rows = await q.select().from(deviceStates).where(anyUuid(deviceStates.deviceRef, deviceRefs));
  return new Map(rows.map((r) => [r.deviceRef, r]));
}
