// Work orders of the caller's organisation tree: the query (status, priority, assignee, mine,
// overdue, alarm, time, keyword), one order with its alarms and its story, export, and the
// changes: create (by hand or from alarms), edit, move through the statuses, comment, gather
// more alarms. Also the users an order or an alarm may be given to.
import { and, count, eq, gte, ilike, inArray, lt, not, or, sql, type SQL } from 'drizzle-orm';
import type { AlarmRow } from '@iotc/shared/alarm';
import type { Page } from '@iotc/shared/envelope';
import type { Lang } from '@iotc/shared/i18n';
import { MAX_EXPORT_ROWS, type ExportFormat } from '@iotc/shared/list';
import {
  canMoveTo,
  MAX_WORK_ORDER_ALARMS,
  type AssigneeRow,
  type WorkOrderCreate,
  type WorkOrderDetail,
  type WorkOrderEventRow,
  type WorkOrderPriority,
  type WorkOrderQuery,
  type WorkOrderRow,
  type WorkOrderStatus,
  type WorkOrderTransition,
  type WorkOrderUpdate,
} from '@iotc/shared/work-order';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/client.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { orgs, users, workOrders } from '../../db/schema.ts';
import { exportRows, type ExportFile } from '../../lib/export.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import { DEFAULT_MEANING } from '@iotc/shared/signature';
import type { SignatureService } from '../signature/service.ts';
import { alarmsByIds } from '../alarm/records.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import {
  activeUser,
  addEvents,
  alarmCountOf,
  alarmIdsOf,
  eventsOf,
  linkAlarms,
  lockAlarms,
  nextCode,
  orderById,
  overdueSql,
  priorityRankSql,
  selectOrders,
  toOrderRow,
} from './repo.ts';

const SORTABLE: Sortable = {
  createdAt: workOrders.createdAt,
  updatedAt: workOrders.updatedAt,
  dueAt: workOrders.dueAt,
  priority: priorityRankSql,
};

/** Most users the assignee picker offers at once (narrow by keyword for more). */
const MAX_ASSIGNEES = 200;

const STATUS_NAMES: Record<WorkOrderStatus, { zh: string; en: string }> = {
  open: { zh: '待处理', en: 'Open' },
  in_progress: { zh: '处理中', en: 'In progress' },
  resolved: { zh: '已解决', en: 'Resolved' },
  closed: { zh: '已关闭', en: 'Closed' },
};
const PRIORITY_NAMES: Record<WorkOrderPriority, { zh: string; en: string }> = {
  urgent: { zh: '紧急', en: 'Urgent' },
  high: { zh: '高', en: 'High' },
  medium: { zh: '中', en: 'Medium' },
  low: { zh: '低', en: 'Low' },
};
const SOURCE_NAMES = { alarm: { zh: '告警', en: 'Alarm' }, manual: { zh: '手动', en: 'Manual' } } as const;
const YES_NO = { true: { zh: '是', en: 'Yes' }, false: { zh: '否', en: 'No' } } as const;

export function workOrderService(db: Db, opts: { audit: AuditWriter; publish: (rows: AlarmRow[]) => void; signatures: SignatureService }) {
  /** Every change is audited in its transaction (a close's signature brings its own row as well). */
  const record = successRecorder(opts.audit);
  async function where(caller: Caller, q: Omit<WorkOrderQuery, 'page' | 'size' | 'sort'>): Promise<SQL | undefined> {
    const scope = caller.scope.within(q.orgId);
    const pattern = q.keyword ? containsPattern(q.keyword) : undefined;
    return and(
      inOrgs(workOrders.orgId, scope),
      q.status?.length ? inArray(workOrders.status, q.status) : undefined,
      q.priority?.length ? inArray(workOrders.priority, q.priority) : undefined,
      q.assigneeId ? eq(workOrders.assigneeId, q.assigneeId) : undefined,
      q.mine === 'true' ? eq(workOrders.assigneeId, caller.userId) : undefined,
      q.overdue === 'true' ? overdueSql : q.overdue === 'false' ? not(overdueSql) : undefined,
      q.alarmId ? sql`exists (select 1 from work_order_alarms wa where wa.work_order_id = ${workOrders.id} and wa.alarm_id = ${q.alarmId})` : undefined,
      q.from ? gte(workOrders.createdAt, new Date(q.from)) : undefined,
      q.to ? lt(workOrders.createdAt, new Date(q.to)) : undefined,
      pattern ? or(ilike(workOrders.code, pattern), ilike(workOrders.title, pattern)) : undefined,
    );
  }

  async function countOf(w: SQL | undefined): Promise<number> {
    const [row] = await db.select({ n: count() }).from(workOrders).where(w);
    return Number(row?.n ?? 0);
  }

  /** The order when it belongs to the caller's tree; any other is not found, whatever the id. */
  async function visible(caller: Caller, id: string): Promise<WorkOrderRow> {
    const scope = caller.scope.orgs;
    const row = await orderById(db, id);
    if (!row || !scope.includes(row.orgId)) throw new AppError(404, 'NOT_FOUND');
    return row;
  }

  /** The order, refused when it is closed (closed is final). */
  async function changeable(caller: Caller, id: string): Promise<WorkOrderRow> {
    const row = await visible(caller, id);
    if (row.status === 'closed') throw new AppError(409, 'WORK_ORDER_CLOSED');
    return row;
  }

  /** Locks the order's row for the transaction; refuses it if it was closed in the meantime. */
  async function lockOpen(tx: Tx, id: string) {
    const [row] = await tx.select({ status: workOrders.status, code: workOrders.code, orgId: workOrders.orgId }).from(workOrders).where(eq(workOrders.id, id)).for('update');
    if (!row) throw new AppError(404, 'NOT_FOUND');
    if (row.status === 'closed') throw new AppError(409, 'WORK_ORDER_CLOSED');
    return row;
  }

  async function assigneeOf(scope: readonly string[], userId: string) {
    const user = await activeUser(db, userId, scope);
    if (!user) throw new AppError(400, 'ASSIGNEE_UNKNOWN');
    return user;
  }

  /**
   * Alarms to put into an order of `orgId` (or, when undefined, of the alarms' one organisation):
   * all visible to the caller, of one organisation, in no other order. Answers the organisation
   * and the alarms not yet in this order.
   */
  async function takeAlarms(tx: Tx, scope: readonly string[], ids: string[], into: { orderId?: string; orgId?: string }): Promise<{ orgId: string; ids: string[] }> {
    const found = await lockAlarms(tx, ids);
    if (found.length !== ids.length || found.some((a) => !scope.includes(a.orgId))) throw new AppError(400, 'WORK_ORDER_ALARM_UNKNOWN');
    const orgId = into.orgId ?? found[0]!.orgId;
    if (found.some((a) => a.orgId !== orgId)) throw new AppError(400, 'WORK_ORDER_ALARMS_MIXED');
    if (found.some((a) => a.workOrderId !== null && a.workOrderId !== into.orderId)) throw new AppError(409, 'WORK_ORDER_ALARM_TAKEN');
    return { orgId, ids: found.filter((a) => a.workOrderId === null).map((a) => a.id) };
  }

  /** Live clients see the order on the alarms it took. */
  async function publish(alarmIds: string[]) {
    if (alarmIds.length) opts.publish(await alarmsByIds(db, alarmIds));
  }

  async function detail(caller: Caller, id: string): Promise<WorkOrderDetail> {
    const row = await visible(caller, id);
    const alarmRows = await alarmsByIds(db, await alarmIdsOf(db, id));
    alarmRows.sort((a, b) => b.startedAt.localeCompare(a.startedAt) || a.id.localeCompare(b.id));
    return { ...row, alarms: alarmRows };
  }

  return {
    async list(caller: Caller, q: WorkOrderQuery): Promise<Page<WorkOrderRow>> {
      const w = await where(caller, q);
      const { limit, offset } = limitOffset(q);
      const [rows, total] = await Promise.all([
        selectOrders(db)
          .where(w)
          .orderBy(...orderBy(q.sort, SORTABLE, 'createdAt,desc', workOrders.id))
          .limit(limit)
          .offset(offset),
        countOf(w),
      ]);
      return toPage(rows.map(toOrderRow), total, q);
    },

    get: detail,

    /** The order's story, first recorded first. */
    async events(caller: Caller, id: string): Promise<WorkOrderEventRow[]> {
      await visible(caller, id);
      return eventsOf(db, id);
    },

    /** By hand (for `orgId` or the caller's organisation) or from alarms (for the alarms' organisation). */
    async create(caller: Caller, body: WorkOrderCreate, meta: ClientMeta): Promise<WorkOrderDetail> {
      const scope = caller.scope.orgs;
      if (body.orgId && !scope.includes(body.orgId)) throw new AppError(404, 'NOT_FOUND');
      const assignee = body.assigneeId ? await assigneeOf(scope, body.assigneeId) : null;
      const requested = [...new Set(body.alarmIds)];
      const now = new Date();
      const { id, taken } = await db.transaction(async (tx) => {
        const alarmsIn = requested.length ? await takeAlarms(tx, scope, requested, { orgId: body.orgId ?? undefined }) : undefined;
        const orgId = alarmsIn?.orgId ?? body.orgId ?? caller.orgId;
        const code = await nextCode(tx, orgId, now);
        const source = alarmsIn ? 'alarm' : 'manual';
        const [made] = await tx
          .insert(workOrders)
          .values({
            orgId,
            code,
            title: body.title,
            description: body.description,
            priority: body.priority,
            source,
            assigneeId: assignee?.id ?? null,
            dueAt: body.dueAt ? new Date(body.dueAt) : null,
            createdBy: caller.account,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: workOrders.id });
        const order = { id: made!.id, code };
        await linkAlarms(tx, order, alarmsIn?.ids ?? [], caller.account);
        await addEvents(tx, order.id, caller.account, [
          { kind: 'created', detail: { source, alarmIds: alarmsIn?.ids ?? [] } },
          ...(assignee ? [{ kind: 'assigned' as const, detail: { userId: assignee.id, account: assignee.account, name: assignee.name } }] : []),
        ]);
        await record(tx, caller, orgId, 'work_order_create', `${code} ${body.title}`, meta);
        return { id: order.id, taken: alarmsIn?.ids ?? [] };
      });
      await publish(taken);
      return detail(caller, id);
    },

    /** Changes title, description, priority, assignee and due time (absent ones are cleared). */
    async update(caller: Caller, id: string, body: WorkOrderUpdate, meta: ClientMeta): Promise<WorkOrderDetail> {
      const before = await changeable(caller, id);
      const next = {
        title: body.title,
        description: body.description,
        priority: body.priority,
        dueAt: body.dueAt ? new Date(body.dueAt) : null,
      };
      const changed: string[] = (['title', 'description', 'priority'] as const).filter((k) => next[k] !== before[k]);
      if ((next.dueAt?.getTime() ?? null) !== (before.dueAt ? Date.parse(before.dueAt) : null)) changed.push('dueAt');
      const assigneeId = body.assigneeId ?? null;
      const reassigned = assigneeId !== (before.assignee?.id ?? null);
      // Checked only when it changes: an order may keep an assignee who was disabled since.
      const assignee = reassigned && assigneeId ? await assigneeOf(caller.scope.orgs, assigneeId) : null;
      if (changed.length === 0 && !reassigned) return detail(caller, id);
      await db.transaction(async (tx) => {
        await lockOpen(tx, id);
        await tx
          .update(workOrders)
          .set({ ...next, assigneeId, updatedAt: new Date() })
          .where(eq(workOrders.id, id));
        await addEvents(tx, id, caller.account, [
          ...(changed.length ? [{ kind: 'updated' as const, detail: { changed } }] : []),
          ...(reassigned ? [{ kind: 'assigned' as const, detail: assignee ? { userId: assignee.id, account: assignee.account, name: assignee.name } : { userId: null } }] : []),
        ]);
        await record(tx, caller, before.orgId, 'work_order_update', `${before.code} ${[...changed, ...(reassigned ? ['assignee'] : [])].join(',')}`, meta);
      });
      return detail(caller, id);
    },

    /** Moves along WORK_ORDER_TRANSITIONS; resolving needs a note of what was done. */
    async transition(caller: Caller, id: string, body: WorkOrderTransition, meta: ClientMeta): Promise<WorkOrderDetail> {
      const before = await changeable(caller, id);
      const { to, note } = body;
      if (!canMoveTo(before.status, to)) throw new AppError(409, 'WORK_ORDER_TRANSITION');
      if (to === 'resolved' && note === '') throw new AppError(400, 'WORK_ORDER_RESOLUTION_REQUIRED');
      // Closing is signed: the password again, the meaning responsible (or approved, reviewed).
      const meaning = body.meaning ?? DEFAULT_MEANING.close;
      if (to === 'closed' && meaning === 'rejected') throw new AppError(400, 'SIGNATURE_MEANING_INVALID');
      if (to === 'closed' && !body.password && !body.ssoProof) throw new AppError(400, 'SIGNATURE_PASSWORD_REQUIRED');
      const signer = to === 'closed' ? await opts.signatures.prove(caller, body, meta) : null;
      await db.transaction(async (tx) => {
        const now = new Date();
        const [moved] = await tx
          .update(workOrders)
          .set({
            status: to,
            updatedAt: now,
            // Back to work: the fix did not hold, so it is no longer resolved.
            ...(to === 'resolved' ? { resolvedAt: now } : to === 'in_progress' ? { resolvedAt: null } : {}),
            ...(to === 'closed' ? { closedAt: now } : {}),
          })
          // Only from the status it was read in: a concurrent move wins, this one is refused.
          .where(and(eq(workOrders.id, id), eq(workOrders.status, before.status)))
          .returning({ id: workOrders.id });
        if (!moved) {
          const [current] = await tx.select({ status: workOrders.status }).from(workOrders).where(eq(workOrders.id, id));
          throw new AppError(409, current?.status === 'closed' ? 'WORK_ORDER_CLOSED' : 'WORK_ORDER_TRANSITION');
        }
        await addEvents(tx, id, caller.account, [{ kind: 'status_changed', detail: { from: before.status, to, note } }]);
        await record(tx, caller, before.orgId, 'work_order_transition', `${before.code} ${before.status} -> ${to}`, meta);
        if (signer) await opts.signatures.sign(tx, signer, { recordType: 'work_order', recordId: id, meaning });
      });
      return detail(caller, id);
    },

    /** A comment in the story; answers the story. */
    async comment(caller: Caller, id: string, text: string, meta: ClientMeta): Promise<WorkOrderEventRow[]> {
      const before = await changeable(caller, id);
      await db.transaction(async (tx) => {
        await lockOpen(tx, id);
        await tx.update(workOrders).set({ updatedAt: new Date() }).where(eq(workOrders.id, id));
        await addEvents(tx, id, caller.account, [{ kind: 'commented', detail: { text } }]);
        await record(tx, caller, before.orgId, 'work_order_comment', before.code, meta);
      });
      return eventsOf(db, id);
    },

    /** Gathers more alarms of the order's organisation; ones already in this order are ignored. */
    async link(caller: Caller, id: string, alarmIds: string[], meta: ClientMeta): Promise<WorkOrderDetail> {
      const before = await changeable(caller, id);
      const scope = caller.scope.orgs;
      const requested = [...new Set(alarmIds)];
      const taken = await db.transaction(async (tx) => {
        const order = await lockOpen(tx, id);
        const { ids } = await takeAlarms(tx, scope, requested, { orderId: id, orgId: order.orgId });
        // The request is recorded even when every alarm was the order's already (nothing new).
        await record(tx, caller, before.orgId, 'work_order_alarms', `${before.code} +${ids.length}`, meta);
        if (ids.length === 0) return [];
        if ((await alarmCountOf(tx, id)) + ids.length > MAX_WORK_ORDER_ALARMS) throw new AppError(400, 'WORK_ORDER_ALARMS_TOO_MANY');
        await linkAlarms(tx, { id, code: order.code }, ids, caller.account);
        await tx.update(workOrders).set({ updatedAt: new Date() }).where(eq(workOrders.id, id));
        await addEvents(tx, id, caller.account, [{ kind: 'alarms_linked', detail: { alarmIds: ids } }]);
        return ids;
      });
      await publish(taken);
      return detail(caller, id);
    },

    async export(caller: Caller, q: WorkOrderQuery, format: ExportFormat, lang: Lang, tz: string): Promise<ExportFile> {
      const w = await where(caller, q);
      if ((await countOf(w)) > MAX_EXPORT_ROWS) throw new AppError(400, 'EXPORT_TOO_LARGE');
      const rows = (
        await selectOrders(db)
          .where(w)
          .orderBy(...orderBy(q.sort, SORTABLE, 'createdAt,desc', workOrders.id))
          .limit(MAX_EXPORT_ROWS)
      ).map(toOrderRow);
      const instant = (v: string | null) => (v ? new Date(v) : null);
      return exportRows({
        format,
        lang,
        timezone: tz,
        name: { zh: '工单', en: 'work-orders' },
        sheet: { zh: '工单', en: 'Work orders' },
        columns: [
          { header: { zh: '工单编号', en: 'Code' }, value: (r) => r.code, width: 20 },
          { header: { zh: '标题', en: 'Title' }, value: (r) => r.title, width: 30 },
          { header: { zh: '状态', en: 'Status' }, value: (r) => STATUS_NAMES[r.status][lang] },
          { header: { zh: '优先级', en: 'Priority' }, value: (r) => PRIORITY_NAMES[r.priority][lang] },
          { header: { zh: '处理人', en: 'Assignee' }, value: (r) => (r.assignee ? `${r.assignee.name} (${r.assignee.account})` : ''), width: 24 },
          { header: { zh: '截止时间', en: 'Due' }, value: (r) => instant(r.dueAt), width: 21 },
          { header: { zh: '已逾期', en: 'Overdue' }, value: (r) => YES_NO[`${r.overdue}`][lang] },
          { header: { zh: '来源', en: 'Source' }, value: (r) => SOURCE_NAMES[r.source][lang] },
          { header: { zh: '告警数', en: 'Alarms' }, value: (r) => r.alarmCount },
          { header: { zh: '描述', en: 'Description' }, value: (r) => r.description, width: 40 },
          { header: { zh: '创建人', en: 'Created by' }, value: (r) => r.createdBy },
          { header: { zh: '创建时间', en: 'Created' }, value: (r) => new Date(r.createdAt), width: 21 },
          { header: { zh: '更新时间', en: 'Updated' }, value: (r) => new Date(r.updatedAt), width: 21 },
          { header: { zh: '解决时间', en: 'Resolved' }, value: (r) => instant(r.resolvedAt), width: 21 },
          { header: { zh: '关闭时间', en: 'Closed' }, value: (r) => instant(r.closedAt), width: 21 },
          { header: { zh: '组织', en: 'Organisation' }, value: (r) => r.orgName, width: 24 },
        ],
        rows,
      });
    },

    /** Active users of the caller's tree (or of one organisation's tree in it), by name. */
    async assignees(caller: Caller, q: { orgId?: string; keyword?: string }): Promise<AssigneeRow[]> {
      const scope = caller.scope.within(q.orgId);
      const pattern = q.keyword ? containsPattern(q.keyword) : undefined;
      return db
        .select({ id: users.id, account: users.account, name: users.name, orgId: users.orgId, orgName: orgs.name })
        .from(users)
        .innerJoin(orgs, eq(orgs.id, users.orgId))
        .where(and(inOrgs(users.orgId, scope), eq(users.status, 'active'), pattern ? or(ilike(users.account, pattern), ilike(users.name, pattern)) : undefined))
        .orderBy(users.name, users.account)
        .limit(MAX_ASSIGNEES);
    },
  };
}
export type WorkOrderService = ReturnType<typeof workOrderService>;
