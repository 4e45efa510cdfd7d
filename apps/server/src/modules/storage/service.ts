// The storage figures (issue 24, item 5) from the job's daily snapshots (job.ts): per
// organisation its latest snapshot, bytes per reading, growth per day over its last 7 snapshots,
// its share of the platform; the platform's totals, and the days the free disk space lasts at the
// platform's growth. Every organisation's storage is the platform's business alone: only the
// platform administrator reads them (the screen and /metrics, which is the operator's).
import { sql } from 'drizzle-orm';
import type { StorageFigures, StoragePage, StorageQuery, StorageRow } from '@iotc/shared/storage';
import { rowsOf, type Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';

/** Snapshots (days) growth per day is measured over. */
export const GROWTH_SNAPSHOTS = 7;
const DAY_MS = 86_400_000;

export interface StorageOverview {
  rows: StorageRow[];
  platform: StorageFigures;
  freeBytes: number | null;
  daysLeft: number | null;
  takenAt: string | null;
}

type Counts = Pick<StorageFigures, 'rowReadings' | 'packedReadings' | 'packs' | 'rowBytes' | 'packBytes'>;

/**
 * Bytes per reading, a reading counted once when it is both a row and in a pack. Packs are made
 * of closed days whose rows stay until retention removes them, so the readings kept are the
 * larger of the two counts: the rows while they are all still there (the packs hold a subset),
 * the packs once retention removed the packed rows (then less today's rows not yet packed: off
 * by at most the readings the archive has not packed yet).
 */
export function bytesPerReading(c: Counts): number | null {
  const readings = Math.max(c.rowReadings, c.packedReadings);
  return readings > 0 ? (c.rowBytes + c.packBytes) / readings : null;
}

const SORTABLE = new Set(['orgName', 'rowReadings', 'packedReadings', 'packs', 'rowBytes', 'packBytes', 'bytesPerReading', 'growthPerDay', 'share']);

export function storageService(db: Db, opts: { freeBytes: () => Promise<number | null> }) {
  async function overview(): Promise<StorageOverview> {
    const found = rowsOf<{
      org_id: string;
      code: string;
      name: string;
      day: string;
      row_readings: string | number;
      row_bytes: string | number;
      packed_readings: string | number;
      packs: string | number;
      pack_bytes: string | number;
      taken_at: Date | string;
      first_day: string;
      first_bytes: string | number;
    }>(
      await db.execute(sql`with ranked as (
          select s.*, row_number() over (partition by s.org_id order by s.day desc) as k from storage_daily s)
        select o.id as org_id, o.code, o.name, to_char(l.day, 'YYYY-MM-DD') as day, l.row_readings, l.row_bytes, l.packed_readings,
          l.packs, l.pack_bytes, l.taken_at, to_char(f.day, 'YYYY-MM-DD') as first_day, (f.row_bytes + f.pack_bytes) as first_bytes
        from ranked l join orgs o on o.id = l.org_id
        join lateral (select day, row_bytes, pack_bytes from ranked f where f.org_id = l.org_id and f.k <= ${GROWTH_SNAPSHOTS} order by f.k desc limit 1) f on true
        where l.k = 1`),
    );
    let takenAt: number | null = null;
    const rows: StorageRow[] = found.map((r) => {
      const c: Counts = {
        rowReadings: Number(r.row_readings),
        packedReadings: Number(r.packed_readings),
        packs: Number(r.packs),
        rowBytes: Number(r.row_bytes),
        packBytes: Number(r.pack_bytes),
      };
      const days = (Date.parse(r.day) - Date.parse(r.first_day)) / DAY_MS;
      const at = new Date(r.taken_at).getTime();
      if (takenAt === null || at > takenAt) takenAt = at;
      return {
        orgId: r.org_id,
        orgCode: r.code,
        orgName: r.name,
        day: r.day,
        ...c,
        bytesPerReading: bytesPerReading(c),
        growthPerDay: days > 0 ? (c.rowBytes + c.packBytes - Number(r.first_bytes)) / days : null,
        share: null,
      };
    });
    const sum = (pick: (r: StorageRow) => number) => rows.reduce((s, r) => s + pick(r), 0);
    const totals: Counts = {
      rowReadings: sum((r) => r.rowReadings),
      packedReadings: sum((r) => r.packedReadings),
      packs: sum((r) => r.packs),
      rowBytes: sum((r) => r.rowBytes),
      packBytes: sum((r) => r.packBytes),
    };
    const growing = rows.filter((r) => r.growthPerDay !== null);
    const platform: StorageFigures = {
      ...totals,
      bytesPerReading: bytesPerReading(totals),
      growthPerDay: growing.length ? growing.reduce((s, r) => s + r.growthPerDay!, 0) : null,
    };
    const allBytes = totals.rowBytes + totals.packBytes;
    for (const r of rows) r.share = allBytes > 0 ? (r.rowBytes + r.packBytes) / allBytes : null;
    const freeBytes = await opts.freeBytes();
    const daysLeft = freeBytes !== null && platform.growthPerDay !== null && platform.growthPerDay > 0 ? freeBytes / platform.growthPerDay : null;
    return { rows, platform, freeBytes, daysLeft, takenAt: takenAt === null ? null : new Date(takenAt).toISOString() };
  }

  return {
    /** Every organisation's figures and the platform's (the metrics read these). */
    overview,

    /** A page of organisations, the largest first unless sorted otherwise, with the platform's figures. */
    async list(caller: Caller, q: StorageQuery): Promise<StoragePage> {
      if (!caller.isPlatformAdmin) throw new AppError(403, 'NO_PERMISSION');
      const o = await overview();
      const [field, dir] = q.sort?.split(',') ?? [];
      const key = (field && SORTABLE.has(field) ? field : 'share') as keyof StorageRow;
      const sign = field && SORTABLE.has(field) && dir === 'asc' ? 1 : -1;
      const rows = [...o.rows].sort((a, b) => {
        const x = a[key];
        const y = b[key];
        // Unknown figures (null) last, whatever the direction.
        if (x === null || y === null) return x === y ? a.orgName.localeCompare(b.orgName) : x === null ? 1 : -1;
        const d = typeof x === 'string' ? x.localeCompare(y as string) : (x as number) - (y as number);
        return d !== 0 ? sign * d : a.orgName.localeCompare(b.orgName);
      });
      const offset = (q.page - 1) * q.size;
      return { rows: rows.slice(offset, offset + q.size), total: rows.length, page: q.page, size: q.size, platform: o.platform, freeBytes: o.freeBytes, daysLeft: o.daysLeft, takenAt: o.takenAt };
    },
  };
}
export type StorageService = ReturnType<typeof storageService>;
