// Reading devices' latest states: one query shape (device, organisation, latest state, the asset
// it is mounted on now) for the list, the map points, the counts, one device, and the live push.
// The status is derived in SQL from when the device was last heard of, so lists can filter,
// count and page by it without a stored status going stale.
import { and, count, eq, ilike, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import { DEVICE_STATUSES, deviceStatus, PARKED_BELOW_KMH, type DeviceState, type DeviceStatus, type StatusCounts } from '@iotc/shared/live';
import type { Page } from '@iotc/shared/envelope';
import type { ListQuery } from '@iotc/shared/list';
import type { Db } from '../../db/client.ts';
import { CURRENT_BINDING } from '../../db/devices.ts';
import { anyUuid, containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { assets, deviceBindings, devices, deviceStates, orgs } from '../../db/schema.ts';

/** The status expression at a cutoff (reports received before it mean offline). */
function statusSql(offlineCutoff: Date): SQL<DeviceStatus> {
  return sql<DeviceStatus>`case
    when ${deviceStates.receivedAt} is null then 'unused'
    when ${deviceStates.receivedAt} < ${offlineCutoff.toISOString()}::timestamptz then 'offline'
    when ${deviceStates.acc} = false then 'shutdown'
    when ${deviceStates.speed} is null or ${deviceStates.speed} < ${PARKED_BELOW_KMH} then 'parked'
    else 'driving' end`;
}

/** Who a device is: its ids, organisation and the asset it is mounted on now (with the limits). */
const META_COLUMNS = {
  id: devices.id,
  deviceId: devices.deviceId,
  name: devices.name,
  orgId: devices.orgId,
  orgName: orgs.name,
  assetId: assets.id,
  assetKind: assets.kind,
  assetCode: assets.code,
  assetName: assets.name,
  tempMin: assets.tempMin,
  tempMax: assets.tempMax,
  humidityMin: assets.humidityMin,
  humidityMax: assets.humidityMax,
};

interface MetaRow {
  assetId: string | null;
  assetKind: string | null;
  assetCode: string | null;
  assetName: string | null;
  tempMin: number | null;
  tempMax: number | null;
  humidityMin: number | null;
  humidityMax: number | null;
}

function assetOf(r: MetaRow): DeviceState['asset'] {
  if (!r.assetId) return null;
  return { id: r.assetId, kind: r.assetKind!, code: r.assetCode!, name: r.assetName!, tempMin: r.tempMin, tempMax: r.tempMax, humidityMin: r.humidityMin, humidityMax: r.humidityMax };
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export interface StateFilter {
  /** Organisations to read; absent only for the server's own use (the live push filters per browser). */
  scope?: readonly string[];
  status?: DeviceStatus;
  keyword?: string;
  /** An asset kind, or several separated by commas. */
  assetKind?: string;
  deviceRefs?: string[];
}

export function stateReader(db: Db, offlineAfterMs: number) {
  const cutoff = () => new Date(Date.now() - offlineAfterMs);

  function base(status: SQL<DeviceStatus>) {
    return db
      .select({
        ...META_COLUMNS,
        status,
        time: deviceStates.time,
        lastSeenAt: deviceStates.receivedAt,
        lat: deviceStates.lat,
        lon: deviceStates.lon,
        positioning: deviceStates.positioning,
        network: deviceStates.network,
        speed: deviceStates.speed,
        course: deviceStates.course,
        acc: deviceStates.acc,
        sensors: deviceStates.sensors,
      })
      .from(devices)
      .innerJoin(orgs, eq(orgs.id, devices.orgId))
      .leftJoin(deviceStates, eq(deviceStates.deviceRef, devices.id))
      .leftJoin(deviceBindings, CURRENT_BINDING)
      .leftJoin(assets, eq(assets.id, deviceBindings.assetRef));
  }
  type Raw = Awaited<ReturnType<ReturnType<typeof base>['execute']>>[number];

  const toState = (r: Raw): DeviceState => ({
    id: r.id,
    deviceId: r.deviceId,
    name: r.name,
    orgId: r.orgId,
    orgName: r.orgName,
    status: r.status,
    time: iso(r.time),
    lastSeenAt: iso(r.lastSeenAt),
    ...motionOf(r),
    sensors: (r.sensors as DeviceState['sensors']) ?? {},
    asset: assetOf(r),
  });

  function where(f: StateFilter, status: SQL<DeviceStatus>): SQL | undefined {
    return and(
      f.scope ? inOrgs(devices.orgId, f.scope) : undefined,
      f.status ? sql`${status} = ${f.status}` : undefined,
      f.keyword
        ? or(ilike(devices.deviceId, containsPattern(f.keyword)), ilike(devices.name, containsPattern(f.keyword)), ilike(assets.code, containsPattern(f.keyword)))
        : undefined,
      f.assetKind ? inArray(assets.kind, f.assetKind.split(',') as 'vehicle'[]) : undefined,
      f.deviceRefs ? inArray(devices.id, f.deviceRefs) : undefined,
    );
  }

  return {
    async page(f: StateFilter, q: ListQuery): Promise<Page<DeviceState>> {
      const status = statusSql(cutoff());
      const w = where(f, status);
      const sortable: Sortable = { deviceId: devices.deviceId, name: devices.name, lastSeenAt: deviceStates.receivedAt, status, speed: deviceStates.speed };
      const [total] = await db
        .select({ n: count() })
        .from(devices)
        .leftJoin(deviceStates, eq(deviceStates.deviceRef, devices.id))
        .leftJoin(deviceBindings, CURRENT_BINDING)
        .leftJoin(assets, eq(assets.id, deviceBindings.assetRef))
        .where(w);
      const { limit, offset } = limitOffset(q);
      const rows = await base(status)
        .where(w)
        .orderBy(...orderBy(q.sort, sortable, 'deviceId,asc', devices.id))
        .limit(limit)
        .offset(offset);
      return toPage(rows.map(toState), Number(total?.n ?? 0), q);
    },

    async states(f: StateFilter): Promise<DeviceState[]> {
      const status = statusSql(cutoff());
      return (await base(status).where(where(f, status))).map(toState);
    },

    async points(f: StateFilter) {
      const status = statusSql(cutoff());
      return db
        .select({ id: devices.id, deviceId: devices.deviceId, name: devices.name, status, lat: sql<number>`${deviceStates.lat}`, lon: sql<number>`${deviceStates.lon}` })
        .from(devices)
        .innerJoin(deviceStates, eq(deviceStates.deviceRef, devices.id))
        .leftJoin(deviceBindings, CURRENT_BINDING)
        .leftJoin(assets, eq(assets.id, deviceBindings.assetRef))
        .where(and(where(f, status), isNotNull(deviceStates.lat)));
    },

    async counts(f: Omit<StateFilter, 'status'>): Promise<StatusCounts> {
      const status = statusSql(cutoff());
      const rows = await db
        .select({ status, n: count() })
        .from(devices)
        .leftJoin(deviceStates, eq(deviceStates.deviceRef, devices.id))
        .leftJoin(deviceBindings, CURRENT_BINDING)
        .leftJoin(assets, eq(assets.id, deviceBindings.assetRef))
        .where(where(f, status))
        // By position: the expression's parameters would make a repeated copy of it a different expression.
        .groupBy(sql`1`);
      const counts = Object.fromEntries(DEVICE_STATUSES.map((s) => [s, 0])) as Record<DeviceStatus, number>;
      for (const r of rows) counts[r.status] = Number(r.n);
      return { all: Object.values(counts).reduce((a, b) => a + b, 0), ...counts };
    },

    /** Devices whose last report fell behind the offline cutoff between two instants (they just went offline). */
    async wentOffline(since: Date, until: Date): Promise<DeviceState[]> {
      const status = statusSql(cutoff());
      const lo = new Date(since.getTime() - offlineAfterMs);
      const hi = new Date(until.getTime() - offlineAfterMs);
      const rows = await base(status).where(
        and(sql`${deviceStates.receivedAt} >= ${lo.toISOString()}::timestamptz`, sql`${deviceStates.receivedAt} < ${hi.toISOString()}::timestamptz`),
      );
      return rows.map(toState);
    },
  };
}
export type StateReader = ReturnType<typeof stateReader>;

type Motion = Pick<DeviceState, 'lat' | 'lon' | 'positioning' | 'network' | 'speed' | 'course' | 'acc'>;

/** Where a device is and how it moves, as a state row (read or just stored) has it. */
const motionOf = (r: Motion): Motion => ({ lat: r.lat, lon: r.lon, positioning: r.positioning, network: r.network, speed: r.speed, course: r.course, acc: r.acc });

/** How long a device's name, organisation and asset are reused for live pushes before being read again. */
const META_TTL_MS = 30_000;

type DeviceMeta = Pick<DeviceState, 'id' | 'deviceId' | 'name' | 'orgId' | 'orgName' | 'asset'>;

/**
 * Live pushes from freshly stored states without reading the states again: the stored row
 * gives position, sensors and status; a short-lived cache gives each device's name,
 * organisation and asset (one query for the devices not cached).
 */
export function liveComposer(db: Db, offlineAfterMs: number) {
  const cache = new Map<string, { meta: DeviceMeta; until: number }>();

  async function metas(refs: string[]): Promise<Map<string, DeviceMeta>> {
    const now = Date.now();
    const missing: string[] = [];
    for (const r of refs) if ((cache.get(r)?.until ?? 0) < now) missing.push(r);
    if (missing.length) {
      const rows = await db
        .select(META_COLUMNS)
        .from(devices)
        .innerJoin(orgs, eq(orgs.id, devices.orgId))
        .leftJoin(deviceBindings, CURRENT_BINDING)
        .leftJoin(assets, eq(assets.id, deviceBindings.assetRef))
        .where(anyUuid(devices.id, missing));
      for (const r of rows) {
        cache.set(r.id, { meta: { id: r.id, deviceId: r.deviceId, name: r.name, orgId: r.orgId, orgName: r.orgName, asset: assetOf(r) }, until: now + META_TTL_MS });
      }
    }
    const out = new Map<string, DeviceMeta>();
    for (const r of refs) {
      const hit = cache.get(r);
      if (hit) out.set(r, hit.meta);
    }
    return out;
  }

  return {
    async compose(rows: (typeof deviceStates.$inferSelect)[]): Promise<DeviceState[]> {
      const meta = await metas(rows.map((r) => r.deviceRef));
      const now = Date.now();
      // A loop, not flatMap, and the device's fields named rather than spread first: this runs
      // for every stored batch at full intake, and V8 (Node 20) builds `{ ...m, more }` (new keys
      // after a leading spread) at about 6 KB a state against 0.3 KB for this one.
      const out: DeviceState[] = [];
      for (const r of rows) {
        const m = meta.get(r.deviceRef);
        if (!m) continue;
        out.push({
          id: m.id,
          deviceId: m.deviceId,
          name: m.name,
          orgId: m.orgId,
          orgName: m.orgName,
          asset: m.asset,
          status: deviceStatus({ lastSeenAt: r.receivedAt, speed: r.speed, acc: r.acc }, now, offlineAfterMs),
          time: r.time.toISOString(),
          lastSeenAt: r.receivedAt.toISOString(),
          ...motionOf(r),
          sensors: r.sensors as DeviceState['sensors'],
        });
      }
      return out;
    },
  };
}
