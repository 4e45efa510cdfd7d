// The cockpit summary of the caller's organisation tree. Device status comes from the same
// state reader as the monitoring and home screens (derived from when a device was last heard),
// so "online" means what it means everywhere: heard within the offline window.
//
// Vehicles by province: the server answers each vehicle's latest position; the screen places
// it in a province with the same China boundaries it draws (point in polygon there), so no
// second copy of the boundaries lives on the server and no position is guessed.
import { ASSET_KINDS, type AssetKind } from '@iotc/shared/asset';
import { COCKPIT_TICKER_SIZE, COCKPIT_TREND_DAYS, COCKPIT_TREND_HOURS, type CockpitLevel, type CockpitSummary } from '@iotc/shared/cockpit';
import type { Lang } from '@iotc/shared/i18n';
import { findProvince, provinceLabel } from '@iotc/shared/region';
import type { Db } from '../../db/client.ts';
import { alarmsByIds } from '../alarm/records.ts';
import type { Caller } from '../../lib/caller.ts';
import type { StateReader } from '../telemetry/states.ts';
import { cockpitRepo } from './repo.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The local days (YYYY-MM-DD in `tz`) of the `n` days ending today, oldest first. */
export function lastDays(now: Date, tz: string, n: number): string[] {
  const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
  // Noon steps never skip or repeat a day across daylight-saving changes.
  const today = fmt.format(now);
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const base = Date.UTC(y, m - 1, d, 12);
  return Array.from({ length: n }, (_, i) => new Date(base - (n - 1 - i) * DAY).toISOString().slice(0, 10));
}

/**
 * Warehouses per province as the dictionary knows it: the ways people write one province
 * ("上海", "上海市", "Shanghai") are one row with its code and its name in `lang`; text that names
 * no province stays a row of its own, as written. Most warehouses first.
 */
export function provincesByCode(rows: { province: string; warehouses: number; coldRooms: number }[], lang: Lang): CockpitSummary['provinces'] {
  const out = new Map<string, CockpitSummary['provinces'][number]>();
  for (const r of rows) {
    const p = findProvince(r.province);
    const key = p ? p.code : `text:${r.province.trim()}`;
    const seen = out.get(key);
    if (seen) {
      seen.warehouses += r.warehouses;
      seen.coldRooms += r.coldRooms;
    } else out.set(key, { code: p?.code ?? null, name: p ? provinceLabel(p, lang) : r.province.trim(), warehouses: r.warehouses, coldRooms: r.coldRooms });
  }
  return [...out.values()].sort((a, b) => b.warehouses - a.warehouses || (a.code ?? a.name).localeCompare(b.code ?? b.name));
}

/** Levels of several organisations grouped by code: the caller's own names and colour win. */
export function levelsByCode(
  rows: { orgId: string; code: string; nameZh: string; nameEn: string; color: string; priority: number; active: number }[],
  ownOrg: string,
  lang: Lang,
): CockpitLevel[] {
  const out = new Map<string, CockpitLevel & { own: boolean }>();
  for (const r of rows) {
    const own = r.orgId === ownOrg;
    const seen = out.get(r.code);
    const name = lang === 'zh' ? r.nameZh : r.nameEn;
    if (!seen) out.set(r.code, { code: r.code, name, color: r.color, priority: r.priority, count: Number(r.active), own });
    else {
      seen.count += Number(r.active);
      if (own && !seen.own) Object.assign(seen, { name, color: r.color, priority: r.priority, own });
    }
  }
  return [...out.values()].sort((a, b) => a.priority - b.priority || a.code.localeCompare(b.code)).map(({ own: _own, ...l }) => l);
}

export function cockpitService(db: Db, states: StateReader) {
  const repo = cockpitRepo(db);

  return {
    async summary(caller: Caller, lang: Lang, tz: string): Promise<CockpitSummary> {
      const scope = caller.scope.orgs;
      const now = new Date();
      const hourFrom = new Date(Math.floor(now.getTime() / HOUR) * HOUR - (COCKPIT_TREND_HOURS - 1) * HOUR);
      const midnight = await repo.localMidnight(tz);
      const days = lastDays(now, tz, COCKPIT_TREND_DAYS);
      // Two days' slack: the day grouping is done in SQL in the time zone, this only bounds the scan.
      const dayFrom = new Date(midnight.getTime() - (COCKPIT_TREND_DAYS + 1) * DAY);

      const [deviceStates, totals, tasks, levelRows, compliance, provinces, alarmHours, readingHours, taskDays, tickerIds] = await Promise.all([
        states.states({ scope }),
        repo.assetTotals(scope),
        repo.tasks(scope),
        repo.levels(scope),
        repo.compliance(scope, midnight),
        repo.provinces(scope),
        repo.alarmsByHour(scope, hourFrom),
        repo.readingsByHour(scope, hourFrom),
        repo.tasksByDay(scope, dayFrom, tz),
        repo.newestAlarmIds(scope, COCKPIT_TICKER_SIZE),
      ]);

      // Assets online: at least one mounted device heard within the offline window.
      const isOnline = (s: (typeof deviceStates)[number]) => s.status !== 'offline' && s.status !== 'unused';
      const onlineAssets = new Map<AssetKind, Set<string>>();
      for (const s of deviceStates) {
        if (!s.asset || !isOnline(s)) continue;
        const kind = s.asset.kind as AssetKind;
        if (!onlineAssets.has(kind)) onlineAssets.set(kind, new Set());
        onlineAssets.get(kind)!.add(s.asset.id);
      }
      const totalOf = new Map(totals.map((t) => [t.kind, t.n]));
      const assets = ASSET_KINDS.filter((k) => (totalOf.get(k) ?? 0) > 0).map((kind) => ({ kind, total: totalOf.get(kind) ?? 0, online: onlineAssets.get(kind)?.size ?? 0 }));

      const byLevel = levelsByCode(levelRows, caller.orgId, lang);
      const hours = Array.from({ length: COCKPIT_TREND_HOURS }, (_, i) => new Date(hourFrom.getTime() + i * HOUR).toISOString());
      const inHours = (b: number) => b >= 0 && b < COCKPIT_TREND_HOURS;
      const alarmsByLevel = byLevel.map((l) => {
        const counts = new Array<number>(COCKPIT_TREND_HOURS).fill(0);
        for (const r of alarmHours) if (r.code === l.code && inHours(r.bucket)) counts[r.bucket]! += r.n;
        return { code: l.code, name: l.name, color: l.color, counts };
      });
      const readings = new Array<number>(COCKPIT_TREND_HOURS).fill(0);
      for (const r of readingHours) if (inHours(r.bucket)) readings[r.bucket]! += r.n;
      const perDay = (rows: { day: string; n: number }[]) => days.map((d) => rows.find((r) => r.day === d)?.n ?? 0);

      const ticker = (await alarmsByIds(db, tickerIds))
        .sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.id < b.id ? 1 : -1))
        .map((a) => ({ id: a.id, type: a.type, status: a.status, level: a.level, device: a.device, asset: a.asset, startedAt: a.startedAt, value: a.value, threshold: a.threshold, unit: a.unit }));

      return {
        generatedAt: now.toISOString(),
        timezone: tz,
        assets,
        devices: { total: deviceStates.length, online: deviceStates.filter(isOnline).length },
        tasks,
        alarms: { active: byLevel.reduce((n, l) => n + l.count, 0), byLevel },
        compliance: { since: midnight.toISOString(), ...compliance, rate: compliance.readings ? compliance.inRange / compliance.readings : null },
        provinces: provincesByCode(provinces, lang),
        vehicles: deviceStates
          .filter((s) => s.asset?.kind === 'vehicle' && s.lat !== null && s.lon !== null)
          .map((s) => ({ id: s.id, deviceId: s.deviceId, code: s.asset!.code, name: s.asset!.name, status: s.status, lat: s.lat!, lon: s.lon!, time: s.time })),
        trends: { hours, alarmsByLevel, readings, days, tasksStarted: perDay(taskDays.started), tasksArrived: perDay(taskDays.arrived) },
        ticker,
      };
    },
  };
}
export type CockpitService = ReturnType<typeof cockpitService>;
