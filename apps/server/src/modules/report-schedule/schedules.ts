// Scheduled reports of the caller's organisation tree: list, one, create, change, delete,
// enable, disable, "send now" and the run history. A schedule belongs to its creator's
// organisation and its subjects (the temperature record's one asset of a GSP kind, the alarm
// and mileage reports' assets, the online rate's devices) to that organisation's tree: unknown
// or foreign ids are refused and nothing is stored. next_run_at is set from nextRunAt on every
// create, change and enable (null while disabled).
import { and, count, desc, eq, ilike, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Page } from '@iotc/shared/envelope';
import { GSP_ASSET_KINDS } from '@iotc/shared/gsp-report';
import { blankAsUndefined, listQuerySchema, type ListQuery } from '@iotc/shared/list';
import { nextRunAt, SCHEDULE_KINDS, type ScheduleBody, type ScheduleRow, type ScheduleRun } from '@iotc/shared/ops-report';
import type { Permission } from '@iotc/shared/platform';
import type { Db } from '../../db/client.ts';
import { containsPattern, inOrgs, isoOrNull, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { assets, devices, orgs, reportScheduleRuns, reportSchedules, users } from '../../db/schema.ts';
import type { ClientMeta } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import { toRun, type ReportScheduler, type ScheduleRecord } from './runner.ts';

export const scheduleQuerySchema = listQuerySchema.extend({
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  kind: z.preprocess(blankAsUndefined, z.enum(SCHEDULE_KINDS).optional()),
  enabled: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  /** Narrow to one organisation of the caller's tree (and its descendants). */
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type ScheduleQuery = z.infer<typeof scheduleQuerySchema>;

const SORTABLE: Sortable = {
  name: reportSchedules.name,
  kind: reportSchedules.kind,
  nextRunAt: reportSchedules.nextRunAt,
  lastRunAt: reportSchedules.lastRunAt,
  createdAt: reportSchedules.createdAt,
  updatedAt: reportSchedules.updatedAt,
};

const toRow = (s: ScheduleRecord): ScheduleRow => ({
  id: s.id,
  name: s.name,
  kind: s.kind,
  frequency: s.frequency,
  hour: s.hour,
  timezone: s.timezone,
  lang: s.lang,
  format: s.format,
  subjectIds: s.subjectIds,
  recipients: s.recipients,
  enabled: s.enabled,
  nextRunAt: isoOrNull(s.nextRunAt),
  lastRunAt: isoOrNull(s.lastRunAt),
  lastStatus: s.lastStatus,
  createdBy: s.createdBy,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

export function scheduleService(
  db: Db,
  opts: {
    audit: AuditWriter;
    scheduler: Pick<ReportScheduler, 'runNow'>;
    /** As the scheduler's: a creator without report:schedule can no longer run the schedule. */
    permissionsOf?: (user: { userId: string; isPlatformAdmin: boolean }) => Promise<Permission[]>;
    now?: () => number;
  },
) {
  const record = successRecorder(opts.audit);
  const now = opts.now ?? (() => Date.now());

  async function visible(caller: Caller, id: string): Promise<ScheduleRecord> {
    const scope = caller.scope.orgs;
    const [row] = await db.select().from(reportSchedules).where(eq(reportSchedules.id, id));
    if (!row || !scope.includes(row.orgId)) throw new AppError(404, 'NOT_FOUND');
    return row;
  }

  /** The subjects, each once, all of the organisation tree (and of a GSP kind for the temperature record). */
  async function subjectsOf(caller: Caller, orgId: string, body: ScheduleBody): Promise<string[]> {
    const ids = [...new Set(body.subjectIds)];
    if (ids.length === 0) return ids;
    const tree = caller.scope.within(orgId);
    if (body.kind === 'online') {
      const [found] = await db.select({ n: count() }).from(devices).where(and(inArray(devices.id, ids), inOrgs(devices.orgId, tree)));
      if (Number(found?.n ?? 0) !== ids.length) throw new AppError(400, 'REPORT_SCHEDULE_DEVICE_UNKNOWN');
      return ids;
    }
    const found = await db.select({ id: assets.id, kind: assets.kind }).from(assets).where(and(inArray(assets.id, ids), inOrgs(assets.orgId, tree)));
    if (found.length !== ids.length) throw new AppError(400, 'REPORT_SCHEDULE_ASSET_UNKNOWN');
    if (body.kind === 'temperature' && !found.every((a) => (GSP_ASSET_KINDS as readonly string[]).includes(a.kind))) throw new AppError(400, 'GSP_ASSET_KIND');
    return ids;
  }

  const values = (b: ScheduleBody, subjectIds: string[]) => ({
    name: b.name,
    kind: b.kind,
    frequency: b.frequency,
    hour: b.hour,
    timezone: b.timezone,
    lang: b.lang,
    format: b.format,
    subjectIds,
    recipients: [...new Set(b.recipients.map((r) => r.trim()))],
    enabled: b.enabled,
  });

  /** Whether the user can still run a schedule (exists, active, in an active organisation, allowed). */
  async function active(userId: string | null): Promise<boolean> {
    if (!userId) return false;
    const [u] = await db
      .select({ status: users.status, orgStatus: orgs.status, isPlatformAdmin: users.isPlatformAdmin })
      .from(users)
      .innerJoin(orgs, eq(orgs.id, users.orgId))
      .where(eq(users.id, userId));
    if (u?.status !== 'active' || u.orgStatus !== 'active') return false;
    return !opts.permissionsOf || (await opts.permissionsOf({ userId, isPlatformAdmin: u.isPlatformAdmin })).includes('report:schedule');
  }

  return {
    async list(caller: Caller, q: ScheduleQuery): Promise<Page<ScheduleRow>> {
      const where = and(
        inOrgs(reportSchedules.orgId, caller.scope.within(q.orgId)),
        q.keyword ? ilike(reportSchedules.name, containsPattern(q.keyword)) : undefined,
        q.kind ? eq(reportSchedules.kind, q.kind) : undefined,
        q.enabled ? eq(reportSchedules.enabled, q.enabled === 'true') : undefined,
      );
      const { limit, offset } = limitOffset(q);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(reportSchedules)
          .where(where)
          .orderBy(...orderBy(q.sort, SORTABLE, 'updatedAt,desc', reportSchedules.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(reportSchedules).where(where),
      ]);
      return toPage(rows.map(toRow), Number(total?.n ?? 0), q);
    },

    async get(caller: Caller, id: string): Promise<ScheduleRow> {
      return toRow(await visible(caller, id));
    },

    async create(caller: Caller, body: ScheduleBody, meta: ClientMeta): Promise<ScheduleRow> {
      const subjectIds = await subjectsOf(caller, caller.orgId, body);
      const row = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(reportSchedules)
          .values({
            orgId: caller.orgId,
            ...values(body, subjectIds),
            nextRunAt: body.enabled ? new Date(nextRunAt(body.frequency, body.hour, body.timezone, now())) : null,
            createdBy: caller.userId,
          })
          .returning();
        await record(tx, caller, caller.orgId, 'report_schedule_create', body.name, meta);
        return made;
      });
      return toRow(row!);
    },

    /**
     * Changes everything but the organisation. An unchanged timing keeps a pending slot; a
     * creator who can no longer run the schedule is replaced by the caller.
     */
    async update(caller: Caller, id: string, body: ScheduleBody, meta: ClientMeta): Promise<ScheduleRow> {
      const before = await visible(caller, id);
      const subjectIds = await subjectsOf(caller, before.orgId, body);
      const sameSlot = before.enabled && before.nextRunAt && before.frequency === body.frequency && before.hour === body.hour && before.timezone === body.timezone;
      const next = !body.enabled ? null : sameSlot ? before.nextRunAt : new Date(nextRunAt(body.frequency, body.hour, body.timezone, now()));
      const createdBy = (await active(before.createdBy)) ? before.createdBy : caller.userId;
      const row = await db.transaction(async (tx) => {
        const [made] = await tx
          .update(reportSchedules)
          .set({ ...values(body, subjectIds), nextRunAt: next, createdBy, updatedAt: new Date() })
          .where(eq(reportSchedules.id, id))
          .returning();
        if (!made) throw new AppError(404, 'NOT_FOUND');
        await record(tx, caller, before.orgId, 'report_schedule_update', body.name, meta);
        return made;
      });
      return toRow(row);
    },

    /** Its run history goes with it. */
    async remove(caller: Caller, id: string, meta: ClientMeta): Promise<void> {
      const before = await visible(caller, id);
      await db.transaction(async (tx) => {
        await tx.delete(reportSchedules).where(eq(reportSchedules.id, id));
        await record(tx, caller, before.orgId, 'report_schedule_delete', before.name, meta);
      });
    },

    /** Enabling sets the next slot after now (missed slots are not made up); disabling clears it. */
    async setEnabled(caller: Caller, id: string, enabled: boolean, meta: ClientMeta): Promise<ScheduleRow> {
      const before = await visible(caller, id);
      const next = enabled ? (before.enabled && before.nextRunAt ? before.nextRunAt : new Date(nextRunAt(before.frequency, before.hour, before.timezone, now()))) : null;
      const row = await db.transaction(async (tx) => {
        const [made] = await tx.update(reportSchedules).set({ enabled, nextRunAt: next, updatedAt: new Date() }).where(eq(reportSchedules.id, id)).returning();
        if (!made) throw new AppError(404, 'NOT_FOUND');
        await record(tx, caller, before.orgId, enabled ? 'report_schedule_enable' : 'report_schedule_disable', before.name, meta);
        return made;
      });
      return toRow(row);
    },

    /** "Send now" as the caller: the last whole period, recorded as a manual run (the next slot stays). */
    async run(caller: Caller, id: string, meta: ClientMeta): Promise<ScheduleRun> {
      const s = await visible(caller, id);
      const run = await opts.scheduler.runNow(s, caller, (tx) => record(tx, caller, s.orgId, 'report_schedule_run', s.name, meta));
      if (!run) throw new AppError(404, 'NOT_FOUND');
      return run;
    },

    /** The runs, newest first. */
    async runs(caller: Caller, id: string, q: ListQuery): Promise<Page<ScheduleRun>> {
      await visible(caller, id);
      const { limit, offset } = limitOffset(q);
      const where = eq(reportScheduleRuns.scheduleId, id);
      const [rows, [total]] = await Promise.all([
        db.select().from(reportScheduleRuns).where(where).orderBy(desc(reportScheduleRuns.at), desc(reportScheduleRuns.id)).limit(limit).offset(offset),
        db.select({ n: count() }).from(reportScheduleRuns).where(where),
      ]);
      return toPage(rows.map(toRun), Number(total?.n ?? 0), q);
    },
  };
}
export type ScheduleService = ReturnType<typeof scheduleService>;
