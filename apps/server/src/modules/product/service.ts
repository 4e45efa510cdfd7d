// Product profiles and batches (issue 27 item 3): profiles of the caller's organisations (name
// unique in one), batches by batch number within an organisation, the batches a transport task
// carries, and each batch's excursion budget (budget.ts) computed when read. Changes are audited in
// their own transaction.
import { and, asc, count, eq, ilike, inArray, or } from 'drizzle-orm';
import type { Page } from '@iotc/shared/envelope';
import type { BudgetProfile } from '@iotc/shared/excursion-budget';
import type { BatchBody, BatchDetail, BatchQuery, BatchRow, ProfileBody, ProfileBrief, ProfileQuery, ProfileRow, TaskBatch, TaskBatchesBody } from '@iotc/shared/product';
import type { Db, Tx } from '../../db/client.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { orgs, productBatches, productBatchTasks, productProfiles, transportTasks } from '../../db/schema.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import { computeBudget } from './budget.ts';

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

  async function batchRow(b: BatchRecord, orgName: string, profile: ProfileRecord | null, tasks: number, withPeriods: boolean): Promise<BatchDetail> {
    const computed = profile ? await computeBudget(db, b, budgetProfileOf(profile)) : null;
    return {
      id: b.id,
      orgId: b.orgId,
      orgName,
      batchNo: b.batchNo,
      goodsName: b.goodsName,
      profile: profile ? budgetProfileOf(profile) : null,
      budget: computed?.budget ?? null,
      tasks,
      raised: b.raised ?? {},
      createdAt: b.createdAt.toISOString(),
      periods: withPeriods ? (computed?.periods ?? []) : [],
    };
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
    const r = await visibleBatch(caller, id);
    return batchRow(r.b, r.orgName, r.p, Number(r.n ?? 0), true);
  }

  async function taskBatches(taskId: string): Promise<TaskBatch[]> {
    const rows = await batchRecords(inArray(productBatches.id, db.select({ id: productBatchTasks.batchId }).from(productBatchTasks).where(eq(productBatchTasks.taskId, taskId))), [asc(productBatches.batchNo)], 50, 0);
    const out: TaskBatch[] = [];
    for (const r of rows) {
      const d = await batchRow(r.b, r.orgName, r.p, Number(r.n ?? 0), false);
      out.push({ id: d.id, batchNo: d.batchNo, goodsName: d.goodsName, profile: d.profile, budget: d.budget });
    }
    return out;
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
    /** Refused while a batch carries it. */
    async removeProfile(caller: Caller, id: string, meta: ClientMeta): Promise<void> {
      const before = await visibleProfile(caller, id);
      if (before.batches > 0) throw new AppError(409, 'PRODUCT_PROFILE_IN_USE');
      await db.transaction(async (tx) => {
        await tx.delete(productProfiles).where(eq(productProfiles.id, id));
        await record(tx, caller, before.orgId, 'product_profile_delete', before.name, meta);
      });
    },

    // ---- batches
    async listBatches(caller: Caller, q: BatchQuery): Promise<Page<BatchRow>> {
      const { limit, offset } = limitOffset(q);
      const where = and(
        inOrgs(productBatches.orgId, caller.scope.within()),
        q.keyword ? or(ilike(productBatches.batchNo, containsPattern(q.keyword)), ilike(productBatches.goodsName, containsPattern(q.keyword))) : undefined,
        q.profileId ? eq(productBatches.profileId, q.profileId) : undefined,
      );
      const rows = await batchRecords(where as ReturnType<typeof eq>, orderBy(q.sort, BATCH_SORT, 'createdAt,desc', productBatches.id), limit, offset);
      const [total] = await db.select({ n: count() }).from(productBatches).where(where);
      const out: BatchRow[] = [];
      for (const r of rows) {
        const { periods: _periods, ...row } = await batchRow(r.b, r.orgName, r.p, Number(r.n ?? 0), false);
        out.push(row);
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
        await tx.delete(productBatchTasks).where(eq(productBatchTasks.taskId, taskId));
        if (ids.length) await tx.insert(productBatchTasks).values([...new Set(ids)].map((batchId) => ({ batchId, taskId }))).onConflictDoNothing();
        await record(tx, caller, task.orgId, 'product_task_batches', `${task.code}: ${body.batches.map((b) => b.batchNo).join(', ')}`, meta);
      });
      return taskBatches(taskId);
    },
    /** The shipment report's section (no caller check: the report checked the task). */
    taskBatches,
  };
}
export type ProductService = ReturnType<typeof productService>;
