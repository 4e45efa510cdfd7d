// Transport task templates of the caller's organisation tree: list, one, create, change, delete.
// A name is unique within its organisation; the alarm level belongs to the template's
// organisation. Tasks copy a template's settings, so deleting one leaves them as they are.
import { and, count, eq, ilike, ne, or, sql } from 'drizzle-orm';
import type { Page } from '@iotc/shared/envelope';
import type { TemplateBody, TemplateQuery, TemplateRow } from '@iotc/shared/transport';
import type { Db } from '../../db/client.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { alarmLevels, orgs, transportTemplates } from '../../db/schema.ts';
import type { ClientMeta } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import { checkPlaceRefs, stopsFromLibrary } from '../place/repo.ts';

const SORTABLE: Sortable = { name: transportTemplates.name, createdAt: transportTemplates.createdAt, updatedAt: transportTemplates.updatedAt };

/** What the settings column of a template holds. */
export type TemplateSettings = Omit<TemplateBody, 'orgId' | 'name' | 'description'>;

const taskCount = sql<number>`(select count(*)::int from transport_tasks t where t.template_id = ${transportTemplates.id})`;

export function settingsOf(b: TemplateBody): TemplateSettings {
  return {
    origin: b.origin,
    destination: b.destination,
    stops: b.stops,
    routeSource: b.routeSource,
    route: b.route,
    tempMin: b.tempMin,
    tempMax: b.tempMax,
    humidityMin: b.humidityMin,
    humidityMax: b.humidityMax,
    alarm: b.alarm,
    recipients: b.recipients,
    detection: b.detection,
  };
}

/** Whether the alarm level (if any) is one of the organisation's own. */
export async function levelOfOrg(db: Db, orgId: string, levelId: string | null): Promise<boolean> {
  if (!levelId) return true;
  const [row] = await db.select({ n: count() }).from(alarmLevels).where(and(eq(alarmLevels.id, levelId), eq(alarmLevels.orgId, orgId)));
  return Number(row?.n ?? 0) > 0;
}

export function templateService(db: Db, opts: { audit: AuditWriter }) {
  const record = successRecorder(opts.audit);

  const select = () =>
    db
      .select({ t: transportTemplates, orgName: orgs.name, taskCount })
      .from(transportTemplates)
      .innerJoin(orgs, eq(orgs.id, transportTemplates.orgId));
  type Selected = Awaited<ReturnType<ReturnType<typeof select>['execute']>>[number];
  const toRow = ({ t, orgName, taskCount: n }: Selected): TemplateRow => ({
    id: t.id,
    orgId: t.orgId,
    orgName,
    name: t.name,
    description: t.description,
    ...(t.settings as TemplateSettings),
    // Templates saved before stops existed have none.
    stops: (t.settings as Partial<TemplateSettings>).stops ?? [],
    taskCount: Number(n),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  });

  async function visible(caller: Caller, id: string): Promise<TemplateRow> {
    const scope = caller.scope.orgs;
    const [row] = await select().where(eq(transportTemplates.id, id));
    if (!row || !scope.includes(row.t.orgId)) throw new AppError(404, 'NOT_FOUND');
    return toRow(row);
  }

  /** Refuses what the template may not name; answers the body with its stops as the library has them. */
  async function check(caller: Caller, orgId: string, body: TemplateBody, id?: string): Promise<TemplateBody> {
    if (!(await levelOfOrg(db, orgId, body.alarm.levelId))) throw new AppError(400, 'ALARM_LEVEL_UNKNOWN');
    await checkPlaceRefs(db, caller, [body.origin.placeId, body.destination.placeId]);
    const stops = await stopsFromLibrary(db, caller, body.stops);
    const [taken] = await db
      .select({ n: count() })
      .from(transportTemplates)
      .where(and(eq(transportTemplates.orgId, orgId), eq(transportTemplates.name, body.name), id ? ne(transportTemplates.id, id) : undefined));
    if (Number(taken?.n ?? 0) > 0) throw new AppError(409, 'TEMPLATE_NAME_TAKEN');
    return { ...body, stops };
  }

  return {
    async list(caller: Caller, q: TemplateQuery): Promise<Page<TemplateRow>> {
      const pattern = q.keyword ? containsPattern(q.keyword) : undefined;
      const where = and(
        inOrgs(transportTemplates.orgId, caller.scope.within(q.orgId)),
        pattern ? or(ilike(transportTemplates.name, pattern), ilike(transportTemplates.description, pattern)) : undefined,
      );
      const { limit, offset } = limitOffset(q);
      const [rows, [total]] = await Promise.all([
        select()
          .where(where)
          .orderBy(...orderBy(q.sort, SORTABLE, 'updatedAt,desc', transportTemplates.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(transportTemplates).where(where),
      ]);
      return toPage(rows.map(toRow), Number(total?.n ?? 0), q);
    },

    get: visible,

    async create(caller: Caller, body: TemplateBody, meta: ClientMeta): Promise<TemplateRow> {
      const orgId = body.orgId ?? caller.orgId;
      if (!caller.scope.has(orgId)) throw new AppError(404, 'NOT_FOUND');
      body = await check(caller, orgId, body);
      const row = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(transportTemplates)
          .values({ orgId, name: body.name, description: body.description, settings: settingsOf(body) })
          // Two creates of one name at once: the unique index decides.
          .onConflictDoNothing()
          .returning({ id: transportTemplates.id });
        if (!made) throw new AppError(409, 'TEMPLATE_NAME_TAKEN');
        await record(tx, caller, orgId, 'transport_template_create', body.name, meta);
        return made;
      });
      return visible(caller, row.id);
    },

    /** Changes everything but the organisation. */
    async update(caller: Caller, id: string, body: TemplateBody, meta: ClientMeta): Promise<TemplateRow> {
      const before = await visible(caller, id);
      body = await check(caller, before.orgId, body, id);
      try {
        await db.transaction(async (tx) => {
          await tx
            .update(transportTemplates)
            .set({ name: body.name, description: body.description, settings: settingsOf(body), updatedAt: new Date() })
            .where(eq(transportTemplates.id, id));
          await record(tx, caller, before.orgId, 'transport_template_update', body.name, meta);
        });
      } catch (err) {
        if ((err as { code?: string; cause?: { code?: string } }).code === '23505' || (err as { cause?: { code?: string } }).cause?.code === '23505') throw new AppError(409, 'TEMPLATE_NAME_TAKEN');
        throw err;
      }
      return visible(caller, id);
    },

    /** Tasks made from it keep their copied settings (their template id becomes null). */
    async remove(caller: Caller, id: string, meta: ClientMeta): Promise<void> {
      const before = await visible(caller, id);
      await db.transaction(async (tx) => {
        await tx.delete(transportTemplates).where(eq(transportTemplates.id, id));
        await record(tx, caller, before.orgId, 'transport_template_delete', before.name, meta);
      });
    },
  };
}
export type TemplateService = ReturnType<typeof templateService>;
