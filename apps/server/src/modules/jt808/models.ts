// Vendor mappings of JT/T 808 additional items per terminal model (jt808-models.ts): the list,
// create, change and delete of an organisation tree's mappings, and the mapping a terminal's
// reports go through: its organisation's mapping of the model it registered with, else the
// nearest ancestor's (the platform's mappings serve every organisation that sets none). Mappings
// are read per organisation and model (the model a terminal registered with is learnt when it
// authenticates, which follows every registration), at most every CACHE_MS, one read at a time
// for each; a change drops the cache on this node at once and, through `changed` (the event bus's
// cache invalidation), on every other node. (A read per device every few seconds was 2,000
// recursive queries a second at 10,000 terminals, and a read per device and connection 10,000 at
// once when they all reported after a restart: bench `jt808`.) A device that did not authenticate
// here (the demo's backfill) has its registered model read once.
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Page } from '@iotc/shared/envelope';
import { mapItems, type ModelBody, type ModelItem, type ModelRow } from '@iotc/shared/jt808-models';
import type { ListQuery } from '@iotc/shared/list';
import { rowsOf, type Db } from '../../db/client.ts';
import { inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { jt808Models, jt808Terminals, orgs } from '../../db/schema.ts';
import type { ReportingDevice } from '../../ingest/pipeline.ts';
import type { ClientMeta } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import type { Jt808Report } from './reports.ts';

/** A safety net only (an organisation moved in the tree): changes of mappings drop the cache. */
const CACHE_MS = 10 * 60_000;
const SORTABLE: Sortable = { model: jt808Models.model, updatedAt: jt808Models.updatedAt };

export function jt808ModelService(db: Db, audit: AuditWriter, opts: { now?: () => number; changed?: () => void } = {}) {
  const record = successRecorder(audit);
  const now = opts.now ?? (() => Date.now());
  /** Per device: the model it registered with, learnt when it authenticated on this node (or read once). */
  const learnt = new Map<string, string | null>();
  /** Per organisation and model: the items (one read shared by everyone asking meanwhile), until when. */
  const byModel = new Map<string, { items: Promise<ModelItem[] | null>; until: number }>();
  /** A change of mappings: reads start again (one begun before the drop fills nothing: its entry is gone). */
  const drop = () => byModel.clear();

  const select = () =>
    db
      .select({
        id: jt808Models.id,
        orgId: jt808Models.orgId,
        orgName: orgs.name,
        model: jt808Models.model,
        description: jt808Models.description,
        items: jt808Models.items,
        createdAt: jt808Models.createdAt,
        updatedAt: jt808Models.updatedAt,
      })
      .from(jt808Models)
      .innerJoin(orgs, eq(orgs.id, jt808Models.orgId));
  type Selected = Awaited<ReturnType<ReturnType<typeof select>['execute']>>[number];
  const toRow = (r: Selected): ModelRow => ({ ...r, items: r.items as ModelItem[], createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() });

  async function visible(caller: Caller, id: string): Promise<ModelRow> {
    const [row] = await select().where(eq(jt808Models.id, id));
    if (!row || !caller.scope.has(row.orgId)) throw new AppError(404, 'NOT_FOUND');
    return toRow(row);
  }

  const parseItems = (first: ModelItem[] | string | undefined): ModelItem[] | null =>
    first === undefined ? null : typeof first === 'string' ? (JSON.parse(first) as ModelItem[]) : first;

  /** The items of a model for an organisation: its own mapping first, then its ancestors'. */
  function itemsOfModel(orgId: string, model: string): Promise<ModelItem[] | null> {
    const key = `${orgId} ${model}`;
    const hit = byModel.get(key);
    if (hit && hit.until > now()) return hit.items;
    const items = db
      .execute<{ items: ModelItem[] | string }>(
        sql`
      with recursive chain(id, depth) as (
        select ${orgId}::uuid, 0
        union all select o.parent_id, c.depth + 1 from orgs o join chain c on o.id = c.id where o.parent_id is not null and c.depth < 64)
      select m.items from jt808_models m join chain c on c.id = m.org_id
      where m.model = ${model}
      order by c.depth limit 1`,
      )
      .then((rows) => parseItems(rowsOf<{ items: ModelItem[] | string }>(rows)[0]?.items));
    // A failed read is not kept: the next report reads again.
    items.catch(() => byModel.get(key)?.items === items && byModel.delete(key));
    if (byModel.size > 100_000) byModel.clear();
    byModel.set(key, { items, until: now() + CACHE_MS });
    return items;
  }

  /** The items of the device's model, its organisation's mapping first, then its ancestors'. */
  async function itemsOf(device: ReportingDevice): Promise<ModelItem[] | null> {
    if (!learnt.has(device.id)) {
      // Not authenticated here (the demo's backfill): the model of its registration row.
      const [row] = await db.select({ model: jt808Terminals.model }).from(jt808Terminals).where(eq(jt808Terminals.deviceRef, device.id));
      remember(device.id, row?.model ?? null);
    }
    const model = learnt.get(device.id);
    return model ? itemsOfModel(device.orgId, model) : null;
  }

  function remember(deviceRef: string, model: string | null): void {
    if (learnt.size > 100_000) learnt.clear();
    learnt.set(deviceRef, model);
  }

  /** After a change: this node reads mappings again at once, and the other nodes are told to. */
  function changed() {
    drop();
    opts.changed?.();
  }

  return {
    async list(caller: Caller, q: ListQuery & { orgId?: string }): Promise<Page<ModelRow>> {
      const where = inOrgs(jt808Models.orgId, caller.scope.within(q.orgId));
      const { limit, offset } = limitOffset(q);
      const [rows, [total]] = await Promise.all([
        select()
          .where(where)
          .orderBy(...orderBy(q.sort, SORTABLE, 'model,asc', jt808Models.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(jt808Models).where(where),
      ]);
      return toPage(rows.map(toRow), Number(total?.n ?? 0), q);
    },

    get: visible,

    async create(caller: Caller, body: ModelBody, meta: ClientMeta): Promise<ModelRow> {
      const orgId = body.orgId ?? caller.orgId;
      if (!caller.scope.has(orgId)) throw new AppError(404, 'NOT_FOUND');
      const row = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(jt808Models)
          .values({ orgId, model: body.model, description: body.description, items: body.items })
          .onConflictDoNothing()
          .returning({ id: jt808Models.id });
        if (!made) throw new AppError(409, 'JT808_MODEL_TAKEN');
        await record(tx, caller, orgId, 'jt808_model_create', body.model, meta);
        return made;
      });
      changed();
      return visible(caller, row.id);
    },

    async update(caller: Caller, id: string, body: ModelBody, meta: ClientMeta): Promise<ModelRow> {
      const before = await visible(caller, id);
      const [taken] = await db
        .select({ id: jt808Models.id })
        .from(jt808Models)
        .where(and(eq(jt808Models.orgId, before.orgId), eq(jt808Models.model, body.model)));
      if (taken && taken.id !== id) throw new AppError(409, 'JT808_MODEL_TAKEN');
      await db.transaction(async (tx) => {
        await tx.update(jt808Models).set({ model: body.model, description: body.description, items: body.items, updatedAt: new Date() }).where(eq(jt808Models.id, id));
        await record(tx, caller, before.orgId, 'jt808_model_update', body.model, meta);
      });
      changed();
      return visible(caller, id);
    },

    async remove(caller: Caller, id: string, meta: ClientMeta) {
      const before = await visible(caller, id);
      await db.transaction(async (tx) => {
        await tx.delete(jt808Models).where(eq(jt808Models.id, id));
        await record(tx, caller, before.orgId, 'jt808_model_delete', before.model, meta);
      });
      changed();
    },

    /** Another node changed a mapping (the event bus): read them again. */
    invalidate: drop,

    /** A terminal authenticated here with the model it registered with (perhaps another than before). */
    learn: remember,

    /** Terminal models registered in the caller's tree (suggestions for the form). */
    async registeredModels(caller: Caller): Promise<string[]> {
      const rows = await db
        .selectDistinct({ model: jt808Terminals.model })
        .from(jt808Terminals)
        .where(inOrgs(jt808Terminals.orgId, caller.scope.orgs))
        .orderBy(asc(jt808Terminals.model))
        .limit(500);
      return rows.map((r) => r.model).filter((m): m is string => Boolean(m));
    },

    /** The reports with the device's model mapping applied: mapped items become JSON blocks (and `jt808.probes`). */
    async apply(device: ReportingDevice, reports: Jt808Report[]): Promise<Jt808Report[]> {
      const items = await itemsOf(device);
      if (!items) return reports;
      return reports.map((r) => {
        const raw = r.extraData.jt808?.items;
        if (!raw || typeof raw !== 'object') return r;
        const { blocks, probes } = mapItems(items, raw as Record<string, string>);
        const extraData = { ...r.extraData, ...blocks };
        if (Object.keys(probes).length) extraData.jt808 = { ...extraData.jt808, probes };
        return { ...r, extraData };
      });
    },
  };
}
export type Jt808ModelService = ReturnType<typeof jt808ModelService>;
