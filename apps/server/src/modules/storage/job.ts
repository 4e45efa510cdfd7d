// The storage figures' job (issue 24, item 5): a snapshot per organisation of what it keeps, one
// row of `storage_daily` per organisation and UTC day, written again at each run so that a day's
// figures are its last snapshot. Readings stay rows until retention removes them, so a reading
// may be counted both as a row and in a pack: the two are kept apart.
// - rows: the organisation's rows of `telemetry`, and its share of the readings table's size
//   (table, indexes and TOAST of every partition) in proportion to its rows;
// - packs: its packs in `reading_days`, the readings they hold and their own bytes (data + raw).
// One node at a time (the 'storage figures' lease, db/lease.ts); a node that finds a snapshot taken
// within `freshMs` leaves it, so several nodes on one database take one an interval.
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import { leases, type Lease } from '../../db/lease.ts';

/** How often the job takes a snapshot by default (STORAGE_SECONDS). */
export const STORAGE_JOB_MS = 3_600_000;

export interface SnapshotResult {
  /** False when another node was taking one, or one was taken within `freshMs`. */
  ran: boolean;
  /** The UTC day written (YYYY-MM-DD). */
  day: string;
  orgs: number;
}

/**
 * Takes the snapshot of every organisation for `day` (default: today in UTC, by the database's
 * clock), replacing that day's earlier one.
 */
export async function takeSnapshot(db: Db, opts: { day?: string; freshMs?: number; lease?: Lease } = {}): Promise<SnapshotResult> {
  const lease = opts.lease ?? leases(db);
  const taken = await lease('storage figures', async (tx): Promise<SnapshotResult> => {
    const [clock] = rowsOf<{ today: string; fresh: boolean }>(
      await tx.execute(sql`select to_char((now() at time zone 'UTC')::date, 'YYYY-MM-DD') as today,
        coalesce((select max(taken_at) from storage_daily) > now() - ${`${Math.max(0, opts.freshMs ?? 0)} milliseconds`}::interval, false) as fresh`),
    );
    const day = opts.day ?? clock!.today;
    if (opts.freshMs && clock!.fresh) return { ran: false, day, orgs: 0 };
    // The readings table's bytes: the parent (empty) and every partition, default included.
    const [size] = rowsOf<{ bytes: string | number }>(
      await tx.execute(sql`select (pg_total_relation_size('telemetry'::regclass)
        + coalesce((select sum(pg_total_relation_size(inhrelid)) from pg_inherits where inhparent = 'telemetry'::regclass), 0))::int8 as bytes`),
    );
    const rows = rowsOf<{ org_id: string; n: string | number }>(await tx.execute(sql`select org_id, count(*)::int8 as n from telemetry group by org_id`));
    const packs = rowsOf<{ org_id: string; readings: string | number; packs: string | number; bytes: string | number }>(
      await tx.execute(sql`select org_id, coalesce(sum(readings), 0)::int8 as readings, count(*)::int8 as packs,
        coalesce(sum(octet_length(data) + octet_length(raw)), 0)::int8 as bytes from reading_days group by org_id`),
    );
    const orgIds = rowsOf<{ id: string }>(await tx.execute(sql`select id from orgs`)).map((r) => r.id);
    const allRows = rows.reduce((s, r) => s + Number(r.n), 0);
    const tableBytes = Number(size!.bytes);
    const rowCounts = new Map(rows.map((r) => [r.org_id, Number(r.n)]));
    const packsOf = new Map(packs.map((p) => [p.org_id, p]));
    // Every organisation, those without readings too: a day whose readings retention removed is a
    // snapshot of zero, not a missing one (growth per day then tells the removal).
    const values = orgIds.map((id) => {
      const n = rowCounts.get(id) ?? 0;
      const p = packsOf.get(id);
      return {
        id,
        rowReadings: n,
        rowBytes: allRows > 0 ? Math.round((tableBytes * n) / allRows) : 0,
        packedReadings: Number(p?.readings ?? 0),
        packs: Number(p?.packs ?? 0),
        packBytes: Number(p?.bytes ?? 0),
      };
    });
    if (values.length > 0) {
      await tx.execute(sql`insert into storage_daily (org_id, day, row_readings, row_bytes, packed_readings, packs, pack_bytes, taken_at)
        select x.org_id, ${day}::date, x.row_readings, x.row_bytes, x.packed_readings, x.packs, x.pack_bytes, now()
        from jsonb_to_recordset(${JSON.stringify(
          values.map((v) => ({ org_id: v.id, row_readings: v.rowReadings, row_bytes: v.rowBytes, packed_readings: v.packedReadings, packs: v.packs, pack_bytes: v.packBytes })),
        )}::jsonb) as x(org_id uuid, row_readings int8, row_bytes int8, packed_readings int8, packs int8, pack_bytes int8)
        on conflict (org_id, day) do update set row_readings = excluded.row_readings, row_bytes = excluded.row_bytes,
          packed_readings = excluded.packed_readings, packs = excluded.packs, pack_bytes = excluded.pack_bytes, taken_at = excluded.taken_at`);
    }
    return { ran: true, day, orgs: values.length };
  }, null);
  // Another node is taking it.
  return taken ?? { ran: false, day: opts.day ?? new Date().toISOString().slice(0, 10), orgs: 0 };
}
