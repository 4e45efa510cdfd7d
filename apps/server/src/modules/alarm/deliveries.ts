// The delivery log of the caller's organisation tree (deliveries belong to their rule's
// organisation): the query, one delivery with every attempt, the deliveries of one alarm, and
// "send again". A user's own messages (`mine`) are theirs whatever their organisation.
import { and, asc, count, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { DeliveryAttempt, DeliveryDetail, DeliveryQuery, DeliveryRow } from '@iotc/shared/alarm-push';
import type { AlarmType } from '@iotc/shared/alarm';
import type { Page } from '@iotc/shared/envelope';
import type { Db } from '../../db/client.ts';
import { inOrgs, limitOffset, orderBy, toPage, type Sortable, isoOrNull } from '../../db/list.ts';
import { alarmLevels, alarms, deliveries, deliveryAttempts, devices, users } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import type { AlarmPush } from './push.ts';

const SORTABLE: Sortable = {
  createdAt: deliveries.createdAt,
  sentAt: deliveries.sentAt,
  nextAttemptAt: deliveries.nextAttemptAt,
  attempts: deliveries.attempts,
  status: deliveries.status,
  channel: deliveries.channel,
};

export function deliveryService(db: Db, push: Pick<AlarmPush, 'resend'>, audit: AuditWriter) {
  const record = successRecorder(audit);
  const select = () =>
    db
      .select({
        d: deliveries,
        alarmType: alarms.type,
        alarmStatus: alarms.status,
        level: { id: alarmLevels.id, code: alarmLevels.code, nameZh: alarmLevels.nameZh, nameEn: alarmLevels.nameEn, color: alarmLevels.color },
        device: { id: devices.id, deviceId: devices.deviceId, name: devices.name },
        userAccount: users.account,
        userName: users.name,
      })
      .from(deliveries)
      .innerJoin(alarms, eq(alarms.id, deliveries.alarmId))
      .innerJoin(alarmLevels, eq(alarmLevels.id, alarms.levelId))
      .innerJoin(devices, eq(devices.id, alarms.deviceRef))
      .leftJoin(users, eq(users.id, deliveries.userId));
  type Selected = Awaited<ReturnType<ReturnType<typeof select>['execute']>>[number];

  const toRow = (r: Selected): DeliveryRow => {
    const d = r.d;
    return {
      id: d.id,
      orgId: d.orgId,
      alarmId: d.alarmId,
      ruleId: d.ruleId,
      ruleName: d.ruleName,
      event: d.event,
      step: d.step,
      round: d.round,
      channel: d.channel,
      target: d.target,
      user: d.userId && r.userAccount ? { id: d.userId, account: r.userAccount, name: r.userName! } : null,
      subject: d.subject,
      body: d.body,
      status: d.status,
      attempts: d.attempts,
      nextAttemptAt: d.status === 'pending' ? isoOrNull(d.nextAttemptAt) : null,
      lastError: d.lastError,
      responseCode: d.responseCode,
      createdAt: d.createdAt.toISOString(),
      sentAt: isoOrNull(d.sentAt),
      alarm: { type: r.alarmType as AlarmType, status: r.alarmStatus, level: r.level, device: r.device },
    };
  };

  async function where(caller: Caller, q: DeliveryQuery): Promise<SQL | undefined> {
    const mine = q.mine === 'true';
    return and(
      mine ? eq(deliveries.userId, caller.userId) : inOrgs(deliveries.orgId, caller.scope.within(q.orgId)),
      q.status?.length ? inArray(deliveries.status, q.status) : undefined,
      q.channel?.length ? inArray(deliveries.channel, q.channel) : undefined,
      q.alarmId ? eq(deliveries.alarmId, q.alarmId) : undefined,
      q.ruleId ? eq(deliveries.ruleId, q.ruleId) : undefined,
      q.from ? gte(deliveries.createdAt, new Date(q.from)) : undefined,
      q.to ? lt(deliveries.createdAt, new Date(q.to)) : undefined,
    );
  }

  /** Of the caller's organisation tree (`orgWide`), or addressed to the caller (`own`). */
  async function visible(caller: Caller, id: string, how: { orgWide: boolean; own: boolean }): Promise<Selected> {
    const [row] = await select().where(eq(deliveries.id, id));
    if (row && how.own && row.d.userId === caller.userId) return row;
    if (!row || !how.orgWide || !caller.scope.has(row.d.orgId)) throw new AppError(404, 'NOT_FOUND');
    return row;
  }

  async function detail(row: Selected): Promise<DeliveryDetail> {
    const log = await db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, row.d.id)).orderBy(asc(deliveryAttempts.id));
    const attemptLog: DeliveryAttempt[] = log.map((a) => ({ at: a.at.toISOString(), status: a.status, responseCode: a.responseCode, error: a.error, durationMs: a.durationMs, resend: a.resend }));
    return { ...toRow(row), attemptLog };
  }

  return {
    async list(caller: Caller, q: DeliveryQuery): Promise<Page<DeliveryRow>> {
      const w = await where(caller, q);
      const { limit, offset } = limitOffset(q);
      const [rows, [total]] = await Promise.all([
        select()
          .where(w)
          .orderBy(...orderBy(q.sort, SORTABLE, 'createdAt,desc', deliveries.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(deliveries).where(w),
      ]);
      return toPage(rows.map(toRow), Number(total?.n ?? 0), q);
    },

    /** `orgWide`: the caller may read the organisation tree's log (alarm:read); else only their own messages. */
    async get(caller: Caller, id: string, orgWide: boolean): Promise<DeliveryDetail> {
      return detail(await visible(caller, id, { orgWide, own: true }));
    },

    /** The deliveries about one alarm the caller may see, oldest first (for the alarm's detail). */
    async ofAlarm(caller: Caller, alarmId: string): Promise<DeliveryRow[]> {
      const scope = caller.scope.orgs;
      const [alarm] = await db.select({ orgId: alarms.orgId }).from(alarms).where(eq(alarms.id, alarmId));
      if (!alarm || !scope.includes(alarm.orgId)) throw new AppError(404, 'NOT_FOUND');
      const rows = await select()
        .where(and(eq(deliveries.alarmId, alarmId), inOrgs(deliveries.orgId, scope)))
        .orderBy(asc(deliveries.createdAt), asc(deliveries.step), asc(deliveries.channel), asc(deliveries.target));
      return rows.map(toRow);
    },

    /** Sends it again now: a new attempt, whatever its status; answers it with every attempt. */
    async resend(caller: Caller, id: string, meta: ClientMeta): Promise<DeliveryDetail> {
      const how = { orgWide: true, own: false };
      const before = await visible(caller, id, how);
      await push.resend(id);
      // After the send, on its own: a message out cannot be taken back with a transaction.
      await record(db, caller, before.d.orgId, 'push_delivery_resend', `${before.d.channel} ${before.d.id}`, meta);
      return detail(await visible(caller, id, how));
    },
  };
}
export type DeliveryService = ReturnType<typeof deliveryService>;
