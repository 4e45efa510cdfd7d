// The retention job: removes each device's readings that its organisation's effective rule no
// longer keeps (rules.ts), unless a legal hold covers them.
// - Rows: the rows of UTC days older than the rows rule whose fresh pack holds them
//   (archive's removePackedRows); nothing is lost, readers read the pack.
// - Packs: the packs of days older than the packs rule, and any rows of those days: the readings
//   are gone.
// - Holds: nothing of a device is removed while a hold is in force on it, on its organisation or
//   any ancestor of it; a hold on a transport task keeps the task's devices' readings from the
//   day the task started (planned start if it never started; everything if neither) onwards
//   (the days after the task are kept too until it is released: removal goes by cut-off day).
// - Whole months: a closed month's partition whose every row may go is dropped, not deleted row
//   by row (dropWholeMonths).
// Each device's removal, and its `retention_removals` row, is one transaction holding the
// device's advisory lock, so two nodes running at once remove once (the second finds nothing).
// One audit entry per organisation and run, by the account `system`.
import { sql } from 'drizzle-orm';
import { LOCKS, rowsOf, xactLockKeys, type Db, type Executor } from '../../db/client.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { removePackedRows } from '../archive/job.ts';
import { DAY_MS, dayOf } from '../archive/reader.ts';
import { loadRuleBook } from './repo.ts';
import { effectiveOf, policyWords, type Effective } from './rules.ts';
import { ancestorChain, uuidList } from '../../db/list.ts';
import { dropMonth, listPartitions, monthBounds, partitionName } from '../../db/partitions.ts';

/** How often the job runs by default (RETENTION_SECONDS). */
export const RETENTION_JOB_MS = 3_600_000;

export interface RetentionTickResult {
  devices: number;
  /** Devices left alone because a hold covers them. */
  held: number;
  rowsRemoved: number;
  packReadingsRemoved: number;
  packsRemoved: number;
}

interface Span {
  readings: number;
  from_t: Date | string | null;
  to_t: Date | string | null;
  received_from: Date | string | null;
  received_to: Date | string | null;
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** Records a removal; `span.to_t` is the last reading removed, stored as the end just after it ([from, to)). */
async function recordRemoval(
  q: Executor,
  r: { orgId: string; deviceRef: string; what: 'rows' | 'packs'; span: Span; policyOrgId: string | null; policy: string },
): Promise<void> {
  const to = r.span.to_t === null ? null : new Date(new Date(r.span.to_t).getTime() + 1);
  await q.execute(sql`insert into retention_removals (org_id, device_ref, what, from_time, to_time, received_from, received_to, readings, policy_org_id, policy)
    values (${r.orgId}, ${r.deviceRef}, ${r.what}, ${iso(r.span.from_t)}::timestamptz, ${iso(to)}::timestamptz,
      ${iso(r.span.received_from)}::timestamptz, ${iso(r.span.received_to)}::timestamptz, ${r.span.readings}, ${r.policyOrgId}, ${r.policy})`);
}

/**
 * Removes a device's packs of days before `beforeDay` and every row of those days, recording
 * what went; answers the readings removed and the packs.
 */
async function removePacks(q: Executor, dev: { id: string; orgId: string }, beforeDay: string, eff: Effective): Promise<{ readings: number; packs: number }> {
  // The packs (locked: a late reading marking one stale waits), and the rows no pack holds.
  const [p] = rowsOf<Span & { packs: number }>(
    await q.execute(sql`select count(*)::int as packs, coalesce(sum(readings), 0)::int8 as readings, min(first_time) as from_t, max(last_time) as to_t,
        min(received_from) as received_from, max(received_to) as received_to
      from (select * from reading_days where device_ref = ${dev.id} and day < ${beforeDay}::date for update) d`),
  );
  const [r] = rowsOf<Span>(
    await q.execute(sql`select count(*)::int8 as readings, min(time) as from_t, max(time) as to_t, min(received_at) as received_from, max(received_at) as received_to
      from telemetry t where t.device_ref = ${dev.id} and t.time < ${beforeDay}::date
        and not exists (select 1 from reading_days d where d.device_ref = t.device_ref and d.day = (t.time at time zone 'UTC')::date and d.packed_at >= t.received_at)`),
  );
  const readings = Number(p!.readings) + Number(r!.readings);
  // No pack and no row before the day: nothing to remove.
  if (readings === 0 && Number(p!.packs) === 0) return { readings: 0, packs: 0 };
  await q.execute(sql`delete from telemetry where device_ref = ${dev.id} and time < ${beforeDay}::date`);
  await q.execute(sql`delete from reading_days where device_ref = ${dev.id} and day < ${beforeDay}::date`);
  const min = (a: Date | string | null, b: Date | string | null) => (a === null ? b : b === null ? a : new Date(a) < new Date(b) ? a : b);
  const max = (a: Date | string | null, b: Date | string | null) => (a === null ? b : b === null ? a : new Date(a) > new Date(b) ? a : b);
  await recordRemoval(q, {
    orgId: dev.orgId,
    deviceRef: dev.id,
    what: 'packs',
    span: {
      readings,
      from_t: min(p!.from_t, r!.from_t),
      to_t: max(p!.to_t, r!.to_t),
      received_from: min(p!.received_from, r!.received_from),
      received_to: max(p!.received_to, r!.received_to),
    },
    policyOrgId: eff.packs.fromOrgId,
    policy: policyWords('packs', eff.packs),
  });
  return { readings, packs: Number(p!.packs) };
}

/** Removes a device's rows of days before `beforeDay` that a fresh pack holds, recording what went. */
async function removeRows(q: Executor, dev: { id: string; orgId: string }, beforeDay: string, eff: Effective): Promise<number> {
  // Lock the packs first, so that the rows counted are the rows removed (a late reading marking a pack stale waits).
  await q.execute(sql`select 1 from reading_days where device_ref = ${dev.id} and day < ${beforeDay}::date and not stale for update`);
  const [s] = rowsOf<Span>(
    await q.execute(sql`select count(*)::int8 as readings, min(t.time) as from_t, max(t.time) as to_t, min(t.received_at) as received_from, max(t.received_at) as received_to
      from telemetry t join reading_days d on d.device_ref = t.device_ref and d.day = (t.time at time zone 'UTC')::date
      where t.device_ref = ${dev.id} and t.time < ${beforeDay}::date and not d.stale and d.packed_at >= t.received_at`),
  );
  if (Number(s!.readings) === 0) return 0;
  const removed = await removePackedRows(q, dev.id, beforeDay);
  await recordRemoval(q, {
    orgId: dev.orgId,
    deviceRef: dev.id,
    what: 'rows',
    span: { ...s!, readings: removed },
    policyOrgId: eff.rows.fromOrgId,
    policy: policyWords('rows', eff.rows),
  });
  return removed;
}

interface DevicePlan {
  id: string;
  orgId: string;
  eff: Effective;
  /** Days before these go (null: none). */
  packsBefore: string | null;
  rowsBefore: string | null;
}

/** A reading stored this long before a month's check began still counts as "since" (clocks, transactions under way). */
const RECHECK_MARGIN_MS = 60_000;

/**
 * Whole closed months (issue 24: removing a month is dropping a partition, not deleting rows).
 * A month's partition goes when every row of it, and every row of it in the default partition,
 * may go by the rows rule: its device is not held, its day is before the device's rows cut-off,
 * and a fresh pack holds it. The long check reads without locks; then one short transaction
 * (dropMonth's guard, with inserts held back) makes sure nothing of the month was stored since the
 * check began and no pack of it went stale, records a 'rows' removal per device, and drops.
 * Answers what went, per device.
 */
async function dropWholeMonths(db: Db, plans: readonly DevicePlan[], today: number): Promise<{ orgId: string; deviceRef: string; readings: number; eff: Effective }[]> {
  const out: { orgId: string; deviceRef: string; readings: number; eff: Effective }[] = [];
  const byId = new Map(plans.map((p) => [p.id, p]));
  for (const part of await listPartitions(db)) {
    if (part.month === null) continue;
    const [from, to] = monthBounds(part.month);
    // Only months over before every cut-off could matter; the check below decides per row.
    if (Date.parse(to) > today) continue;
    const lastDay = dayOf(Date.parse(to) - DAY_MS);
    const allowed = plans.filter((p) => p.rowsBefore !== null && p.rowsBefore > lastDay).map((p) => p.id);
    if (allowed.length === 0) continue;
    const checkStarted = Date.now() - RECHECK_MARGIN_MS;
    const rows = rowsOf<Span & { device_ref: string; blocked: number | string }>(
      await db.execute(sql`select t.device_ref, count(*)::int8 as readings,
          count(*) filter (where not (t.device_ref = any(${uuidList(allowed)})) or d.device_ref is null)::int8 as blocked,
          min(t.time) as from_t, max(t.time) as to_t, min(t.received_at) as received_from, max(t.received_at) as received_to
        from (select device_ref, time, received_at from ${sql.raw(partitionName(part.month))}
              union all select device_ref, time, received_at from telemetry_default where time >= ${from}::timestamptz and time < ${to}::timestamptz) t
          left join reading_days d on d.device_ref = t.device_ref and d.day = (t.time at time zone 'UTC')::date and not d.stale and d.packed_at >= t.received_at
        group by t.device_ref`),
    );
    if (rows.length === 0 || rows.some((r) => Number(r.blocked) > 0)) continue;
    const went: { orgId: string; deviceRef: string; readings: number; eff: Effective }[] = [];
    const dropped = await dropMonth(db, part.month, {
      guard: async (tx) => {
        const since = rowsOf(
          await tx.execute(sql`select 1 from telemetry where time >= ${from}::timestamptz and time < ${to}::timestamptz
            and received_at >= ${new Date(checkStarted).toISOString()}::timestamptz limit 1`),
        );
        const stale = rowsOf(await tx.execute(sql`select 1 from reading_days where stale and day >= ${from}::date and day < ${to}::date limit 1`));
        if (since.length > 0 || stale.length > 0) return false;
        for (const r of rows) {
          const plan = byId.get(r.device_ref)!;
          const span = { ...r, readings: Number(r.readings) };
          await recordRemoval(tx, { orgId: plan.orgId, deviceRef: r.device_ref, what: 'rows', span, policyOrgId: plan.eff.rows.fromOrgId, policy: policyWords('rows', plan.eff.rows) });
          went.push({ orgId: plan.orgId, deviceRef: r.device_ref, readings: Number(r.readings), eff: plan.eff });
        }
        return true;
      },
    });
    if (dropped.dropped) out.push(...went);
  }
  return out;
}

/** The earlier of two days ('YYYY-MM-DD'), either absent. */
const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a < b ? a : b);

/**
 * One run of the retention job over every device. `now` for tests; `audit` records one entry
 * per organisation that lost something.
 */
export async function retentionTick(db: Db, opts: { audit: AuditWriter; now?: Date }): Promise<RetentionTickResult> {
  const now = opts.now ?? new Date();
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const book = await loadRuleBook(db);
  const parents = new Map([...book.orgs.values()].map((o) => [o.id, o.parentId]));
  const holds = rowsOf<{ subject_kind: 'org' | 'device' | 'task'; subject_id: string }>(
    await db.execute(sql`select subject_kind, subject_id from legal_holds where released_at is null`),
  );
  const heldOrgs = new Set(holds.filter((h) => h.subject_kind === 'org').map((h) => h.subject_id));
  const heldDevices = new Set(holds.filter((h) => h.subject_kind === 'device').map((h) => h.subject_id));
  // A held task's devices: kept from the day the earliest such task began.
  const taskHolds = new Map(
    rowsOf<{ device_ref: string; from_t: Date | string | null }>(
      await db.execute(sql`select td.device_ref, min(coalesce(t.started_at, t.planned_start, '-infinity'::timestamptz)) as from_t
        from legal_holds h join transport_tasks t on t.id = h.subject_id join transport_task_devices td on td.task_id = t.id
        where h.released_at is null and h.subject_kind = 'task' group by td.device_ref`),
    ).map((r) => {
      const t = r.from_t === null ? NaN : new Date(r.from_t).getTime();
      // '-infinity' (no start at all): nothing of the device goes.
      return [r.device_ref, Number.isFinite(t) ? dayOf(t) : '0000-01-01'] as const;
    }),
  );
  const devs = rowsOf<{ id: string; org_id: string }>(await db.execute(sql`select id, org_id from devices order by id`));
  const result: RetentionTickResult = { devices: devs.length, held: 0, rowsRemoved: 0, packReadingsRemoved: 0, packsRemoved: 0 };
  const effective = new Map<string, Effective>();
  // Each device's cut-off days (null: nothing of it goes), held devices left out.
  const plans: DevicePlan[] = [];
  for (const d of devs) {
    if (heldDevices.has(d.id) || ancestorChain(parents, d.org_id).some((o) => heldOrgs.has(o))) {
      result.held++;
      continue;
    }
    let eff = effective.get(d.org_id);
    if (!eff) effective.set(d.org_id, (eff = effectiveOf(book, d.org_id)));
    const holdDay = taskHolds.get(d.id) ?? null;
    const cut = (days: number | null) => (days === null ? null : earlier(dayOf(today - days * DAY_MS), holdDay));
    plans.push({ id: d.id, orgId: d.org_id, eff, packsBefore: cut(eff.packs.days), rowsBefore: cut(eff.rows.days) });
  }
  // What each organisation lost this run, for its audit entry.
  const perOrg = new Map<string, { rowsDevices: Set<string>; rows: number; packsDevices: Set<string>; packs: number; eff: Effective }>();
  const lost = (orgId: string, deviceRef: string, eff: Effective, rows: number, packs: number) => {
    const o = perOrg.get(orgId) ?? { rowsDevices: new Set(), rows: 0, packsDevices: new Set(), packs: 0, eff };
    if (rows) {
      o.rowsDevices.add(deviceRef);
      o.rows += rows;
    }
    if (packs) {
      o.packsDevices.add(deviceRef);
      o.packs += packs;
    }
    perOrg.set(orgId, o);
  };
  // Whole months first: a partition dropped instead of its rows deleted device by device.
  for (const m of await dropWholeMonths(db, plans, today)) {
    result.rowsRemoved += m.readings;
    lost(m.orgId, m.deviceRef, m.eff, m.readings, 0);
  }
  for (const { id, orgId, eff, packsBefore, rowsBefore } of plans) {
    if (packsBefore === null && rowsBefore === null) continue;
    const dev = { id, orgId };
    // Most devices most hours have nothing before the cut-off: two index probes, no transaction.
    const latest = [packsBefore, rowsBefore].filter((x) => x !== null).sort().at(-1)!;
    const [any] = rowsOf<{ rows: boolean; packs: boolean }>(
      await db.execute(sql`select exists (select 1 from telemetry where device_ref = ${id} and time < ${latest}::date) as rows,
        exists (select 1 from reading_days where device_ref = ${id} and day < ${latest}::date) as packs`),
    );
    if (!any?.rows && !any?.packs) continue;
    const done = await db.transaction(async (tx) => {
      await xactLockKeys(tx, LOCKS.retentionDevice, [id]);
      const packs = packsBefore === null ? { readings: 0, packs: 0 } : await removePacks(tx, dev, packsBefore, eff);
      // Rows of days the packs rule keeps (rows kept longer than packs went with them above).
      const rows = rowsBefore !== null && (packsBefore === null || rowsBefore > packsBefore) ? await removeRows(tx, dev, rowsBefore, eff) : 0;
      return { packs, rows };
    });
    if (done.rows === 0 && done.packs.readings === 0) continue;
    result.rowsRemoved += done.rows;
    result.packReadingsRemoved += done.packs.readings;
    result.packsRemoved += done.packs.packs;
    lost(orgId, id, eff, done.rows, done.packs.readings);
  }
  for (const [orgId, o] of perOrg) {
    const parts = [
      o.rows ? `rows of ${o.rowsDevices.size} device(s), ${o.rows} readings (${policyWords('rows', o.eff.rows)}; their packs remain)` : '',
      o.packs ? `packs of ${o.packsDevices.size} device(s), ${o.packs} readings (${policyWords('packs', o.eff.packs)})` : '',
    ].filter(Boolean);
    // The one summary of many device transactions (and whole-month drops), so written after them:
    // a failed write fails the tick (the job logs it) rather than passing unnoticed.
    await opts.audit(db, { orgId, userId: null, account: 'system', action: 'retention_remove', result: 'success', detail: `removed ${parts.join('; ')}` });
  }
  return result;
}
