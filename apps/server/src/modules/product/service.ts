// Product profiles and batches (issue 27 item 3): profiles of the caller's organisations (name
// unique in one), batches by batch number within an organisation, the batches a transport task
// carries, and each batch's excursion budget (budget.ts). Changes are audited in their own
// transaction.
//
// A batch's profile is its own, else the profile of the latest task carrying it that has one
// (product_task_profiles; latest by start, else creation).
//
// Where a budget is computed: the list shows the stored computation (product_batches.used and
// computed_at, which the alarm job keeps current for live batches every PRODUCT_BUDGET_SECONDS)
// and computes only the stale ones; one batch's page and the shipment report compute afresh (and
// store it). A stored computation is stale when there is none, when a change since may alter it
// (the batch's number, profile or tasks, the profile of a task carrying it: these clear
// computed_at), or when it is older than the batch's or its profile's last change (updated_at).
import { and, asc, count, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Page } from '@iotc/shared/envelope';
import type { BudgetProfile } from '@iotc/shared/excursion-budget';
import type { BatchBody, BatchDetail, BatchQuery, BatchRow, Budget, ProfileBody, ProfileBrief, ProfileQuery, ProfileRow, TaskBatch, TaskBatchesBody, TripBudget } from '@iotc/shared/product';
import type { I18nText } from '@iotc/shared/i18n';
import { rowsOf, type Db, type Tx } from '../../db/client.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { orgs, productBatches, productBatchTasks, productProfiles, productTaskProfiles, transportTasks } from '../../db/schema.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import { computeBudget, tripBudget } from './budget.ts';

type ProfileRecord = typeof productProfiles.$inferSelect;
type BatchRecord = typeof productBatches.$inferSelect;

const PROFILE_SORT: Sortable = { name: productProfiles.name, updatedAt: productProfiles.updatedAt, createdAt: productProfiles.createdAt };
const BATCH_SORT: Sortable = { batchNo: productBatches.batchNo, goodsName: productBatches.goodsName, createdAt: productBatches.createdAt, updatedAt: productBatches.updatedAt };

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
};

export const budgetProfileOf = (p: ProfileRecord): BudgetProfile & ProfileBrief => ({
  id: p.id,
  name: p.name,
  lowC: p.lowC,
  highC: p.highC,
  aboveBudgetMin: p.aboveBudgetMin,
  belowBudgetMin: p.belowBudgetMin,
  absoluteMaxC: p.absoluteMaxC,
  absoluteMinC: p.absoluteMinC,
  alertPercent: p.alertPercent,
});

/** For each batch without a profile of its own, the profile of the latest task carrying it that has one. */
export async function taskProfilesOf(q: Db | Tx, batchIds: string[]): Promise<Map<string, ProfileRecord>> {
  const out = new Map<string, ProfileRecord>();
  if (batchIds.length === 0) return out;
  const rows = rowsOf<{ batch_id: string; profile_id: string }>(
    await q.execute(sql`select distinct on (bt.batch_id) bt.batch_id, tp.profile_id
      from product_batch_tasks bt
      join transport_tasks t on t.id = bt.task_id
      join product_task_profiles tp on tp.task_id = t.id
      where bt.batch_id in (${sql.join(batchIds.map((id) => sql`${id}::uuid`), sql`, `)})
      order by bt.batch_id, coalesce(t.started_at, t.created_at) desc, t.id desc`),
  );
  if (rows.length === 0) return out;
  const profiles = await q.select().from(productProfiles).where(inArray(productProfiles.id, [...new Set(rows.map((r) => r.profile_id))]));
  const byId = new Map(profiles.map((p) => [p.id, p]));
  for (const r of rows) {
    const p = byId.get(r.profile_id);
    if (p) out.set(r.batch_id, p);
  }
  return out;
}

/** What uses a profile: batch numbers and task codes (the first 10 of each). */
async function profileUsage(q: Db, id: string): Promise<{ batches: string[]; tasks: string[] }> {
  const batches = await q.select({ v: productBatches.batchNo }).from(productBatches).where(eq(productBatches.profileId, id)).orderBy(asc(productBatches.batchNo)).limit(11);
  const tasks = await q.select({ v: transportTasks.code }).from(productTaskProfiles).innerJoin(transportTasks, eq(transportTasks.id, productTaskProfiles.taskId)).where(eq(productTaskProfiles.profileId, id)).orderBy(asc(transportTasks.code)).limit(11);
  return { batches: batches.map((r) => r.v), tasks: tasks.map((r) => r.v) };
}

/** "used by batches: A, B; transport tasks: TT-…" in both languages. */
export function profileUsageText(u: { batches: string[]; tasks: string[] }): I18nText {
  const list = (v: string[], sep: string, more: string) => `${v.slice(0, 10).join(sep)}${v.length > 10 ? more : ''}`;
  const en = [u.batches.length ? `batches ${list(u.batches, ', ', ' and more')}` : '', u.tasks.length ? `transport tasks ${list(u.tasks, ', ', ' and more')}` : ''].filter(Boolean);
  const zh = [u.batches.length ? `批次 ${list(u.batches, '、', ' 等')}` : '', u.tasks.length ? `运输任务 ${list(u.tasks, '、', ' 等')}` : ''].filter(Boolean);
  return { en: `used by ${en.join('; ')}`, zh: `正在使用它的有${zh.join('；')}` };
}

const isForeignKeyViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23503' || e.cause?.code === '23503';
};

export function productService(db: Db, opts: { audit: AuditWriter }) {
  const record = successRecorder(opts.audit);

  const profileColumns = (body: ProfileBody) => ({
    name: body.name,
    lowC: body.lowC,
    highC: body.highC,
    aboveBudgetMin: body.aboveBudgetMin,
    belowBudgetMin: body.belowBudgetMin,
    absoluteMaxC: body.absoluteMaxC,
    absoluteMinC: body.absoluteMinC,
    alertPercent: body.alertPercent,
    remark: body.remark,
  });

  async function profileRows(where: ReturnType<typeof eq> | undefined, order: ReturnType<typeof orderBy>, limit: number, offset: number): Promise<ProfileRow[]> {
    const used = db.select({ profileId: productBatches.profileId, n: count().as('n') }).from(productBatches).groupBy(productBatches.profileId).as('used');
    const rows = await db
      .select({ p: productProfiles, orgName: orgs.name, n: used.n })
      .from(productProfiles)
      .innerJoin(orgs, eq(orgs.id, productProfiles.orgId))
      .leftJoin(used, eq(used.profileId, productProfiles.id))
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset);
    return rows.map(({ p, orgName, n }) => ({
      ...budgetProfileOf(p),
      orgId: p.orgId,
      orgName,
      remark: p.remark,
      batches: Number(n ?? 0),
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
    }));
  }

  async function visibleProfile(caller: Caller, id: string): Promise<ProfileRow> {
    const [row] = await profileRows(eq(productProfiles.id, id), [asc(productProfiles.id)], 1, 0);
    if (!row || !caller.scope.has(row.orgId)) throw new AppError(404, 'NOT_FOUND');
    return row;
  }

  /** A profile the caller may attach: one of its organisations'. */
  async function attachable(caller: Caller, id: string | null | undefined): Promise<string | null> {
    if (!id) return null;
    const [p] = await db.select({ orgId: productProfiles.orgId }).from(productProfiles).where(eq(productProfiles.id, id));
    if (!p || !caller.scope.has(p.orgId)) throw new AppError(400, 'PRODUCT_PROFILE_NOT_FOUND');
    return id;
  }

  type Listed = Awaited<ReturnType<typeof batchRecords>>[number];

  /** The rows with each batch's profile: its own, else its latest task's (see the top). */
  async function withProfiles(rows: Listed[]) {
    const fromTasks = await taskProfilesOf(
      db,
      rows.filter((r) => !r.p).map((r) => r.b.id),
    );
    return rows.map((r) => {
      const own = r.p;
      const profile = own ?? fromTasks.get(r.b.id) ?? null;
      return { ...r, profile, profileFrom: own ? ('batch' as const) : profile ? ('task' as const) : null };
    });
  }
  type WithProfile = Awaited<ReturnType<typeof withProfiles>>[number];

  /** The stored computation may no longer hold (the rule at the top). */
  const isStale = (r: WithProfile) =>
    !!r.profile && (!r.b.computedAt || !r.b.used || r.b.computedAt < r.b.updatedAt || r.b.computedAt < r.profile.updatedAt);

  /** Computes the batch's budget now and stores it (as the job does). */
  async function computeAndStore(r: WithProfile, now = Date.now()) {
    if (!r.profile) return null;
    const c = await computeBudget(db, r.b, budgetProfileOf(r.profile), now);
    const at = new Date(now);
    await db.update(productBatches).set({ used: c.budget as unknown as Record<string, unknown>, computedAt: at }).where(eq(productBatches.id, r.b.id));
    return { ...c, computedAt: at };
  }

  function batchRow(r: WithProfile, budget: Budget | null, computedAt: Date | null): BatchRow {
    const { b } = r;
    return {
      id: b.id,
      orgId: b.orgId,
      orgName: r.orgName,
      batchNo: b.batchNo,
      goodsName: b.goodsName,
      profile: r.profile ? budgetProfileOf(r.profile) : null,
      profileFrom: r.profileFrom,
      budget: r.profile ? budget : null,
      computedAt: r.profile && computedAt ? computedAt.toISOString() : null,
      tasks: Number(r.n ?? 0),
      raised: b.raised ?? {},
      createdAt: b.createdAt.toISOString(),
    };
  }

  /** One batch with its budget computed afresh and its periods. */
  async function batchDetail(r: WithProfile): Promise<BatchDetail> {
    const c = await computeAndStore(r);
    return { ...batchRow(r, c?.budget ?? null, c?.computedAt ?? null), periods: c?.periods ?? [] };
  }

  async function batchRecords(where: ReturnType<typeof eq> | undefined, order: ReturnType<typeof orderBy>, limit: number, offset: number) {
    const n = db.select({ batchId: productBatchTasks.batchId, n: count().as('n') }).from(productBatchTasks).groupBy(productBatchTasks.batchId).as('n');
    return db
      .select({ b: productBatches, orgName: orgs.name, p: productProfiles, n: n.n })
      .from(productBatches)
      .innerJoin(orgs, eq(orgs.id, productBatches.orgId))
      .leftJoin(productProfiles, eq(productProfiles.id, productBatches.profileId))
      .leftJoin(n, eq(n.batchId, productBatches.id))
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset);
  }

  async function visibleBatch(caller: Caller, id: string) {
    const [row] = await batchRecords(eq(productBatches.id, id), [asc(productBatches.id)], 1, 0);
    if (!row || !caller.scope.has(row.b.orgId)) throw new AppError(404, 'NOT_FOUND');
    return row;
  }

  async function visibleTask(caller: Caller, taskId: string) {
    const [t] = await db.select({ id: transportTasks.id, orgId: transportTasks.orgId, code: transportTasks.code }).from(transportTasks).where(eq(transportTasks.id, taskId));
    if (!t || !caller.scope.has(t.orgId)) throw new AppError(404, 'NOT_FOUND');
    return t;
  }

  /** The batch of that number in the organisation, made when new (its goods and profile set when given). */
  async function batchIn(tx: Tx, orgId: string, b: { batchNo: string; goodsName?: string | undefined; profileId?: string | null | undefined }): Promise<string> {
    await tx
      .insert(productBatches)
      .values({ orgId, batchNo: b.batchNo, goodsName: b.goodsName ?? '', profileId: b.profileId ?? null })
      .onConflictDoNothing();
    const [row] = await tx.select({ id: productBatches.id }).from(productBatches).where(and(eq(productBatches.orgId, orgId), eq(productBatches.batchNo, b.batchNo)));
    const set: Partial<BatchRecord> = {};
    if (b.goodsName) set.goodsName = b.goodsName;
    if (b.profileId) set.profileId = b.profileId;
    if (Object.keys(set).length) await tx.update(productBatches).set({ ...set, updatedAt: new Date() }).where(eq(productBatches.id, row!.id));
    return row!.id;
  }

  async function getBatch(caller: Caller, id: string): Promise<BatchDetail> {
    const [r] = await withProfiles([await visibleBatch(caller, id)]);
    return batchDetail(r!);
  }

  /** The task's batches, each budget computed afresh (the shipment report's section). */
  async function taskBatches(taskId: string): Promise<TaskBatch[]> {
    const rows = await withProfiles(await batchRecords(inArray(productBatches.id, db.select({ id: productBatchTasks.batchId }).from(productBatchTasks).where(eq(productBatchTasks.taskId, taskId))), [asc(productBatches.batchNo)], 50, 0));
    const out: TaskBatch[] = [];
    for (const r of rows) {
      const c = await computeAndStore(r);
      const d = batchRow(r, c?.budget ?? null, c?.computedAt ?? null);
      out.push({ id: d.id, batchNo: d.batchNo, goodsName: d.goodsName, profile: d.profile, budget: d.budget });
    }
    return out;
  }

  /** The task's trip alone against the task's profile; null without one. */
  async function taskTripBudget(taskId: string): Promise<TripBudget | null> {
    const [p] = await db.select({ p: productProfiles }).from(productTaskProfiles).innerJoin(productProfiles, eq(productProfiles.id, productTaskProfiles.profileId)).where(eq(productTaskProfiles.taskId, taskId));
    if (!p) return null;
    const profile = budgetProfileOf(p.p);
    return { profile, budget: (await tripBudget(db, taskId, profile)).budget };
  }

  return {
    // ---- profiles
    async listProfiles(caller: Caller, q: ProfileQuery): Promise<Page<ProfileRow>> {
      const { limit, offset } = limitOffset(q);
      const where = and(inOrgs(productProfiles.orgId, caller.scope.within()), q.keyword ? ilike(productProfiles.name, containsPattern(q.keyword)) : undefined);
      const rows = await profileRows(where as ReturnType<typeof eq>, orderBy(q.sort, PROFILE_SORT, 'updatedAt,desc', productProfiles.id), limit, offset);
      const [total] = await db.select({ n: count() }).from(productProfiles).where(where);
      return toPage(rows, total?.n ?? 0, q);
    },
    getProfile: visibleProfile,
    async createProfile(caller: Caller, body: ProfileBody, meta: ClientMeta): Promise<ProfileRow> {
      const orgId = caller.orgId;
      const id = await db.transaction(async (tx) => {
        const [row] = await tx.insert(productProfiles).values({ orgId, ...profileColumns(body) }).onConflictDoNothing().returning({ id: productProfiles.id });
        if (!row) throw new AppError(409, 'PRODUCT_NAME_TAKEN');
        await record(tx, caller, orgId, 'product_profile_create', body.name, meta);
        return row.id;
      });
      return visibleProfile(caller, id);
    },
    async updateProfile(caller: Caller, id: string, body: ProfileBody, meta: ClientMeta): Promise<ProfileRow> {
      const before = await visibleProfile(caller, id);
      try {
        await db.transaction(async (tx) => {
          await tx.update(productProfiles).set({ ...profileColumns(body), updatedAt: new Date() }).where(eq(productProfiles.id, id));
          await record(tx, caller, before.orgId, 'product_profile_update', body.name, meta);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(409, 'PRODUCT_NAME_TAKEN');
        throw err;
      }
      return visibleProfile(caller, id);
    },
    /** Refused while a batch or a transport task carries it, naming them. */
    async removeProfile(caller: Caller, id: string, meta: ClientMeta): Promise<void> {
      const before = await visibleProfile(caller, id);
      const inUse = async () => {
        const u = await profileUsage(db, id);
        return u.batches.length + u.tasks.length > 0 ? new AppError(409, 'PRODUCT_PROFILE_IN_USE', profileUsageText(u)) : null;
      };
      const refused = await inUse();
      if (refused) throw refused;
      try {
        await db.transaction(async (tx) => {
          await tx.delete(productProfiles).where(eq(productProfiles.id, id));
          await record(tx, caller, before.orgId, 'product_profile_delete', before.name, meta);
        });
      } catch (err) {
        // A task took it up meanwhile (its reference has no cascade).
        if (isForeignKeyViolation(err)) throw (await inUse()) ?? err;
        throw err;
      }
    },

    // ---- batches
    async listBatches(caller: Caller, q: BatchQuery): Promise<Page<BatchRow>> {
      const { limit, offset } = limitOffset(q);
      const where = and(
        inOrgs(productBatches.orgId, caller.scope.within()),
        q.keyword ? or(ilike(productBatches.batchNo, containsPattern(q.keyword)), ilike(productBatches.goodsName, containsPattern(q.keyword))) : undefined,
        q.profileId ? eq(productBatches.profileId, q.profileId) : undefined,
      );
      const rows = await withProfiles(await batchRecords(where as ReturnType<typeof eq>, orderBy(q.sort, BATCH_SORT, 'createdAt,desc', productBatches.id), limit, offset));
      const [total] = await db.select({ n: count() }).from(productBatches).where(where);
      const out: BatchRow[] = [];
      for (const r of rows) {
        // The stored computation unless it is stale (the rule at the top).
        if (isStale(r)) {
          const c = await computeAndStore(r);
          out.push(batchRow(r, c?.budget ?? null, c?.computedAt ?? null));
        } else out.push(batchRow(r, (r.b.used as Budget | null) ?? null, r.b.computedAt));
      }
      return toPage(out, total?.n ?? 0, q);
    },
    getBatch,
    async createBatch(caller: Caller, body: BatchBody, meta: ClientMeta): Promise<BatchDetail> {
      const orgId = caller.orgId;
      const profileId = await attachable(caller, body.profileId);
      const id = await db.transaction(async (tx) => {
        const [row] = await tx.insert(productBatches).values({ orgId, batchNo: body.batchNo, goodsName: body.goodsName, profileId }).onConflictDoNothing().returning({ id: productBatches.id });
        if (!row) throw new AppError(409, 'PRODUCT_BATCH_TAKEN');
        await record(tx, caller, orgId, 'product_batch_create', body.batchNo, meta);
        return row.id;
      });
      return getBatch(caller, id);
    },
    async updateBatch(caller: Caller, id: string, body: BatchBody, meta: ClientMeta): Promise<BatchDetail> {
      const before = await visibleBatch(caller, id);
      const profileId = await attachable(caller, body.profileId);
      try {
        await db.transaction(async (tx) => {
          // A new profile starts its alarms afresh.
          const raised = profileId === before.b.profileId ? before.b.raised : {};
          await tx.update(productBatches).set({ batchNo: body.batchNo, goodsName: body.goodsName, profileId, raised, updatedAt: new Date() }).where(eq(productBatches.id, id));
          await record(tx, caller, before.b.orgId, 'product_batch_update', body.batchNo, meta);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(409, 'PRODUCT_BATCH_TAKEN');
        throw err;
      }
      return getBatch(caller, id);
    },
    async removeBatch(caller: Caller, id: string, meta: ClientMeta): Promise<void> {
      const before = await visibleBatch(caller, id);
      await db.transaction(async (tx) => {
        await tx.delete(productBatches).where(eq(productBatches.id, id));
        await record(tx, caller, before.b.orgId, 'product_batch_delete', before.b.batchNo, meta);
      });
    },

    // ---- a task's batches
    async getTaskBatches(caller: Caller, taskId: string): Promise<TaskBatch[]> {
      await visibleTask(caller, taskId);
      return taskBatches(taskId);
    },
    /** Replaces the task's batches; a batch number new to the task's organisation is made there. */
    async setTaskBatches(caller: Caller, taskId: string, body: TaskBatchesBody, meta: ClientMeta): Promise<TaskBatch[]> {
      const task = await visibleTask(caller, taskId);
      for (const b of body.batches) await attachable(caller, b.profileId);
      await db.transaction(async (tx) => {
        const ids: string[] = [];
        for (const b of body.batches) ids.push(await batchIn(tx, task.orgId, b));
        // The batches leaving or joining the task: their stored budgets no longer hold.
        const was = await tx.select({ id: productBatchTasks.batchId }).from(productBatchTasks).where(eq(productBatchTasks.taskId, taskId));
        const touched = [...new Set([...ids, ...was.map((w) => w.id)])];
        if (touched.length) await tx.update(productBatches).set({ computedAt: null }).where(inArray(productBatches.id, touched));
        await tx.delete(productBatchTasks).where(eq(productBatchTasks.taskId, taskId));
        if (ids.length) await tx.insert(productBatchTasks).values([...new Set(ids)].map((batchId) => ({ batchId, taskId }))).onConflictDoNothing();
        await record(tx, caller, task.orgId, 'product_task_batches', `${task.code}: ${body.batches.map((b) => b.batchNo).join(', ')}`, meta);
      });
      return taskBatches(taskId);
    },
    /** The shipment report's sections (no caller check: the report checked the task). */
    taskBatches,
    tripBudget: taskTripBudget,
  };
}
export type ProductService = ReturnType<typeof productService>;
