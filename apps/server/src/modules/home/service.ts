// The home screen's lists: message alerts read off the latest states of the caller's devices
// (offline, low battery, temperature or humidity outside the bound asset's range, door open),
// newest first; and the platform notifications for the caller's organisation and everyone.
import { and, count, desc, inArray, isNull, or } from 'drizzle-orm';
import { BATTERY_LOW_PERCENT } from '@iotc/shared/constants';
import type { Page } from '@iotc/shared/envelope';
import type { Lang } from '@iotc/shared/i18n';
import type { DeviceState, HomeAlert, HomeAlertQuery, Notice } from '@iotc/shared/live';
import type { Db } from '../../db/client.ts';
import { limitOffset, toPage } from '../../db/list.ts';
import { notices } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import type { StateReader } from '../telemetry/states.ts';

/** The alerts one device's latest state raises. */
export function alertsOf(s: DeviceState): HomeAlert[] {
  const out: HomeAlert[] = [];
  const base = { device: s.id, deviceId: s.deviceId, name: s.name };
  if (s.status === 'offline') out.push({ ...base, kind: 'offline', value: null, limit: null, time: s.lastSeenAt! });
  if (!s.time) return out;
  const time = s.time;
  const num = (k: string) => (typeof s.sensors[k] === 'number' ? (s.sensors[k] as number) : null);
  const battery = num('battery');
  if (battery !== null && battery < BATTERY_LOW_PERCENT) out.push({ ...base, kind: 'lowBattery', value: battery, limit: BATTERY_LOW_PERCENT, time });
  const a = s.asset;
  const temp = num('temperature');
  if (a && temp !== null) {
    if (a.tempMax !== null && temp > a.tempMax) out.push({ ...base, kind: 'tempHigh', value: temp, limit: a.tempMax, time });
    if (a.tempMin !== null && temp < a.tempMin) out.push({ ...base, kind: 'tempLow', value: temp, limit: a.tempMin, time });
  }
  const hum = num('humidity');
  if (a && hum !== null) {
    if (a.humidityMax !== null && hum > a.humidityMax) out.push({ ...base, kind: 'humidityHigh', value: hum, limit: a.humidityMax, time });
    if (a.humidityMin !== null && hum < a.humidityMin) out.push({ ...base, kind: 'humidityLow', value: hum, limit: a.humidityMin, time });
  }
  if (s.sensors.door === 'open') out.push({ ...base, kind: 'doorOpen', value: null, limit: null, time });
  return out;
}

export function homeService(db: Db, states: StateReader) {
  return {
    async alerts(caller: Caller, q: Pick<HomeAlertQuery, 'page' | 'size' | 'from' | 'to'>): Promise<Page<HomeAlert>> {
      const { page, size } = q;
      const from = q.from ? Date.parse(q.from) : -Infinity;
      const to = q.to ? Date.parse(q.to) : Infinity;
      const all = (await states.states({ scope: caller.scope.orgs }))
        .flatMap(alertsOf)
        .filter((a) => {
          const at = Date.parse(a.time);
          return at >= from && at <= to;
        });
      all.sort((x, y) => (x.time < y.time ? 1 : x.time > y.time ? -1 : x.deviceId.localeCompare(y.deviceId)));
      const { limit, offset } = limitOffset({ page, size });
      return toPage(all.slice(offset, offset + limit), all.length, { page, size });
    },

    async notices(caller: Caller, lang: Lang, page: number, size: number): Promise<Page<Notice>> {
      const w = or(isNull(notices.orgId), inArray(notices.orgId, caller.scope.orgs));
      const [total] = await db.select({ n: count() }).from(notices).where(and(w));
      const { limit, offset } = limitOffset({ page, size });
      const rows = await db
        .select()
        .from(notices)
        .where(w)
        .orderBy(desc(notices.publishedAt), desc(notices.id))
        .limit(limit)
        .offset(offset);
      return toPage(
        rows.map((n) => ({
          id: n.id,
          title: lang === 'zh' ? n.titleZh : n.titleEn,
          body: lang === 'zh' ? n.bodyZh : n.bodyEn,
          level: n.level,
          publishedAt: n.publishedAt.toISOString(),
        })),
        Number(total?.n ?? 0),
        { page, size },
      );
    },
  };
}
export type HomeService = ReturnType<typeof homeService>;
