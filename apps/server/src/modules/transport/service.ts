// Transport tasks of the caller's organisation tree: the query with its status tabs and counts,
// one task with where it is now, the monitor, export, import, and the changes: create, edit,
// move through the statuses (by hand, or recognised from the track by the recogniser through
// `recognised`), copy; each written into the task's story. While a task is in transit or
// arrived its alarm settings run as a policy of its own, pushed to its recipients by a push rule
// of its own (task-policy.ts).
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, not, or, sql, type SQL } from 'drizzle-orm';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import type { ImportResult } from '@iotc/shared/asset';
import type { Page } from '@iotc/shared/envelope';
import { errorText, type ErrorCode } from '@iotc/shared/errors';
import type { I18nText, Lang } from '@iotc/shared/i18n';
import { MAX_EXPORT_ROWS, type ExportFormat } from '@iotc/shared/list';
import {
  canMoveTask,
  MAX_MONITOR_TASKS,
  TASK_HANDOVER_STATUSES,
  TASK_VIEW_STATUSES,
  taskBodySchema,
  type TaskBody,
  type TaskCounts,
  type TaskDetail,
  type TaskEventRow,
  type TaskHandover,
  type TaskLive,
  type TaskMonitorQuery,
  type TaskQuery,
  type TaskRow,
  type TaskStatus,
  type TaskTransition,
} from '@iotc/shared/transport';
import { liveProgress, plannedLengthM } from '@iotc/shared/transport-progress';
import { LOCKS, xactLockKeys, type Db, type Tx } from '../../db/client.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { alarmLevels, assets, devices, productProfiles, transportTasks, transportTemplates } from '../../db/schema.ts';
import { exportRows, type ExportFile } from '../../lib/export.ts';
import { readWorkbook, templateWorkbook, type SheetColumn } from '../../lib/sheet.ts';
import type { ClientMeta } from '../../lib/caller.ts';
import { zodIssueText } from '../../plugins/errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import {
  abnormalSql,
  addEvent,
  devicesBusy,
  eventsOf,
  lockTask,
  nextCode,
  selectTasks,
  setDevices,
  setTaskProfile,
  statesOf,
  taskById,
  taskRows,
  type TaskSettings,
} from './repo.ts';
import { syncTaskPolicy, syncTaskPushRule } from './task-policy.ts';
import { levelOfOrg, type TemplateSettings } from './templates.ts';
import { checkPlaceRefs, stopsFromLibrary } from '../place/repo.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

const SORTABLE: Sortable = {
  createdAt: transportTasks.createdAt,
  plannedStart: transportTasks.plannedStart,
  plannedArrival: transportTasks.plannedArrival,
  code: transportTasks.code,
};

const STATUS_NAMES: Record<TaskStatus, I18nText> = {
  pending: { zh: '待运输', en: 'Pending' },
  in_transit: { zh: '运输中', en: 'In transit' },
  arrived: { zh: '已到达', en: 'Arrived' },
  completed: { zh: '已完成', en: 'Completed' },
  cancelled: { zh: '已取消', en: 'Cancelled' },
};
const REASON_NAMES = { alarm: { zh: '告警', en: 'Alarm' }, late: { zh: '延误', en: 'Late' } } as const;
const YES_NO = { true: { zh: '是', en: 'Yes' }, false: { zh: '否', en: 'No' } } as const;
const ASSET_KIND_NAMES: Record<string, I18nText> = { vehicle: { zh: '车辆', en: 'Vehicle' }, container: { zh: '集装箱', en: 'Container' } };

/** The import sheet's columns (the template names them in the request language; either is read). */
const IMPORT_COLUMNS: SheetColumn[] = [
  { field: 'goodsName', header: { zh: '货物名称', en: 'Goods' }, width: 20 },
  { field: 'goodsQuantity', header: { zh: '数量', en: 'Quantity' } },
  { field: 'goodsUnit', header: { zh: '单位', en: 'Unit' } },
  { field: 'goodsValue', header: { zh: '货值', en: 'Value' } },
  { field: 'highValue', header: { zh: '高价值', en: 'High value' } },
  { field: 'customer', header: { zh: '客户', en: 'Customer' }, width: 20 },
  { field: 'assetCode', header: { zh: '车牌号或集装箱号', en: 'Vehicle or container code' }, width: 22 },
  { field: 'deviceIds', header: { zh: '设备编号', en: 'Device ids' }, width: 30 },
  { field: 'origin.name', header: { zh: '起点名称', en: 'Origin' }, width: 20 },
  { field: 'origin.lat', header: { zh: '起点纬度', en: 'Origin latitude' } },
  { field: 'origin.lon', header: { zh: '起点经度', en: 'Origin longitude' } },
  { field: 'origin.radiusM', header: { zh: '起点半径（米）', en: 'Origin radius (m)' } },
  { field: 'destination.name', header: { zh: '终点名称', en: 'Destination' }, width: 20 },
  { field: 'destination.lat', header: { zh: '终点纬度', en: 'Destination latitude' } },
  { field: 'destination.lon', header: { zh: '终点经度', en: 'Destination longitude' } },
  { field: 'destination.radiusM', header: { zh: '终点半径（米）', en: 'Destination radius (m)' } },
  { field: 'plannedStart', header: { zh: '计划出发时间', en: 'Planned start' }, width: 21 },
  { field: 'plannedArrival', header: { zh: '计划到达时间', en: 'Planned arrival' }, width: 21 },
  { field: 'driverName', header: { zh: '司机', en: 'Driver' } },
  { field: 'driverPhone', header: { zh: '司机电话', en: 'Driver phone' } },
  { field: 'tempMin', header: { zh: '温度下限', en: 'Temperature min' } },
  { field: 'tempMax', header: { zh: '温度上限', en: 'Temperature max' } },
  { field: 'remark', header: { zh: '备注', en: 'Remark' }, width: 30 },
  { field: 'alarmLevel', header: { zh: '告警等级', en: 'Alarm level' } },
  { field: 'templateName', header: { zh: '模板名称', en: 'Template' }, width: 20 },
];
const YES = new Set(['yes', 'y', 'true', '1', '是']);
const NO = new Set(['no', 'n', 'false', '0', '否', '']);
/** A time as typed (YYYY-MM-DD HH:mm[:ss]) or as Excel keeps a date cell (its wall clock as UTC). */
const WALL_CLOCK = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?Z?$/;

function columnsOf(b: TaskBody) {
  const settings: TaskSettings = {
    originAddress: b.origin.address,
    destinationAddress: b.destination.address,
    stops: b.stops,
    routeSource: b.routeSource,
    route: b.route,
    tempMin: b.tempMin,
    tempMax: b.tempMax,
    humidityMin: b.humidityMin,
    humidityMax: b.humidityMax,
    alarm: b.alarm,
    recipients: b.recipients,
    detection: b.detection,
    contacts: b.contacts,
    remark: b.remark,
  };
  return {
    templateId: b.templateId,
    goodsName: b.goodsName,
    goodsQuantity: b.goodsQuantity,
    goodsUnit: b.goodsUnit,
    goodsValue: b.goodsValue,
    highValue: b.highValue,
    customer: b.customer,
    assetRef: b.assetId,
    originPlaceId: b.origin.placeId ?? null,
    destinationPlaceId: b.destination.placeId ?? null,
    originName: b.origin.name,
    originLat: b.origin.lat,
    originLon: b.origin.lon,
    originRadiusM: b.origin.radiusM,
    destinationName: b.destination.name,
    destinationLat: b.destination.lat,
    destinationLon: b.destination.lon,
    destinationRadiusM: b.destination.radiusM,
    // The planned path's length: origin, the route's points, destination (or straight through the stops).
    plannedDistanceM: plannedLengthM(b),
    plannedStart: b.plannedStart ? new Date(b.plannedStart) : null,
    plannedArrival: b.plannedArrival ? new Date(b.plannedArrival) : null,
    driverName: b.driverName,
    driverPhone: b.driverPhone,
    settings,
  };
}

/** A task as the body that would make it again. */
function bodyOf(r: TaskRow): TaskBody {
  return taskBodySchema.parse({ ...r, orgId: undefined, assetId: r.asset?.id ?? null, deviceIds: r.devices.map((d) => d.id), profileId: r.profile?.id ?? null });
}

/** Fields compared to tell what an edit changed (instants as instants). */
function comparable(b: TaskBody): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(b)) {
    if (k === 'orgId') continue;
    out[k] = JSON.stringify(k === 'plannedStart' || k === 'plannedArrival' ? (v ? Date.parse(v as string) : null) : v);
  }
  return out;
}

/** What syncing a task's policy and push rule changed: the alarms it ended, whether the rule was written. */
interface Synced {
  ended: string[];
  pushRule: boolean;
}

export function transportTaskService(
  db: Db,
  opts: {
    audit: AuditWriter;
    /** A task's policy changed (the engine reloads policies); `ended`: alarms ended because their rule stopped. */
    onPolicyChange: (ended: string[]) => void;
    /** The task's push rule was written or removed (the push engine reads its rules again). */
    onPushRuleChange: () => void;
    /** A task was created, changed or moved by a person (the recogniser reads the live tasks again). */
    onTaskChange?: () => void;
  },
) {
  // Audited in the change's transaction; the recogniser is told once it commits (`touched`).
  const record = successRecorder(opts.audit);
  const touched = () => opts.onTaskChange?.();

  async function where(caller: Caller, q: Omit<TaskQuery, 'page' | 'size' | 'sort' | 'status'>): Promise<SQL | undefined> {
    const scope = caller.scope.within(q.orgId);
    const pattern = q.keyword ? containsPattern(q.keyword) : undefined;
    return and(
      inOrgs(transportTasks.orgId, scope),
      q.highValue ? eq(transportTasks.highValue, q.highValue === 'true') : undefined,
      q.deviceId ? sql`exists (select 1 from transport_task_devices td where td.task_id = ${transportTasks.id} and td.device_ref = ${q.deviceId})` : undefined,
      q.assetId ? eq(transportTasks.assetRef, q.assetId) : undefined,
      q.templateId ? eq(transportTasks.templateId, q.templateId) : undefined,
      q.from ? gte(transportTasks.plannedStart, new Date(q.from)) : undefined,
      q.to ? lt(transportTasks.plannedStart, new Date(q.to)) : undefined,
      pattern
        ? or(
            ilike(transportTasks.code, pattern),
            ilike(transportTasks.goodsName, pattern),
            ilike(transportTasks.customer, pattern),
            ilike(transportTasks.driverName, pattern),
            ilike(transportTasks.originName, pattern),
            ilike(transportTasks.destinationName, pattern),
          )
        : undefined,
    );
  }

  /** The status tabs: lifecycle statuses, or abnormal (either one matches). */
  function statusWhere(status: TaskQuery['status']): SQL | undefined {
    if (!status?.length) return undefined;
    const stored = status.filter((s): s is TaskStatus => s !== 'abnormal');
    return or(stored.length ? inArray(transportTasks.status, stored) : undefined, status.includes('abnormal') ? abnormalSql : undefined);
  }

  async function fullWhere(caller: Caller, q: Omit<TaskQuery, 'page' | 'size' | 'sort'>) {
    return and(await where(caller, q), statusWhere(q.status));
  }

  async function countOf(w: SQL | undefined): Promise<number> {
    const [row] = await db.select({ n: count() }).from(transportTasks).where(w);
    return Number(row?.n ?? 0);
  }

  /** The task when it belongs to the caller's tree; any other is not found, whatever the id. */
  async function visible(caller: Caller, id: string): Promise<TaskRow> {
    const scope = caller.scope.orgs;
    const row = await taskById(db, id);
    if (!row || !scope.includes(row.orgId)) throw new AppError(404, 'NOT_FOUND');
    return row;
  }

  /**
   * Devices, vehicle or container and template of the organisation's tree; the level of the
   * organisation itself; places the caller sees. Answers the body with its stops as the library has them.
   */
  async function checkRefs(caller: Caller, orgId: string, b: TaskBody): Promise<TaskBody> {
    const tree = caller.scope.within(orgId);
    const [found] = await db
      .select({ n: count() })
      .from(devices)
      .where(and(inArray(devices.id, b.deviceIds), inOrgs(devices.orgId, tree)));
    if (Number(found?.n ?? 0) !== b.deviceIds.length) throw new AppError(400, 'TASK_DEVICE_UNKNOWN');
    if (b.assetId) {
      const [a] = await db
        .select({ n: count() })
        .from(assets)
        .where(and(eq(assets.id, b.assetId), inArray(assets.kind, ['vehicle', 'container']), inOrgs(assets.orgId, tree)));
      if (Number(a?.n ?? 0) === 0) throw new AppError(400, 'TASK_ASSET_UNKNOWN');
    }
    if (b.templateId) {
      const [tp] = await db
        .select({ n: count() })
        .from(transportTemplates)
        .where(and(eq(transportTemplates.id, b.templateId), inOrgs(transportTemplates.orgId, tree)));
      if (Number(tp?.n ?? 0) === 0) throw new AppError(400, 'TASK_TEMPLATE_UNKNOWN');
    }
    if (!(await levelOfOrg(db, orgId, b.alarm.levelId))) throw new AppError(400, 'ALARM_LEVEL_UNKNOWN');
    // A product profile of one of the caller's organisations (as a batch's).
    if (b.profileId) {
      const [p] = await db.select({ orgId: productProfiles.orgId }).from(productProfiles).where(eq(productProfiles.id, b.profileId));
      if (!p || !caller.scope.has(p.orgId)) throw new AppError(400, 'PRODUCT_PROFILE_NOT_FOUND');
    }
    await checkPlaceRefs(db, caller, [b.origin.placeId, b.destination.placeId]);
    return { ...b, stops: await stopsFromLibrary(db, caller, b.stops) };
  }

  /** A new pending task and its 'created' event; answers its id and code. */
  async function insertTask(tx: Tx, actor: string, orgId: string, b: TaskBody, detail: Record<string, unknown>) {
    const now = new Date();
    const code = await nextCode(tx, orgId, now);
    const [made] = await tx
      .insert(transportTasks)
      .values({ orgId, code, ...columnsOf(b), createdBy: actor, createdAt: now, updatedAt: now })
      .returning({ id: transportTasks.id });
    await setDevices(tx, made!.id, b.deviceIds);
    await setTaskProfile(tx, made!.id, b.profileId);
    await addEvent(tx, made!.id, actor, 'created', { templateId: b.templateId, ...detail });
    return { id: made!.id, code };
  }

  /** Brings the task's policy and push rule in line with the task as it is now in the transaction. */
  async function syncPolicy(tx: Tx, id: string, actor: string | null): Promise<Synced> {
    const t = (await taskById(tx, id))!;
    const ended = await syncTaskPolicy(tx, { ...t, deviceRefs: t.devices.map((d) => d.id) }, actor);
    return { ended, pushRule: await syncTaskPushRule(tx, t) };
  }

  /** After the commit: what a sync changed goes to the engine and the push. */
  function announce(s: Synced) {
    opts.onPolicyChange(s.ended);
    if (s.pushRule) opts.onPushRuleChange();
  }

  /** Where each task is now: the first device's latest state and the progress made from it. */
  async function withLive(rows: TaskRow[]): Promise<TaskDetail[]> {
    const states = await statesOf(
      db,
      rows.map((r) => r.devices[0]?.id).filter((d): d is string => Boolean(d)),
    );
    const now = Date.now();
    const ms = (v: string | null) => (v ? Date.parse(v) : null);
    return rows.map((r) => {
      const s = r.devices[0] ? states.get(r.devices[0].id) : undefined;
      const sensors = (s?.sensors ?? {}) as { temperature?: number | null; humidity?: number | null; door?: 'open' | 'closed' };
      const position = s && s.lat !== null && s.lon !== null ? { lat: s.lat, lon: s.lon } : null;
      const p = liveProgress({
        status: r.status,
        position,
        origin: r.origin,
        destination: r.destination,
        stops: r.stops,
        route: r.route,
        plannedDistanceM: r.plannedDistanceM,
        plannedStart: ms(r.plannedStart),
        plannedArrival: ms(r.plannedArrival),
        startedAt: ms(r.startedAt),
        now,
      });
      const live: TaskLive = {
        time: s ? s.time.toISOString() : null,
        lat: position?.lat ?? null,
        lon: position?.lon ?? null,
        speed: s?.speed ?? null,
        temp: typeof sensors.temperature === 'number' ? sensors.temperature : null,
        humidity: typeof sensors.humidity === 'number' ? sensors.humidity : null,
        doorOpen: sensors.door === 'open' ? true : sensors.door === 'closed' ? false : null,
        progress: p.progress,
        remainingM: p.remainingM,
        eta: p.eta !== null ? new Date(p.eta).toISOString() : null,
      };
      return { ...r, live };
    });
  }

  async function detail(caller: Caller, id: string): Promise<TaskDetail> {
    return (await withLive([await visible(caller, id)]))[0]!;
  }

  /** Moves the locked task to `to`, stamping the time and the mode, and syncs its policy and push rule. */
  async function applyMove(
    tx: Tx,
    locked: NonNullable<Awaited<ReturnType<typeof lockTask>>>,
    to: TaskStatus,
    m: { mode: 'auto' | 'manual'; at: Date; note: string; actor: string | null },
  ): Promise<Synced> {
    const from = locked.row.status;
    const stamp =
      to === 'in_transit'
        ? // Back from arrived: it was not there yet; the start stays as it was.
          from === 'arrived'
          ? { arrivedAt: null, arriveMode: null }
          : { startedAt: m.at, startMode: m.mode }
        : to === 'arrived'
          ? { arrivedAt: m.at, arriveMode: m.mode }
          : to === 'completed'
            ? { completedAt: m.at }
            : { cancelledAt: m.at, cancelReason: m.note };
    await tx
      .update(transportTasks)
      .set({ status: to, updatedAt: new Date(), ...stamp })
      .where(eq(transportTasks.id, locked.row.id));
    if (m.mode === 'auto') await addEvent(tx, locked.row.id, null, to === 'in_transit' ? 'started' : 'arrived', { mode: 'auto' }, m.at);
    else await addEvent(tx, locked.row.id, m.actor, 'status_changed', { from, to, note: m.note, mode: 'manual' });
    return syncPolicy(tx, locked.row.id, m.actor);
  }

  function exportColumns(lang: Lang) {
    const instant = (v: string | null) => (v ? new Date(v) : null);
    const range = (min: number | null, max: number | null) => (min === null && max === null ? '' : `${min ?? ''} ~ ${max ?? ''}`);
    return [
      { header: { zh: '任务编号', en: 'Code' }, value: (r: TaskRow) => r.code, width: 20 },
      { header: { zh: '状态', en: 'Status' }, value: (r: TaskRow) => STATUS_NAMES[r.status][lang] },
      { header: { zh: '异常', en: 'Abnormal' }, value: (r: TaskRow) => r.abnormalReasons.map((x) => REASON_NAMES[x][lang]).join(lang === 'zh' ? '、' : ', ') },
      { header: { zh: '未结束告警', en: 'Open alarms' }, value: (r: TaskRow) => r.activeAlarms },
      { header: { zh: '货物名称', en: 'Goods' }, value: (r: TaskRow) => r.goodsName, width: 20 },
      { header: { zh: '数量', en: 'Quantity' }, value: (r: TaskRow) => r.goodsQuantity },
      { header: { zh: '单位', en: 'Unit' }, value: (r: TaskRow) => r.goodsUnit },
      { header: { zh: '货值', en: 'Value' }, value: (r: TaskRow) => r.goodsValue },
      { header: { zh: '高价值', en: 'High value' }, value: (r: TaskRow) => YES_NO[`${r.highValue}`][lang] },
      { header: { zh: '客户', en: 'Customer' }, value: (r: TaskRow) => r.customer, width: 20 },
      { header: { zh: '车辆/集装箱', en: 'Vehicle / container' }, value: (r: TaskRow) => (r.asset ? `${ASSET_KIND_NAMES[r.asset.kind]?.[lang] ?? r.asset.kind} ${r.asset.code}` : ''), width: 22 },
      { header: { zh: '设备', en: 'Devices' }, value: (r: TaskRow) => r.devices.map((d) => d.deviceId).join(', '), width: 30 },
      { header: { zh: '起点', en: 'Origin' }, value: (r: TaskRow) => r.origin.name, width: 20 },
      { header: { zh: '终点', en: 'Destination' }, value: (r: TaskRow) => r.destination.name, width: 20 },
      { header: { zh: '计划里程（公里）', en: 'Planned distance (km)' }, value: (r: TaskRow) => Math.round(r.plannedDistanceM / 100) / 10 },
      { header: { zh: '计划出发时间', en: 'Planned start' }, value: (r: TaskRow) => instant(r.plannedStart), width: 21 },
      { header: { zh: '计划到达时间', en: 'Planned arrival' }, value: (r: TaskRow) => instant(r.plannedArrival), width: 21 },
      { header: { zh: '出发时间', en: 'Started' }, value: (r: TaskRow) => instant(r.startedAt), width: 21 },
      { header: { zh: '到达时间', en: 'Arrived' }, value: (r: TaskRow) => instant(r.arrivedAt), width: 21 },
      { header: { zh: '完成时间', en: 'Completed' }, value: (r: TaskRow) => instant(r.completedAt), width: 21 },
      { header: { zh: '准时', en: 'On time' }, value: (r: TaskRow) => (r.onTime === null ? '' : YES_NO[`${r.onTime}`][lang]) },
      { header: { zh: '温度范围（°C）', en: 'Temperature range (°C)' }, value: (r: TaskRow) => range(r.tempMin, r.tempMax) },
      { header: { zh: '司机', en: 'Driver' }, value: (r: TaskRow) => r.driverName },
      { header: { zh: '司机电话', en: 'Driver phone' }, value: (r: TaskRow) => r.driverPhone },
      { header: { zh: '取消原因', en: 'Cancel reason' }, value: (r: TaskRow) => r.cancelReason, width: 24 },
      { header: { zh: '备注', en: 'Remark' }, value: (r: TaskRow) => r.remark, width: 30 },
      { header: { zh: '创建人', en: 'Created by' }, value: (r: TaskRow) => r.createdBy },
      { header: { zh: '创建时间', en: 'Created' }, value: (r: TaskRow) => new Date(r.createdAt), width: 21 },
      { header: { zh: '组织', en: 'Organisation' }, value: (r: TaskRow) => r.orgName, width: 24 },
    ];
  }

  return {
    async list(caller: Caller, q: TaskQuery): Promise<Page<TaskRow>> {
      const w = await fullWhere(caller, q);
      const { limit, offset } = limitOffset(q);
      const [rows, total] = await Promise.all([
        selectTasks(db)
          .where(w)
          .orderBy(...orderBy(q.sort, SORTABLE, 'createdAt,desc', transportTasks.id))
          .limit(limit)
          .offset(offset),
        countOf(w),
      ]);
      return toPage(await taskRows(db, rows), total, q);
    },

    /** How many tasks each status tab holds for the same filters. */
    async counts(caller: Caller, q: Omit<TaskQuery, 'page' | 'size' | 'sort' | 'status'>): Promise<TaskCounts> {
      const w = await where(caller, q);
      const status = (s: string) => sql<number>`count(*) filter (where ${transportTasks.status} = ${s})::int`;
      const [row] = await db
        .select({
          all: sql<number>`count(*)::int`,
          pending: status('pending'),
          in_transit: status('in_transit'),
          arrived: status('arrived'),
          completed: status('completed'),
          cancelled: status('cancelled'),
          abnormal: sql<number>`count(*) filter (where ${abnormalSql})::int`,
        })
        .from(transportTasks)
        .where(w);
      const out: TaskCounts = { all: Number(row?.all ?? 0) } as TaskCounts;
      for (const s of TASK_VIEW_STATUSES) out[s] = Number(row?.[s] ?? 0);
      return out;
    },

    get: detail,

    async events(caller: Caller, id: string): Promise<TaskEventRow[]> {
      await visible(caller, id);
      return eventsOf(db, id);
    },

    /** For `orgId` of the caller's tree, or the caller's organisation. */
    async create(caller: Caller, body: TaskBody, meta: ClientMeta): Promise<TaskDetail> {
      const orgId = body.orgId ?? caller.orgId;
      if (!caller.scope.has(orgId)) throw new AppError(404, 'NOT_FOUND');
      body = await checkRefs(caller, orgId, body);
      const made = await db.transaction(async (tx) => {
        const m = await insertTask(tx, caller.account, orgId, body, {});
        await record(tx, caller, orgId, 'transport_task_create', m.code, meta);
        return m;
      });
      touched();
      return detail(caller, made.id);
    },

    /** Changes everything but the organisation; refused once completed or cancelled. An in-transit or arrived task's policy follows. */
    async update(caller: Caller, id: string, body: TaskBody, meta: ClientMeta): Promise<TaskDetail> {
      const before = await visible(caller, id);
      if (before.status === 'completed' || before.status === 'cancelled') throw new AppError(409, 'TASK_CLOSED');
      body = await checkRefs(caller, before.orgId, body);
      const was = comparable(bodyOf(before));
      const next = comparable(body);
      const changed = Object.keys(next).filter((k) => next[k] !== was[k]);
      if (changed.length === 0) return detail(caller, id);
      const synced = await db.transaction(async (tx) => {
        const locked = await lockTask(tx, id);
        if (!locked) throw new AppError(404, 'NOT_FOUND');
        if (locked.row.status === 'completed' || locked.row.status === 'cancelled') throw new AppError(409, 'TASK_CLOSED');
        const running = locked.row.status === 'in_transit' || locked.row.status === 'arrived';
        // A running task takes on no device of another running task (as when starting).
        if (running) {
          await xactLockKeys(tx, LOCKS.task, body.deviceIds.filter((d) => !locked.deviceRefs.includes(d)));
          if (await devicesBusy(tx, id, body.deviceIds)) throw new AppError(409, 'TASK_DEVICE_BUSY');
        }
        await tx
          .update(transportTasks)
          .set({ ...columnsOf(body), updatedAt: new Date() })
          .where(eq(transportTasks.id, id));
        await setDevices(tx, id, body.deviceIds);
        await setTaskProfile(tx, id, body.profileId);
        await addEvent(tx, id, caller.account, 'updated', { changed });
        await record(tx, caller, before.orgId, 'transport_task_update', before.code, meta);
        return running ? syncPolicy(tx, id, caller.account) : null;
      });
      if (synced) announce(synced);
      touched();
      return detail(caller, id);
    },

    /** A move by hand along TASK_TRANSITIONS; cancelling needs a reason; starting needs devices free of other running tasks. */
    async transition(caller: Caller, id: string, body: TaskTransition, meta: ClientMeta): Promise<TaskDetail> {
      const before = await visible(caller, id);
      const { to, note } = body;
      const check = (status: TaskStatus) => {
        if (status === 'completed' || status === 'cancelled') throw new AppError(409, 'TASK_CLOSED');
        if (!canMoveTask(status, to)) throw new AppError(409, 'TASK_TRANSITION');
      };
      check(before.status);
      if (to === 'cancelled' && note === '') throw new AppError(400, 'TASK_CANCEL_REASON_REQUIRED');
      const synced = await db.transaction(async (tx) => {
        const locked = await lockTask(tx, id);
        if (!locked) throw new AppError(404, 'NOT_FOUND');
        // Read again under the lock: a concurrent move (or the recogniser) may have come first.
        check(locked.row.status);
        if (to === 'in_transit' && (await devicesBusy(tx, id, locked.deviceRefs))) throw new AppError(409, 'TASK_DEVICE_BUSY');
        await record(tx, caller, before.orgId, 'transport_task_transition', `${before.code} ${before.status} -> ${to}`, meta);
        return applyMove(tx, locked, to, { mode: 'manual', at: new Date(), note, actor: caller.account });
      });
      announce(synced);
      touched();
      return detail(caller, id);
    },

    /**
     * The goods changed hands while the task is in transit or arrived: a `handover` event in its
     * story at the hand-over's time (the task itself does not change).
     */
    async handover(caller: Caller, id: string, body: TaskHandover, meta: ClientMeta): Promise<TaskDetail> {
      const before = await visible(caller, id);
      const check = (status: TaskStatus) => {
        if (!TASK_HANDOVER_STATUSES.includes(status)) throw new AppError(409, 'TASK_HANDOVER_STATUS');
      };
      check(before.status);
      const { at, ...fields } = body;
      await db.transaction(async (tx) => {
        const locked = await lockTask(tx, id);
        if (!locked) throw new AppError(404, 'NOT_FOUND');
        // Read again under the lock: a concurrent completion or cancel may have come first.
        check(locked.row.status);
        await addEvent(tx, id, caller.account, 'handover', fields, at ? new Date(at) : undefined);
        await record(tx, caller, before.orgId, 'transport_task_handover', `${before.code} ${body.from} -> ${body.to}`, meta);
      });
      // Not `touched`: the task's status and devices stay as they were, so the recogniser has nothing to read again.
      return detail(caller, id);
    },

    /** A new pending task with the same settings and devices, a new code and no times. */
    async copy(caller: Caller, id: string, meta: ClientMeta): Promise<TaskDetail> {
      const source = await visible(caller, id);
      // The template may be gone since; the copy then simply has none.
      const body = await checkRefs(caller, source.orgId, { ...bodyOf(source), plannedStart: null, plannedArrival: null });
      const made = await db.transaction(async (tx) => {
        const m = await insertTask(tx, caller.account, source.orgId, body, { copiedFrom: source.id });
        await addEvent(tx, source.id, caller.account, 'copied', { copyId: m.id, code: m.code });
        await record(tx, caller, source.orgId, 'transport_task_copy', `${source.code} -> ${m.code}`, meta);
        return m;
      });
      touched();
      return detail(caller, made.id);
    },

    /** Tasks in transit or arrived with where they are now, abnormal ones first. */
    async monitor(caller: Caller, q: TaskMonitorQuery): Promise<TaskDetail[]> {
      const w = and(
        await where(caller, { keyword: q.keyword, orgId: q.orgId }),
        inArray(transportTasks.status, ['in_transit', 'arrived']),
        q.abnormal === 'true' ? abnormalSql : q.abnormal === 'false' ? not(abnormalSql) : undefined,
      );
      const rows = await selectTasks(db)
        .where(w)
        .orderBy(desc(abnormalSql), asc(transportTasks.plannedArrival), asc(transportTasks.code))
        .limit(MAX_MONITOR_TASKS);
      return withLive(await taskRows(db, rows));
    },

    async export(caller: Caller, q: TaskQuery, format: ExportFormat, lang: Lang, tz: string): Promise<ExportFile> {
      const w = await fullWhere(caller, q);
      if ((await countOf(w)) > MAX_EXPORT_ROWS) throw new AppError(400, 'EXPORT_TOO_LARGE');
      const rows = await taskRows(
        db,
        await selectTasks(db)
          .where(w)
          .orderBy(...orderBy(q.sort, SORTABLE, 'createdAt,desc', transportTasks.id))
          .limit(MAX_EXPORT_ROWS),
      );
      return exportRows({
        format,
        lang,
        timezone: tz,
        name: { zh: '运输任务', en: 'transport-tasks' },
        sheet: { zh: '运输任务', en: 'Transport tasks' },
        columns: exportColumns(lang),
        rows,
      });
    },

    /** An empty import sheet with the header row in the request language. */
    importTemplate: (lang: Lang) => templateWorkbook(IMPORT_COLUMNS, lang, { zh: '运输任务', en: 'Transport tasks' }),

    /**
     * Tasks of the caller's organisation from an .xlsx sheet (times in the request's time zone):
     * all rows, or with any error none. A row naming a template takes its settings for what the
     * row leaves empty.
     */
    async import(caller: Caller, file: Buffer, lang: Lang, tz: string, meta: ClientMeta): Promise<ImportResult> {
      const rows = await readWorkbook(file, IMPORT_COLUMNS);
      const orgId = caller.orgId;
      const tree = caller.scope.orgs;
      const deviceKeys = new Map(
        (await db.select({ id: devices.id, key: devices.deviceId }).from(devices).where(inOrgs(devices.orgId, tree))).map((d) => [d.key, d.id]),
      );
      const assetCodes = new Map<string, string>();
      // A vehicle wins over a container of the same code.
      for (const a of await db
        .select({ id: assets.id, code: assets.code, kind: assets.kind })
        .from(assets)
        .where(and(inArray(assets.kind, ['vehicle', 'container']), inOrgs(assets.orgId, tree)))
        .orderBy(desc(assets.kind))) {
        assetCodes.set(a.code, a.id);
      }
      const templates = new Map(
        (await db.select({ id: transportTemplates.id, name: transportTemplates.name, settings: transportTemplates.settings }).from(transportTemplates).where(eq(transportTemplates.orgId, orgId))).map(
          (t) => [t.name, { id: t.id, settings: t.settings as TemplateSettings }],
        ),
      );
      // A level by its code or its name in either language (a temperature range needs one, from the row or the template).
      const levels = new Map<string, string>();
      for (const l of await db.select().from(alarmLevels).where(eq(alarmLevels.orgId, orgId))) {
        for (const key of [l.code, l.nameZh, l.nameEn]) levels.set(key.trim().toLowerCase(), l.id);
      }
      const errors: ImportResult['errors'] = [];
      const valid: TaskBody[] = [];
      const levelOk = new Map<string, boolean>();
      for (const r of rows) {
        const v = r.values;
        const rowErrors: ImportResult['errors'] = [];
        const fail = (field: string, code: ErrorCode) => rowErrors.push({ row: r.row, field, message: errorText(code, lang) });
        const text = (field: string) => v[field] ?? '';
        const num = (field: string): number | undefined => {
          if (text(field) === '') return undefined;
          const n = Number(text(field));
          if (!Number.isFinite(n)) fail(field, 'IMPORT_NUMBER');
          return n;
        };
        const time = (field: string): string | null => {
          if (text(field) === '') return null;
          const m = WALL_CLOCK.exec(text(field));
          const d = m ? dayjs.tz(`${m[1]} ${m[2]!.length === 5 ? `${m[2]}:00` : m[2]}`, tz) : null;
          if (!d || !d.isValid()) {
            fail(field, 'IMPORT_TIME_FORMAT');
            return null;
          }
          return d.toDate().toISOString();
        };
        const tplName = text('templateName');
        const tpl = tplName ? templates.get(tplName) : undefined;
        if (tplName && !tpl) fail('templateName', 'TASK_TEMPLATE_UNKNOWN');
        const base: Partial<TemplateSettings> = tpl?.settings ?? {};
        const place = (key: 'origin' | 'destination') => {
          const from = base[key];
          return {
            ...(from ?? {}),
            name: text(`${key}.name`) || (from?.name ?? ''),
            lat: num(`${key}.lat`) ?? from?.lat,
            lon: num(`${key}.lon`) ?? from?.lon,
            radiusM: num(`${key}.radiusM`) ?? from?.radiusM,
          };
        };
        const hv = text('highValue').toLowerCase();
        if (!YES.has(hv) && !NO.has(hv)) fail('highValue', 'IMPORT_YES_NO');
        const deviceIds: string[] = [];
        for (const key of text('deviceIds').split(/[,，;；\s]+/).filter(Boolean)) {
          const ref = deviceKeys.get(key);
          if (ref) deviceIds.push(ref);
          else fail('deviceIds', 'TASK_DEVICE_UNKNOWN');
        }
        const assetId = text('assetCode') ? (assetCodes.get(text('assetCode')) ?? null) : null;
        if (text('assetCode') && !assetId) fail('assetCode', 'TASK_ASSET_UNKNOWN');
        const levelId = text('alarmLevel') ? levels.get(text('alarmLevel').toLowerCase()) : base.alarm?.levelId;
        if (text('alarmLevel') && !levelId) fail('alarmLevel', 'ALARM_LEVEL_UNKNOWN');
        const raw = {
          ...base,
          alarm: { ...(base.alarm ?? {}), levelId: levelId ?? null },
          templateId: tpl?.id ?? null,
          goodsName: text('goodsName'),
          goodsQuantity: num('goodsQuantity') ?? null,
          goodsUnit: text('goodsUnit'),
          goodsValue: num('goodsValue') ?? null,
          highValue: YES.has(hv),
          customer: text('customer'),
          assetId,
          deviceIds,
          origin: place('origin'),
          destination: place('destination'),
          plannedStart: time('plannedStart'),
          plannedArrival: time('plannedArrival'),
          driverName: text('driverName'),
          driverPhone: text('driverPhone'),
          tempMin: num('tempMin') ?? base.tempMin ?? null,
          tempMax: num('tempMax') ?? base.tempMax ?? null,
          remark: text('remark'),
        };
        if (rowErrors.length) {
          errors.push(...rowErrors);
          continue;
        }
        const parsed = taskBodySchema.safeParse(raw);
        if (!parsed.success) {
          for (const issue of parsed.error.issues) errors.push({ row: r.row, field: issue.path.join('.') || 'row', message: zodIssueText(issue, lang) });
          continue;
        }
        const chosen = parsed.data.alarm.levelId;
        if (chosen) {
          if (!levelOk.has(chosen)) levelOk.set(chosen, await levelOfOrg(db, orgId, chosen));
          if (!levelOk.get(chosen)) {
            errors.push({ row: r.row, field: 'alarm.levelId', message: errorText('ALARM_LEVEL_UNKNOWN', lang) });
            continue;
          }
        }
        valid.push(parsed.data);
      }
      if (errors.length) return { created: 0, updated: 0, errors };
      const codes = await db.transaction(async (tx) => {
        const out: string[] = [];
        for (const b of valid) out.push((await insertTask(tx, caller.account, orgId, b, { imported: true })).code);
        await record(tx, caller, orgId, 'transport_task_import', `+${out.length}`, meta);
        return out;
      });
      touched();
      return { created: codes.length, updated: 0, errors: [] };
    },

    /**
     * The recogniser saw the task start (`in_transit`) or arrive (`arrived`) at `at`. Applied only
     * when recognition is on for the task and it is pending with its devices free of other running
     * tasks (start), or in transit (arrival). Answers whether the task moved.
     */
    async recognised(taskId: string, to: 'in_transit' | 'arrived', at: Date): Promise<boolean> {
      const synced = await db.transaction(async (tx) => {
        const locked = await lockTask(tx, taskId);
        if (!locked) return null;
        const settings = locked.row.settings as TaskSettings;
        if (!settings.detection.auto) return null;
        if (locked.row.status !== (to === 'in_transit' ? 'pending' : 'in_transit')) return null;
        if (to === 'in_transit' && (await devicesBusy(tx, taskId, locked.deviceRefs))) return null;
        return applyMove(tx, locked, to, { mode: 'auto', at, note: '', actor: null });
      });
      if (synced === null) return false;
      announce(synced);
      return true;
    },
  };
}

export type TransportTaskService = ReturnType<typeof transportTaskService>;
