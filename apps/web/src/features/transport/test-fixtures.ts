// Tasks, templates, devices and a fake API for the transport screen tests (imported by tests
// only): `request` answers the calls the screens make and records them.
import type { Mock } from 'vitest';
import { ALARM_API, type LevelRow } from '@iotc/shared/alarm';
import { API, type UserInfo } from '@iotc/shared/auth';
import { ASSET_API, ASSET_RESOURCES, type AssetRow } from '@iotc/shared/asset';
import { DEVICE_API, type DeviceRow } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { LIVE_API } from '@iotc/shared/live';
import { TRANSPORT_API, type TaskCounts, type TaskDetail, type TaskEventRow, type TaskRow, type TaskStatus, type TemplateRow } from '@iotc/shared/transport';
import type { RequestOptions } from '../../api/client.ts';
import { testUser } from '../../test/user.ts';

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const ORG = uuid(1);
export const LEVEL = uuid(900);

export function user(permissions: string[]): UserInfo {
  return testUser(permissions, { orgId: ORG, orgName: 'Cold Chain Co' });
}

const ALARM = { levelId: null, temperature: true, humidity: false, door: false, yawM: null, stayTimeoutS: null, overspeedKmh: null, durationS: 60 };
const DETECTION = { auto: true, moveM: 200, moveS: 180, dwellS: 600 };

export function task(n: number, over: Partial<TaskRow> = {}): TaskRow {
  return {
    id: uuid(100 + n),
    code: `TT-20261124-000${n}`,
    orgId: ORG,
    orgName: 'Cold Chain Co',
    templateId: null,
    status: 'pending',
    abnormal: false,
    abnormalReasons: [],
    activeAlarms: 0,
    goodsName: `Vaccines ${n}`,
    goodsQuantity: 20,
    goodsUnit: 'boxes',
    goodsValue: null,
    highValue: false,
    customer: 'City Hospital',
    asset: { id: uuid(300), kind: 'vehicle', code: 'HU-A1234', name: 'Reefer truck' },
    devices: [{ id: uuid(600), deviceId: '860000000000001', name: 'Tracker 1' }],
    origin: { name: 'Depot', address: '', lat: 31.23, lon: 121.47, radiusM: 500 },
    destination: { name: 'Hospital', address: '', lat: 31.3, lon: 121.5, radiusM: 300 },
    stops: [],
    routeSource: 'none',
    route: [],
    plannedDistanceM: 8000,
    plannedStart: '2026-11-24T08:00:00.000Z',
    plannedArrival: '2026-11-24T10:00:00.000Z',
    driverName: 'Wang',
    driverPhone: '13800000000',
    contacts: [],
    remark: '',
    profile: null,
    tempMin: 2,
    tempMax: 8,
    humidityMin: null,
    humidityMax: null,
    alarm: { ...ALARM },
    recipients: [],
    detection: { ...DETECTION },
    startedAt: null,
    startMode: null,
    arrivedAt: null,
    arriveMode: null,
    completedAt: null,
    cancelledAt: null,
    cancelReason: '',
    onTime: null,
    createdBy: 'admin',
    createdAt: `2026-11-24T0${n}:00:00.000Z`,
    updatedAt: `2026-11-24T0${n}:00:00.000Z`,
    ...over,
  };
}

export function detail(row: TaskRow): TaskDetail {
  return { ...row, live: { time: null, lat: null, lon: null, speed: null, temp: null, humidity: null, doorOpen: null, progress: null, remainingM: null, eta: null } };
}

export function template(n: number, over: Partial<TemplateRow> = {}): TemplateRow {
  return {
    id: uuid(200 + n),
    orgId: ORG,
    orgName: 'Cold Chain Co',
    name: `Shanghai run ${n}`,
    description: '',
    origin: { name: 'Pudong depot', address: 'Pudong', lat: 31.2, lon: 121.6, radiusM: 400 },
    destination: { name: 'Suzhou DC', address: '', lat: 31.3, lon: 120.6, radiusM: 600 },
    stops: [],
    routeSource: 'drawn',
    route: [
      [31.2, 121.6],
      [31.25, 121.1],
      [31.3, 120.6],
    ],
    tempMin: 2,
    tempMax: 8,
    humidityMin: 30,
    humidityMax: 70,
    alarm: { levelId: LEVEL, temperature: true, humidity: true, door: true, yawM: 500, stayTimeoutS: 1800, overspeedKmh: 90, durationS: 120 },
    recipients: [{ name: 'Li', phone: '13900000000', email: '' }],
    detection: { auto: true, moveM: 300, moveS: 240, dwellS: 900 },
    taskCount: 3,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-02T00:00:00.000Z',
    ...over,
  };
}

export const DEVICES: DeviceRow[] = [
  { id: uuid(601), deviceId: '860000000000011', name: 'Tracker A', model: null, protocol: 'json', sim: null, firmware: null, orgId: ORG, orgName: 'Cold Chain Co', createdAt: '2026-01-01T00:00:00.000Z', lastSeenAt: null, asset: null },
  { id: uuid(602), deviceId: '860000000000012', name: 'Tracker B', model: null, protocol: 'json', sim: null, firmware: null, orgId: ORG, orgName: 'Cold Chain Co', createdAt: '2026-01-01T00:00:00.000Z', lastSeenAt: null, asset: null },
];

export const LEVELS: LevelRow[] = [
  { id: LEVEL, orgId: ORG, orgName: 'Cold Chain Co', code: 'urgent', nameZh: '紧急', nameEn: 'Urgent', color: '#f5222d', priority: 1, sound: true, rulesUsing: 0, createdAt: '', updatedAt: '' },
];

export const COUNTS: TaskCounts = { all: 12, pending: 4, in_transit: 3, arrived: 1, completed: 2, cancelled: 2, abnormal: 1 };

export interface Call {
  path: string;
  opts: RequestOptions;
}

export interface FakeWorld {
  permissions: string[];
  tasks: TaskRow[];
  templates: TemplateRow[];
  events: Map<string, TaskEventRow[]>;
  calls: Call[];
}

export function newWorld(tasks: TaskRow[], templates: TemplateRow[] = []): FakeWorld {
  return { permissions: ['transport:read', 'transport:write'], tasks, templates, events: new Map(), calls: [] };
}

const page = <T>(rows: T[], q: Record<string, unknown>): Page<T> => ({ rows, total: rows.length, page: Number(q.page ?? 1), size: Number(q.size ?? 10) });

/** `request` answering the calls of the transport screens from `world`, recording each. */
/** A reefer truck with Tracker A bound and a driver in its attributes. */
export const VEHICLE: AssetRow = {
  id: uuid(701),
  kind: 'vehicle',
  code: '沪A12345',
  name: 'Reefer truck',
  parentId: null,
  parentName: null,
  orgId: ORG,
  orgName: 'Cold Chain Co',
  attrs: { vehicleType: 'reefer', driver: 'Wang Wei', driverPhone: '13800000001' },
  tempMin: 2,
  tempMax: 8,
  humidityMin: null,
  humidityMax: null,
  placeId: null,
  placeName: null,
  devices: [{ id: DEVICES[0]!.id, deviceId: DEVICES[0]!.deviceId, name: DEVICES[0]!.name }],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

export function fakeApi(mock: Mock, world: FakeWorld): void {
  mock.mockImplementation(async (path: string, opts: RequestOptions = {}) => {
    world.calls.push({ path, opts });
    const method = opts.method ?? 'GET';
    const q = (opts.query ?? {}) as Record<string, unknown>;
    if (path === API.info) return user(world.permissions);
    if (path.startsWith(ALARM_API.levels)) return page(LEVELS, {});
    if (path === LIVE_API.mapConfig) return { tileUrl: null, tileSubdomains: null, tileAttribution: null, tileCrs: 'wgs84', tileMaxZoom: 18 };
    if (path === DEVICE_API.devices) return page(DEVICES, q);
    if (path === `${ASSET_API.base}/${ASSET_RESOURCES.vehicle}`) return page([VEHICLE], q);
    if (path === TRANSPORT_API.routingConfig) return { enabled: false };
    if (path === `${TRANSPORT_API.tasks}/counts`) return COUNTS;
    if (path === TRANSPORT_API.tasks && method === 'GET') {
      const status = typeof q.status === 'string' ? q.status : undefined;
      const rows = status ? world.tasks.filter((r) => (status === 'abnormal' ? r.abnormal : r.status === status)) : world.tasks;
      return page(rows, q);
    }
    if (path === TRANSPORT_API.tasks && method === 'POST') return detail(task(9, { id: uuid(109), code: 'TT-20261124-0009' }));
    if (path === TRANSPORT_API.templates && method === 'GET') return page(world.templates, q);
    const tm = /^\/api\/iot\/v2\/transport-templates\/([^/]+)$/.exec(path);
    if (tm) {
      const found = world.templates.find((r) => r.id === decodeURIComponent(tm[1]!));
      if (!found) throw new Error(`unknown template ${tm[1]}`);
      return method === 'DELETE' ? null : found;
    }
    const m = /^\/api\/iot\/v2\/transport-tasks\/([^/]+)(?:\/(events|transition|copy|handover))?$/.exec(path);
    if (m) {
      const id = decodeURIComponent(m[1]!);
      const row = world.tasks.find((r) => r.id === id);
      if (!row) throw new Error(`unknown task ${id}`);
      if (!m[2] && method === 'GET') return detail(row);
      if (!m[2] && method === 'PUT') return detail(row);
      if (m[2] === 'events') return world.events.get(id) ?? [];
      if (m[2] === 'transition') {
        const { to } = opts.body as { to: TaskStatus };
        const next = { ...row, status: to };
        world.tasks = world.tasks.map((r) => (r.id === id ? next : r));
        return detail(next);
      }
      if (m[2] === 'copy') return detail(task(8, { id: uuid(108), code: 'TT-20261124-0008' }));
      if (m[2] === 'handover') return detail(row);
    }
    throw new Error(`unexpected call ${method} ${path}`);
  });
}

/** The calls that changed something. */
export function writes(world: FakeWorld): Call[] {
  return world.calls.filter((c) => (c.opts.method ?? 'GET') !== 'GET' && c.path !== API.info);
}
