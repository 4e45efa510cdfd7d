// The place library (issue 26 item 2): a place belongs to one organisation of the caller's tree;
// its name is unique there. A change is written into every policy, template and open task that
// copied it, in the same transaction; a place still in use is refused deletion with where it is
// used. GeoJSON export and import (by name: an existing name is changed, a new one made).
import { eq } from 'drizzle-orm';
import type { Page } from '@iotc/shared/envelope';
import type { I18nText } from '@iotc/shared/i18n';
import {
  featurePlace,
  openRing,
  placeBodySchema,
  placeFeature,
  polygonCircle,
  type PlaceBody,
  type PlaceCollection,
  type PlaceImportBody,
  type PlaceImportResult,
  type PlaceQuery,
  type PlaceRow,
  type PlaceUsage,
} from '@iotc/shared/place';
import { issueSentence } from '@iotc/shared/validation-text';
import type { Lang } from '@iotc/shared/i18n';
import type { Db, Tx } from '../../db/client.ts';
import { containsPattern, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { places } from '../../db/schema.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import type { PlaceRepo } from './repo.ts';

const SORTABLE: Sortable = { name: places.name, shape: places.shape, radiusM: places.radiusM, updatedAt: places.updatedAt, createdAt: places.createdAt };

/** The stored columns of a body: a polygon's centroid and enclosing radius are worked out. */
function shapeOf(b: PlaceBody) {
  if (b.shape === 'polygon') {
    const polygon = openRing(b.polygon!);
    const c = polygonCircle(polygon);
    return { shape: 'polygon' as const, lat: c.lat, lon: c.lon, radiusM: c.radiusM, polygon };
  }
  return { shape: 'circle' as const, lat: b.lat!, lon: b.lon!, radiusM: b.radiusM!, polygon: null };
}

/** Where a place is used, in both languages ("policies: A, B; tasks: T1"). */
export function usageText(u: PlaceUsage): I18nText {
  const parts = (labels: Record<keyof PlaceUsage, string>, sep: string, listSep: string, colon: string) =>
    (Object.keys(labels) as (keyof PlaceUsage)[])
      .filter((k) => u[k].length > 0)
      .map((k) => `${labels[k]}${colon}${u[k].slice(0, 10).join(listSep)}${u[k].length > 10 ? (listSep === '、' ? ` 等 ${u[k].length} 个` : ` and ${u[k].length - 10} more`) : ''}`)
      .join(sep);
  return {
    en: `used by ${parts({ policies: 'alarm policies', templates: 'transport templates', tasks: 'transport tasks', warehouses: 'warehouses' }, '; ', ', ', ': ')}`,
    zh: `正在使用它的有 ${parts({ policies: '告警策略', templates: '运输模板', tasks: '运输任务', warehouses: '仓库' }, '；', '、', '：')}`,
  };
}

const inUse = (u: PlaceUsage) => u.policies.length + u.templates.length + u.tasks.length + u.warehouses.length > 0;

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
}

export function placeService(db: Db, repo: PlaceRepo, opts: { audit: AuditWriter; onChange: (changed: { policies: number; tasks: number }) => void }) {
  const record = successRecorder(opts.audit);

  async function visible(caller: Caller, id: string): Promise<PlaceRow> {
    const row = await repo.one(id);
    if (!row || !caller.scope.has(row.orgId)) throw new AppError(404, 'NOT_FOUND');
    return row;
  }

  /** Changes the place and every copy of it, in the caller's transaction (onChange once it commits). */
  async function write(tx: Tx, id: string, body: PlaceBody) {
    const [p] = await tx
      .update(places)
      .set({ name: body.name, note: body.note, ...shapeOf(body), updatedAt: new Date() })
      .where(eq(places.id, id))
      .returning();
    if (!p) throw new AppError(404, 'NOT_FOUND');
    return repo.propagate(tx, p);
  }
  function changedCopies(changed: { policies: number; tasks: number }) {
    if (changed.policies + changed.tasks > 0) opts.onChange(changed);
  }

  async function insert(tx: Tx, orgId: string, body: PlaceBody): Promise<string> {
    const [row] = await tx
      .insert(places)
      .values({ orgId, name: body.name, note: body.note, ...shapeOf(body) })
      // Two creates of one name at once: the unique index decides.
      .onConflictDoNothing()
      .returning({ id: places.id });
    if (!row) throw new AppError(409, 'PLACE_NAME_TAKEN');
    return row.id;
  }

  return {
    async list(caller: Caller, q: PlaceQuery): Promise<Page<PlaceRow>> {
      const { limit, offset } = limitOffset(q);
      const { rows, total } = await repo.page(
        caller.scope.within(q.orgId),
        q.keyword ? containsPattern(q.keyword) : undefined,
        q.shape,
        orderBy(q.sort, SORTABLE, 'updatedAt,desc', places.id),
        limit,
        offset,
      );
      return toPage(rows, total, q);
    },

    get: visible,

    async usage(caller: Caller, id: string): Promise<PlaceUsage> {
      await visible(caller, id);
      return repo.usage(id);
    },

    async create(caller: Caller, body: PlaceBody, meta: ClientMeta): Promise<PlaceRow> {
      const orgId = body.orgId ?? caller.orgId;
      if (!caller.scope.has(orgId)) throw new AppError(404, 'NOT_FOUND');
      const id = await db.transaction(async (tx) => {
        const made = await insert(tx, orgId, body);
        await record(tx, caller, orgId, 'place_create', body.name, meta);
        return made;
      });
      return visible(caller, id);
    },

    /** Changes everything but the organisation; every copy of the place follows. */
    async update(caller: Caller, id: string, body: PlaceBody, meta: ClientMeta): Promise<PlaceRow> {
      const before = await visible(caller, id);
      if (await repo.nameTaken(before.orgId, body.name, id)) throw new AppError(409, 'PLACE_NAME_TAKEN');
      try {
        const changed = await db.transaction(async (tx) => {
          const copies = await write(tx, id, body);
          await record(tx, caller, before.orgId, 'place_update', body.name, meta);
          return copies;
        });
        changedCopies(changed);
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(409, 'PLACE_NAME_TAKEN');
        throw err;
      }
      return visible(caller, id);
    },

    /** Refused while a policy, a template, a task or a warehouse uses it, saying which. */
    async remove(caller: Caller, id: string, meta: ClientMeta): Promise<void> {
      const before = await visible(caller, id);
      const u = await repo.usage(id);
      if (inUse(u)) throw new AppError(409, 'PLACE_IN_USE', usageText(u));
      try {
        await db.transaction(async (tx) => {
          await tx.delete(places).where(eq(places.id, id));
          await record(tx, caller, before.orgId, 'place_delete', before.name, meta);
        });
      } catch (err) {
        // A task or a warehouse took it between the check and the delete.
        if ((err as { code?: string; cause?: { code?: string } }).cause?.code === '23503' || (err as { code?: string }).code === '23503') throw new AppError(409, 'PLACE_IN_USE', usageText(await repo.usage(id)));
        throw err;
      }
    },

    async exportGeoJson(caller: Caller, orgId: string | undefined): Promise<PlaceCollection> {
      const rows = await repo.all(caller.scope.within(orgId));
      return { type: 'FeatureCollection', features: rows.map(placeFeature) };
    },

    /** Each feature by its name: a place of that name in the organisation is changed (and its copies), a new name made. Features that do not read are listed; the rest go in. */
    async importGeoJson(caller: Caller, body: PlaceImportBody, lang: Lang, meta: ClientMeta): Promise<PlaceImportResult> {
      const orgId = body.orgId ?? caller.orgId;
      if (!caller.scope.has(orgId)) throw new AppError(404, 'NOT_FOUND');
      const result: PlaceImportResult = { created: 0, updated: 0, errors: [] };
      const copies = { policies: 0, tasks: 0 };
      const valid: { body: PlaceBody; existing: string | null }[] = [];
      for (const [i, f] of body.collection.features.entries()) {
        const raw = featurePlace(f);
        const parsed = placeBodySchema.safeParse(raw);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          result.errors.push({ feature: i + 1, message: issueSentence(issue as never, lang) });
          continue;
        }
        valid.push({ body: parsed.data, existing: await repo.nameTaken(orgId, parsed.data.name) });
      }
      // The features that read and their audit row go in one transaction.
      if (valid.length) {
        await db.transaction(async (tx) => {
          const made = new Map<string, string>();
          for (const v of valid) {
            const existing = v.existing ?? made.get(v.body.name);
            if (existing) {
              const changed = await write(tx, existing, v.body);
              copies.policies += changed.policies;
              copies.tasks += changed.tasks;
              result.updated++;
            } else {
              made.set(v.body.name, await insert(tx, orgId, v.body));
              result.created++;
            }
          }
          await record(tx, caller, orgId, 'place_import', `${result.created}+${result.updated}`, meta);
        });
      }
      changedCopies(copies);
      return result;
    },
  };
}
export type PlaceService = ReturnType<typeof placeService>;
