// Live state and history of the caller's devices: latest states (paged, counted by status, as
// map points), stored readings of one device over a time window (paged, as thinned curves, as
// an export), and its intake log. Every call reads through the caller's organisation tree.
import { count, desc, eq } from 'drizzle-orm';
import type { Page } from '@iotc/shared/envelope';
import type { ExportFormat } from '@iotc/shared/list';
import type { Lang } from '@iotc/shared/i18n';
import { MAX_EXPORT_ROWS } from '@iotc/shared/list';
import { SENSOR_FIELDS } from '@iotc/shared/sensors';
import type {
  DeviceState,
  DeviceStateQuery,
  IntakeLogRow,
  MapPoint,
  Series,
  SeriesQuery,
  StatusCounts,
  TelemetryQuery,
  TelemetryRow,
} from '@iotc/shared/live';
import type { Db } from '../../db/client.ts';
import { limitOffset, toPage } from '../../db/list.ts';
import { intakeLog } from '../../db/schema.ts';
import { countReadings, readEvery, readingOf, readPackRows, sensorsOf } from '../archive/reader.ts';
import type { PackRow } from '../archive/pack.ts';
import { exportRows, type ExportColumn, type ExportFile } from '../../lib/export.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import type { StateReader } from './states.ts';
import { visibleDevice } from '../../db/devices.ts';

/** Longest window one history call reads. */
const MAX_WINDOW_MS = 93 * 86_400_000;

type Sensors = Record<string, number | string | null>;

export function telemetryService(db: Db, states: StateReader) {
  async function scopeOf(caller: Caller) {
    return caller.scope.orgs;
  }

  const device = (caller: Caller, id: string) => visibleDevice(db, caller.orgId, id);

  function window(q: { from: string; to: string }) {
    const from = new Date(q.from);
    const to = new Date(q.to);
    if (to < from) throw new AppError(400, 'VALIDATION', { en: 'End time must not be before the start time', zh: '结束时间不能早于开始时间' });
    if (to.getTime() - from.getTime() > MAX_WINDOW_MS) {
      throw new AppError(400, 'VALIDATION', { en: 'End time: the window is at most 93 days', zh: '结束时间：时间范围最多 93 天' });
    }
    return { from, to };
  }

  /** The window as the reader takes it: both ends included. */
  const range = (w: { from: Date; to: Date }) => ({ from: w.from.getTime(), to: w.to.getTime(), toInclusive: true });

  const toRow = (deviceRef: string, p: PackRow): TelemetryRow => {
    const r = readingOf(deviceRef, p);
    return {
      time: r.time.toISOString(),
      receivedAt: r.receivedAt.toISOString(),
      lat: r.lat,
      lon: r.lon,
      positioning: r.positioning,
      network: r.network,
      speed: r.speed,
      course: r.course,
      sensors: r.sensors as Sensors,
      raw: (r.raw ?? {}) as Record<string, unknown>,
    };
  };

  return {
    async states(caller: Caller, q: DeviceStateQuery): Promise<Page<DeviceState>> {
      return states.page({ scope: await scopeOf(caller), status: q.status, keyword: q.keyword, assetKind: q.assetKind }, q);
    },

    async summary(caller: Caller, q: Pick<DeviceStateQuery, 'keyword' | 'assetKind'>): Promise<StatusCounts> {
      return states.counts({ scope: await scopeOf(caller), keyword: q.keyword, assetKind: q.assetKind });
    },

    async points(caller: Caller, q: Pick<DeviceStateQuery, 'keyword' | 'assetKind' | 'status'>): Promise<MapPoint[]> {
      return states.points({ scope: await scopeOf(caller), keyword: q.keyword, assetKind: q.assetKind, status: q.status });
    },

    async latest(caller: Caller, id: string): Promise<DeviceState> {
      // Read through the caller's scope: another organisation's device is as missing as an unknown one.
      const [state] = await states.states({ scope: await scopeOf(caller), deviceRefs: [id] });
      if (!state) throw new AppError(404, 'NOT_FOUND');
      return state;
    },

    async history(caller: Caller, q: TelemetryQuery): Promise<Page<TelemetryRow>> {
      const d = await device(caller, q.device);
      const r = range(window(q));
      const total = await countReadings(db, d.id, r);
      const { limit, offset } = limitOffset(q);
      const rows = await readPackRows(db, d.id, r, { desc: q.sort !== 'time,asc', offset, limit, raw: true });
      return toPage(
        rows.map((p) => toRow(d.id, p)),
        total,
        q,
      );
    },

    /** Curves: every reading when they fit in maxPoints, else every k-th (the last one kept). */
    async series(caller: Caller, q: SeriesQuery): Promise<Series> {
      const d = await device(caller, q.device);
      const r = range(window(q));
      const total = await countReadings(db, d.id, r);
      const step = Math.max(1, Math.ceil(total / q.maxPoints));
      const rows = await readEvery(db, d.id, r, step, total, { fields: SENSOR_FIELDS.map((f) => f.key) });
      const keys: string[] = [...SENSOR_FIELDS.map((f) => f.key), 'speed'];
      const values: Series['values'] = Object.fromEntries(keys.map((k) => [k, [] as (number | null)[]]));
      for (const r of rows) {
        const s = sensorsOf(r) as Sensors;
        for (const k of keys) {
          const v = k === 'speed' ? r.speed : k === 'door' ? (s.door === undefined ? null : s.door === 'open' ? 1 : 0) : s[k];
          values[k]!.push(typeof v === 'number' ? v : null);
        }
      }
      // A sensor the device never reported has no curve.
      for (const k of keys) if (values[k]!.every((v) => v === null)) delete values[k];
      return { times: rows.map((r) => new Date(Math.floor(r.timeUs / 1000)).toISOString()), values, total };
    },

    async export(caller: Caller, q: Omit<TelemetryQuery, 'page' | 'size' | 'sort'>, format: ExportFormat, lang: Lang, timezone: string): Promise<ExportFile> {
      const d = await device(caller, q.device);
      const rows = (await readPackRows(db, d.id, range(window(q)), { limit: MAX_EXPORT_ROWS, raw: true })).map((p) => toRow(d.id, p));
      const sensor = (key: string) => (r: TelemetryRow) => {
        const v = r.sensors[key];
        return v === undefined ? null : v;
      };
      const columns: ExportColumn<TelemetryRow>[] = [
        { header: { zh: '设备时间', en: 'Device time' }, value: (r) => new Date(r.time), width: 20 },
        { header: { zh: '接收时间', en: 'Received' }, value: (r) => new Date(r.receivedAt), width: 20 },
        { header: { zh: '纬度', en: 'Latitude' }, value: (r) => r.lat },
        { header: { zh: '经度', en: 'Longitude' }, value: (r) => r.lon },
        { header: { zh: '定位方式', en: 'Positioning' }, value: (r) => r.positioning, width: 10 },
        { header: { zh: '速度(km/h)', en: 'Speed (km/h)' }, value: (r) => r.speed, width: 12 },
        ...SENSOR_FIELDS.filter((f) => f.key !== 'door').map((f) => ({ header: SENSOR_HEADERS[f.key]!, value: sensor(f.key), width: 14 })),
        { header: { zh: '门状态', en: 'Door' }, value: (r) => doorText(r.sensors.door, lang), width: 10 },
        { header: { zh: '原始数据', en: 'Raw data' }, value: (r) => JSON.stringify(r.raw), width: 60 },
      ];
      return exportRows({
        format,
        lang,
        timezone,
        name: { zh: `传感器数据-${d.deviceId}`, en: `sensor-data-${d.deviceId}` },
        sheet: { zh: '传感器数据', en: 'Sensor data' },
        columns,
        rows,
      });
    },

    async intakeLog(caller: Caller, id: string, page: number, size: number): Promise<Page<IntakeLogRow>> {
      await device(caller, id);
      const w = eq(intakeLog.deviceRef, id);
      const [total] = await db.select({ n: count() }).from(intakeLog).where(w);
      const { limit, offset } = limitOffset({ page, size });
      const rows = await db.select().from(intakeLog).where(w).orderBy(desc(intakeLog.at), desc(intakeLog.id)).limit(limit).offset(offset);
      return toPage(
        rows.map((r) => ({ id: r.id, at: r.at.toISOString(), channel: r.channel, reason: r.reason, payload: r.payload })),
        Number(total?.n ?? 0),
        { page, size },
      );
    },
  };
}
export type TelemetryService = ReturnType<typeof telemetryService>;

/** Export headers of the sensor values, with their units. */
const SENSOR_HEADERS: Record<string, { zh: string; en: string }> = {
  temperature: { zh: '温度(°C)', en: 'Temperature (°C)' },
  humidity: { zh: '湿度(%)', en: 'Humidity (%)' },
  light: { zh: '光照(LUX)', en: 'Light (LUX)' },
  vibration: { zh: '震动(g)', en: 'Vibration (g)' },
  pressure: { zh: '气压(kpa)', en: 'Pressure (kpa)' },
  battery: { zh: '电量(%)', en: 'Battery (%)' },
  batteryTemperature: { zh: '电池温度(°C)', en: 'Battery temperature (°C)' },
  mileage: { zh: '里程(km)', en: 'Mileage (km)' },
  fuel: { zh: '油量(L)', en: 'Fuel (L)' },
  signal: { zh: '信号强度', en: 'Signal strength' },
  satellites: { zh: '卫星数', en: 'Satellites' },
};

function doorText(v: unknown, lang: Lang): string | null {
  if (v === 'open') return lang === 'zh' ? '开' : 'Open';
  if (v === 'closed') return lang === 'zh' ? '关' : 'Closed';
  return null;
}
