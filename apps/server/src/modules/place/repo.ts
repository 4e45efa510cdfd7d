// The place library's reads and writes (modules/place): the places of the caller's organisations,
// where one is used (policies, templates, tasks, warehouses), and writing a changed place into
// every copy of it in one transaction.
import { and, count, eq, ilike, inArray, isNull, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { AlarmRule } from '@iotc/shared/alarm';
import type { PlaceRow, PlaceUsage } from '@iotc/shared/place';
import type { TaskPlace, TaskStop } from '@iotc/shared/transport';
import type { Db, Tx } from '../../db/client.ts';
import { alarmPolicies, assets, orgs, places, transportTasks, transportTemplates } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';

type Executor = Db | Tx;
type PlaceRecord = typeof places.$inferSelect;

/** The place ids a policy, a template or a task names must be places the caller sees. */
export async function checkPlaceRefs(db: Executor, caller: Caller, ids: readonly (string | null | undefined)[]): Promise<void> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (wanted.length === 0) return;
  const found = await db.select({ orgId: places.orgId }).from(places).where(inArray(places.id, wanted));
  if (found.length !== wanted.length || found.some((p) => !caller.scope.has(p.orgId))) throw new AppError(400, 'PLACE_UNKNOWN');
}

/** A task's circle keeps to the task's radius range (50 m to 50 km). */
export const taskRadiusOf = (radiusM: number) => Math.min(50_000, Math.max(50, Math.round(radiusM)));

/**
 * The stops of a task or a template as the library has them: each must be a place the caller
 * sees (else PLACE_UNKNOWN, nothing stored); its name, centre and radius are copied from the
 * place (the typed address stays).
 */
export async function stopsFromLibrary(db: Executor, caller: Caller, stops: readonly TaskStop[]): Promise<TaskStop[]> {
  if (stops.length === 0) return [];
  const ids = [...new Set(stops.map((s) => s.placeId))];
  const found = new Map((await db.select().from(places).where(inArray(places.id, ids))).map((p) => [p.id, p]));
  return stops.map((s) => {
    const p = found.get(s.placeId);
    if (!p || !caller.scope.has(p.orgId)) throw new AppError(400, 'PLACE_UNKNOWN');
    return { ...s, name: p.name, lat: p.lat, lon: p.lon, radiusM: taskRadiusOf(p.radiusM) };
  });
}

export function placeRepo(db: Db) {
  const select = (ex: Executor = db) => ex.select({ p: places, orgName: orgs.name }).from(places).innerJoin(orgs, eq(orgs.id, places.orgId));
  const toRow = ({ p, orgName }: { p: PlaceRecord; orgName: string }): PlaceRow => ({
    id: p.id,
    orgId: p.orgId,
    orgName,
    name: p.name,
    shape: p.shape,
    lat: p.lat,
    lon: p.lon,
    radiusM: p.radiusM,
    polygon: p.polygon ?? null,
    note: p.note,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  });
  /** Rows whose JSON names the place (its id is a uuid, so a text match finds only it). */
  const mentions = (column: Parameters<typeof sql>[1], id: string) => sql`${column}::text like ${`%"${id}"%`}`;

  return {
    toRow,
    select,
    async one(id: string): Promise<PlaceRow | null> {
      const [row] = await select().where(eq(places.id, id));
      return row ? toRow(row) : null;
    },
    async page(orgIds: string[], keyword: string | undefined, shape: string | undefined, order: SQL[], limit: number, offset: number) {
      const where = and(
        inArray(places.orgId, orgIds),
        keyword ? or(ilike(places.name, keyword), ilike(places.note, keyword)) : undefined,
        shape ? eq(places.shape, shape as 'circle' | 'polygon') : undefined,
      );
      const [rows, [total]] = await Promise.all([
        select()
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(places).where(where),
      ]);
      return { rows: rows.map(toRow), total: Number(total?.n ?? 0) };
    },
    async all(orgIds: string[]): Promise<PlaceRow[]> {
      return (await select().where(inArray(places.orgId, orgIds)).orderBy(places.name)).map(toRow);
    },
    async nameTaken(orgId: string, name: string, exceptId?: string): Promise<string | null> {
      const [row] = await db
        .select({ id: places.id })
        .from(places)
        .where(and(eq(places.orgId, orgId), eq(places.name, name), exceptId ? ne(places.id, exceptId) : undefined));
      return row?.id ?? null;
    },
    async usage(id: string): Promise<PlaceUsage> {
      const [pol, tpl, tasks, wh] = await Promise.all([
        db
          .select({ name: alarmPolicies.name })
          .from(alarmPolicies)
          .where(and(isNull(alarmPolicies.taskId), mentions(alarmPolicies.rules, id)))
          .orderBy(alarmPolicies.name),
        db.select({ name: transportTemplates.name }).from(transportTemplates).where(mentions(transportTemplates.settings, id)).orderBy(transportTemplates.name),
        db
          .select({ code: transportTasks.code })
          .from(transportTasks)
          .where(or(eq(transportTasks.originPlaceId, id), eq(transportTasks.destinationPlaceId, id), mentions(transportTasks.settings, id)))
          .orderBy(transportTasks.code),
        db.select({ name: assets.name }).from(assets).where(eq(assets.placeId, id)).orderBy(assets.name),
      ]);
      return { policies: pol.map((r) => r.name), templates: tpl.map((r) => r.name), tasks: tasks.map((r) => r.code), warehouses: wh.map((r) => r.name) };
    },
    /**
     * Writes the place's shape into every copy: policies' rules (task policies too), templates'
     * origin, destination and stops, the origin, destination and stops of tasks not yet ended, and the position
     * of the warehouses on it. Answers
     * whether a policy or a task changed (the engine and the recogniser reload).
     */
    async propagate(tx: Tx, p: PlaceRecord): Promise<{ policies: number; tasks: number }> {
      const policyPlace = { placeId: p.id, name: p.name, lat: p.lat, lon: p.lon, radiusM: p.radiusM, ...(p.shape === 'polygon' && p.polygon ? { polygon: p.polygon } : {}) };
      const taskPlace = { name: p.name, lat: p.lat, lon: p.lon, radiusM: taskRadiusOf(p.radiusM) };
      const put = <T extends TaskPlace>(x: T): T => (x.placeId === p.id ? { ...x, ...taskPlace } : x);

      let policyCount = 0;
      const pols = await tx.select({ id: alarmPolicies.id, rules: alarmPolicies.rules }).from(alarmPolicies).where(mentions(alarmPolicies.rules, p.id));
      for (const pol of pols) {
        const rules = (pol.rules as AlarmRule[]).map((r) => ({ ...r, places: (r.places ?? []).map((x) => (x.placeId === p.id ? policyPlace : x)) }));
        await tx.update(alarmPolicies).set({ rules, updatedAt: new Date() }).where(eq(alarmPolicies.id, pol.id));
        policyCount++;
      }

      const tpls = await tx.select({ id: transportTemplates.id, settings: transportTemplates.settings }).from(transportTemplates).where(mentions(transportTemplates.settings, p.id));
      for (const t of tpls) {
        const s = t.settings as { origin: TaskPlace; destination: TaskPlace; stops?: TaskStop[] };
        await tx
          .update(transportTemplates)
          .set({ settings: { ...s, origin: put(s.origin), destination: put(s.destination), stops: (s.stops ?? []).map(put) }, updatedAt: new Date() })
          .where(eq(transportTemplates.id, t.id));
      }

      const open = notInArray(transportTasks.status, ['completed', 'cancelled']);
      const o = await tx
        .update(transportTasks)
        .set({ originName: taskPlace.name, originLat: taskPlace.lat, originLon: taskPlace.lon, originRadiusM: taskPlace.radiusM, updatedAt: new Date() })
        .where(and(eq(transportTasks.originPlaceId, p.id), open))
        .returning({ id: transportTasks.id });
      const d = await tx
        .update(transportTasks)
        .set({ destinationName: taskPlace.name, destinationLat: taskPlace.lat, destinationLon: taskPlace.lon, destinationRadiusM: taskPlace.radiusM, updatedAt: new Date() })
        .where(and(eq(transportTasks.destinationPlaceId, p.id), open))
        .returning({ id: transportTasks.id });
      // Stops of open tasks are in their settings.
      const stopTasks = await tx
        .select({ id: transportTasks.id, settings: transportTasks.settings })
        .from(transportTasks)
        .where(and(mentions(transportTasks.settings, p.id), open));
      for (const t of stopTasks) {
        const s = t.settings as { stops?: TaskStop[] };
        await tx
          .update(transportTasks)
          .set({ settings: { ...s, stops: (s.stops ?? []).map(put) }, updatedAt: new Date() })
          .where(eq(transportTasks.id, t.id));
      }
      // Warehouses on the place stand at its centre.
      await tx
        .update(assets)
        .set({ attrs: sql`${assets.attrs} || jsonb_build_object('lat', ${p.lat}::float8, 'lon', ${p.lon}::float8)`, updatedAt: new Date() })
        .where(eq(assets.placeId, p.id));
      return { policies: policyCount, tasks: o.length + d.length + stopTasks.length };
    },
  };
}
export type PlaceRepo = ReturnType<typeof placeRepo>;
