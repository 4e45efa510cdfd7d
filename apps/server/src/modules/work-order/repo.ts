// The SQL of work orders: rows as the API shows them (organisation, assignee, alarm count,
// overdue), their story, the code of the day, and the links between orders and alarms.
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { WorkOrderEventKind, WorkOrderEventRow, WorkOrderRow } from '@iotc/shared/work-order';
import type { AlarmEventKind } from '@iotc/shared/alarm';
import { LOCKS, xactLockKeys, type Db, type Tx } from '../../db/client.ts';
import { anyUuid, isoOrNull } from '../../db/list.ts';
import { alarmEvents, alarms, orgs, users, workOrderAlarms, workOrderEvents, workOrders } from '../../db/schema.ts';

type Q = Db | Tx;

/** Not resolved or closed, and past its due time; evaluated by the database (one clock for filter and flag). */
export const overdueSql: SQL<boolean> = sql<boolean>`coalesce(${workOrders.dueAt} < now() and ${workOrders.status} not in ('resolved', 'closed'), false)`;

/** Most urgent first when sorted ascending. */
export const priorityRankSql: SQL<number> = sql<number>`case ${workOrders.priority} when 'urgent' then 1 when 'high' then 2 when 'medium' then 3 else 4 end`;

export function selectOrders(q: Q) {
  return q
    .select({
      o: workOrders,
      orgName: orgs.name,
      assigneeAccount: users.account,
      assigneeName: users.name,
      alarmCount: sql<number>`(select count(*)::int from work_order_alarms c where c.work_order_id = ${workOrders.id})`,
      overdue: overdueSql,
    })
    .from(workOrders)
    .innerJoin(orgs, eq(orgs.id, workOrders.orgId))
    .leftJoin(users, eq(users.id, workOrders.assigneeId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectOrders>['execute']>>[number];


export function toOrderRow(r: Selected): WorkOrderRow {
  const o = r.o;
  return {
    id: o.id,
    code: o.code,
    orgId: o.orgId,
    orgName: r.orgName,
    title: o.title,
    description: o.description,
    priority: o.priority,
    status: o.status,
    assignee: o.assigneeId ? { id: o.assigneeId, account: r.assigneeAccount!, name: r.assigneeName! } : null,
    dueAt: isoOrNull(o.dueAt),
    overdue: r.overdue === true,
    source: o.source,
    alarmCount: Number(r.alarmCount),
    createdBy: o.createdBy,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
    resolvedAt: isoOrNull(o.resolvedAt),
    closedAt: isoOrNull(o.closedAt),
  };
}

export async function orderById(q: Q, id: string): Promise<WorkOrderRow | undefined> {
  const [row] = await selectOrders(q).where(eq(workOrders.id, id));
  return row ? toOrderRow(row) : undefined;
}

/**
 * `WO-YYYYMMDD-NNNN`: the UTC day and the number of that day within the organisation. Holds a
 * transaction-scoped lock per organisation, so two creates at once never draw the same number
 * (the unique index on (org_id, code) is the last guard).
 */
export async function nextCode(tx: Tx, orgId: string, now: Date): Promise<string> {
  await xactLockKeys(tx, LOCKS.workOrderCode, [orgId]);
  const prefix = `WO-${now.toISOString().slice(0, 10).replaceAll('-', '')}-`;
  const [last] = await tx
    .select({ code: workOrders.code })
    .from(workOrders)
    .where(and(eq(workOrders.orgId, orgId), sql`${workOrders.code} like ${`${prefix}%`}`))
    // Numbers past 9999 grow a digit: order by length first so they still come last.
    .orderBy(sql`length(${workOrders.code}) desc`, sql`${workOrders.code} desc`)
    .limit(1);
  const n = last ? Number(last.code.slice(prefix.length)) + 1 : 1;
  return `${prefix}${String(n).padStart(4, '0')}`;
}

export async function addEvents(q: Q, workOrderId: string, actor: string, events: { kind: WorkOrderEventKind; detail?: Record<string, unknown> }[]) {
  if (events.length === 0) return;
  await q.insert(workOrderEvents).values(events.map((e) => ({ workOrderId, kind: e.kind, actor, detail: e.detail ?? {} })));
}

export async function eventsOf(q: Q, workOrderId: string): Promise<WorkOrderEventRow[]> {
  const rows = await q.select().from(workOrderEvents).where(eq(workOrderEvents.workOrderId, workOrderId)).orderBy(asc(workOrderEvents.id));
  return rows.map((r) => ({ id: r.id, at: r.at.toISOString(), kind: r.kind as WorkOrderEventKind, actor: r.actor, detail: r.detail as Record<string, unknown> }));
}

/**
 * The alarms of the given ids, locked until the transaction ends (so two requests cannot put
 * one alarm into two orders), with the order each is already in.
 */
export async function lockAlarms(tx: Tx, ids: string[]): Promise<{ id: string; orgId: string; workOrderId: string | null }[]> {
  const found = await tx.select({ id: alarms.id, orgId: alarms.orgId }).from(alarms).where(anyUuid(alarms.id, ids)).orderBy(asc(alarms.id)).for('update');
  if (found.length === 0) return [];
  const links = await tx
    .select({ alarmId: workOrderAlarms.alarmId, workOrderId: workOrderAlarms.workOrderId })
    .from(workOrderAlarms)
    .where(inArray(workOrderAlarms.alarmId, found.map((a) => a.id)));
  const orderOf = new Map(links.map((l) => [l.alarmId, l.workOrderId]));
  return found.map((a) => ({ ...a, workOrderId: orderOf.get(a.id) ?? null }));
}

/** Puts the alarms into the order and writes `work_order_opened` into each alarm's timeline. */
export async function linkAlarms(tx: Tx, order: { id: string; code: string }, alarmIds: string[], actor: string) {
  if (alarmIds.length === 0) return;
  await tx.insert(workOrderAlarms).values(alarmIds.map((alarmId) => ({ workOrderId: order.id, alarmId })));
  const kind: AlarmEventKind = 'work_order_opened';
  await tx.insert(alarmEvents).values(alarmIds.map((alarmId) => ({ alarmId, kind, actor, detail: { workOrderId: order.id, code: order.code } })));
}

export async function alarmIdsOf(q: Q, workOrderId: string): Promise<string[]> {
  const rows = await q.select({ id: workOrderAlarms.alarmId }).from(workOrderAlarms).where(eq(workOrderAlarms.workOrderId, workOrderId));
  return rows.map((r) => r.id);
}

export async function alarmCountOf(q: Q, workOrderId: string): Promise<number> {
  const [row] = await q.select({ n: count() }).from(workOrderAlarms).where(eq(workOrderAlarms.workOrderId, workOrderId));
  return Number(row?.n ?? 0);
}

/** An active user of one of the organisations, or undefined. */
export async function activeUser(q: Q, userId: string, orgIds: readonly string[]) {
  const [user] = await q
    .select({ id: users.id, account: users.account, name: users.name, orgId: users.orgId })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.status, 'active')));
  return user && orgIds.includes(user.orgId) ? user : undefined;
}
