// Sends scheduled reports. A tick claims the due schedules (enabled, next_run_at passed) with
// `FOR UPDATE SKIP LOCKED` and moves each one's next_run_at to its next slot in the same
// transaction, so however many nodes tick, each due run is claimed by one of them once. The
// claimer then makes the file of the last whole period before the tick (previousPeriod) as the
// schedule's creator would see it, in the schedule's language, time zone and format, and mails
// it as an attachment to every recipient. Every run is recorded (sent / outbox / failed with the
// reason). A failed run is not retried: the schedule waits for its next period. After downtime a
// schedule sends once, for the last whole period, not once per missed slot. A node that dies
// between claiming and sending loses that run (at most once, never twice).
import { and, asc, eq, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { errorText } from '@iotc/shared/errors';
import { PRODUCT_TITLE, type I18nText, type Lang } from '@iotc/shared/i18n';
import {
  nextRunAt,
  PERIOD_OF_FREQUENCY,
  previousPeriod,
  type ReportRange,
  type ScheduleFrequency,
  type ScheduleKind,
  type ScheduleRun,
  type ScheduleRunStatus,
} from '@iotc/shared/ops-report';
import type { Permission } from '@iotc/shared/platform';
import type { Db, Tx } from '../../db/client.ts';
import { orgs, reportScheduleRuns, reportSchedules, users } from '../../db/schema.ts';
import { DeliveryError, type Messenger } from '../../lib/messenger.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ReportMaker } from './makers.ts';
import { scopeOf } from '../../db/list.ts';

/** Schedules one claim takes on (a tick claims again while batches come back full). */
const CLAIM_BATCH = 20;
/** Reports made and mailed at the same time by one node. */
const SEND_CONCURRENCY = 4;

export type ScheduleRecord = typeof reportSchedules.$inferSelect;
type RunRecord = typeof reportScheduleRuns.$inferSelect;

export const toRun = (r: RunRecord): ScheduleRun => ({
  id: r.id,
  scheduleId: r.scheduleId,
  start: r.periodStart,
  end: r.periodEnd,
  status: r.status,
  manual: r.manual,
  filename: r.filename,
  recipients: r.recipients,
  error: r.error,
  at: r.at.toISOString(),
});

// ---- the mail

const KIND_NAMES: Record<ScheduleKind, I18nText> = {
  temperature: { en: 'temperature and humidity record', zh: '温湿度记录' },
  alarm: { en: 'alarm report', zh: '告警报表' },
  online: { en: 'device online rate report', zh: '设备在线率报表' },
  mileage: { en: 'mileage report', zh: '里程报表' },
};
/** zh subjects read "告警日报", "里程月报"... */
const KIND_SHORT_ZH: Record<ScheduleKind, string> = { temperature: '温湿度', alarm: '告警', online: '设备在线率', mileage: '里程' };
const FREQUENCY_NAMES: Record<ScheduleFrequency, I18nText> = {
  daily: { en: 'Daily', zh: '日报' },
  weekly: { en: 'Weekly', zh: '周报' },
  monthly: { en: 'Monthly', zh: '月报' },
};

function periodLabel(range: ReportRange, lang: Lang): string {
  if (range.period === 'day') return range.start;
  if (range.period === 'month') return range.start.slice(0, 7);
  return lang === 'zh' ? `${range.start} 至 ${range.end}` : `${range.start} – ${range.end}`;
}

/** Subject and text of a scheduled report's mail, in the schedule's language. */
export function reportMail(s: Pick<ScheduleRecord, 'name' | 'kind' | 'frequency' | 'lang' | 'timezone'>, range: ReportRange, orgName: string): { subject: string; text: string } {
  const period = periodLabel(range, s.lang);
  if (s.lang === 'zh') {
    return {
      subject: `${KIND_SHORT_ZH[s.kind]}${FREQUENCY_NAMES[s.frequency].zh} ${period} – ${orgName}`,
      text: [
        '您好：',
        '',
        `附件为${orgName} ${period} 的${KIND_NAMES[s.kind].zh}（时区：${s.timezone}）。`,
        `定时报表：${s.name}`,
        '',
        `此邮件由${PRODUCT_TITLE.zh}自动发送。如不再需要，请联系贵组织停用或修改该定时报表。`,
      ].join('\n'),
    };
  }
  return {
    subject: `${FREQUENCY_NAMES[s.frequency].en} ${KIND_NAMES[s.kind].en} ${period} – ${orgName}`,
    text: [
      'Hello,',
      '',
      `Attached is the ${KIND_NAMES[s.kind].en} of ${orgName} for ${period} (time zone ${s.timezone}).`,
      `Scheduled report: ${s.name}`,
      '',
      `This mail was sent by ${PRODUCT_TITLE.en}. To stop receiving it, ask your organisation to disable or change the scheduled report.`,
    ].join('\n'),
  };
}

// ---- the scheduler

export interface SchedulerOptions {
  log: FastifyBaseLogger;
  messenger: Pick<Messenger, 'send'>;
  makers: Record<ScheduleKind, ReportMaker>;
  now?: () => number;
  /** When given, a scheduled run's creator must still hold report:schedule. */
  permissionsOf?: (user: { userId: string; isPlatformAdmin: boolean }) => Promise<Permission[]>;
}

export function reportScheduler(db: Db, opts: SchedulerOptions) {
  const now = opts.now ?? (() => Date.now());
  const running = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    running.add(p);
    void p.finally(() => running.delete(p)).catch(() => undefined);
    return p;
  };

  /** The creator as the caller of a scheduled run, or the reason there is none. */
  async function creatorOf(s: ScheduleRecord): Promise<Caller> {
    const [u] = s.createdBy
      ? await db
          .select({ id: users.id, orgId: users.orgId, account: users.account, status: users.status, isPlatformAdmin: users.isPlatformAdmin, orgStatus: orgs.status })
          .from(users)
          .innerJoin(orgs, eq(orgs.id, users.orgId))
          .where(eq(users.id, s.createdBy))
      : [];
    if (!u || u.status !== 'active' || u.orgStatus !== 'active') throw new AppError(400, 'REPORT_SCHEDULE_CREATOR_INACTIVE');
    const permissions = opts.permissionsOf ? await opts.permissionsOf({ userId: u.id, isPlatformAdmin: u.isPlatformAdmin }) : undefined;
    if (permissions && !permissions.includes('report:schedule')) throw new AppError(400, 'REPORT_SCHEDULE_CREATOR_INACTIVE');
    const scope = await scopeOf(db, u.orgId);
    return { userId: u.id, orgId: u.orgId, sessionId: '', account: u.account, isPlatformAdmin: u.isPlatformAdmin, scope, permissions: permissions ?? [] };
  }

  /** A failure as the run records it, in the schedule's language; internal details only in the log. */
  function reasonOf(err: unknown, s: ScheduleRecord): string {
    if (err instanceof AppError) return errorText(err.code, s.lang) + (err.detail ? `: ${err.detail}` : '');
    opts.log.error({ err, scheduleId: s.id }, 'scheduled report failed');
    return errorText('INTERNAL', s.lang);
  }

  /**
   * Makes the report of the last whole period before `at` and mails it; records the run and the
   * schedule's last run. `runAs`: the user of a "send now"; a scheduled run acts as the creator.
   */
  async function send(s: ScheduleRecord, at: number, runAs: Caller | null, audit?: (tx: Tx) => Promise<void>): Promise<ScheduleRun | null> {
    const range = previousPeriod(PERIOD_OF_FREQUENCY[s.frequency], at, s.timezone);
    let status: ScheduleRunStatus;
    let filename: string | null = null;
    let error: string | null = null;
    try {
      const caller = runAs ?? (await creatorOf(s));
      const file = await opts.makers[s.kind](caller, { period: range.period, date: range.start }, s.subjectIds, s.format, s.lang, s.timezone);
      filename = file.filename;
      const [org] = await db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, s.orgId));
      const mail = reportMail(s, range, org?.name ?? '');
      const results = await Promise.all(
        s.recipients.map((to) =>
          opts.messenger
            .send({ orgId: s.orgId, channel: 'email', to, ...mail, attachments: [{ filename: file.filename, content: file.body, contentType: file.contentType }] })
            .then(
              (r) => ({ to, status: r, error: null as string | null }),
              (err: unknown) => {
                if (!(err instanceof DeliveryError)) throw err;
                return { to, status: 'failed' as const, error: err.message };
              },
            ),
        ),
      );
      const failed = results.filter((r) => r.status === 'failed');
      status = failed.length ? 'failed' : results.some((r) => r.status === 'outbox') ? 'outbox' : 'sent';
      if (failed.length) error = failed.map((r) => `${r.to}: ${r.error}`).join('; ').slice(0, 1000);
    } catch (err) {
      status = 'failed';
      error = reasonOf(err, s);
    }
    return db.transaction(async (tx) => {
      // A schedule deleted meanwhile keeps no history.
      const [still] = await tx
        .update(reportSchedules)
        .set({ lastRunAt: new Date(at), lastStatus: status })
        .where(eq(reportSchedules.id, s.id))
        .returning({ id: reportSchedules.id });
      if (!still) return null;
      const [run] = await tx
        .insert(reportScheduleRuns)
        .values({ scheduleId: s.id, orgId: s.orgId, periodStart: range.start, periodEnd: range.end, status, manual: runAs !== null, filename, recipients: s.recipients, error, at: new Date(at) })
        .returning();
      await audit?.(tx);
      return toRun(run!);
    });
  }

  /** Claims due schedules and moves each to its next slot, in one transaction. */
  async function claim(at: number): Promise<ScheduleRecord[]> {
    return db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(reportSchedules)
        .where(and(eq(reportSchedules.enabled, true), lte(reportSchedules.nextRunAt, new Date(at))))
        .orderBy(asc(reportSchedules.nextRunAt), asc(reportSchedules.id))
        .limit(CLAIM_BATCH)
        .for('update', { skipLocked: true });
      for (const s of due) {
        await tx
          .update(reportSchedules)
          .set({ nextRunAt: new Date(nextRunAt(s.frequency, s.hour, s.timezone, at)) })
          .where(eq(reportSchedules.id, s.id));
      }
      return due;
    });
  }

  async function tick(at: number): Promise<void> {
    for (;;) {
      const due = await claim(at);
      const queue = [...due];
      await Promise.all(
        Array.from({ length: Math.min(SEND_CONCURRENCY, queue.length) }, async () => {
          for (let s = queue.shift(); s; s = queue.shift()) {
            await send(s, at, null).catch((err: unknown) => opts.log.error({ err, scheduleId: s.id }, 'scheduled report run not recorded'));
          }
        }),
      );
      if (due.length < CLAIM_BATCH) return;
    }
  }

  let ticking: Promise<void> | null = null;
  return {
    /** Sends the due schedules (one tick of a node at a time; `at` defaults to now). */
    tick(at: number = now()): Promise<void> {
      if (ticking) return ticking;
      ticking = track(tick(at))
        .catch((err: unknown) => opts.log.warn({ err }, 'report schedule tick failed'))
        .finally(() => (ticking = null));
      return ticking;
    },

    /** "Send now": the last whole period before now, as `caller`, recorded as manual; `audit` writes its audit row in the run's transaction. */
    runNow(s: ScheduleRecord, caller: Caller, audit?: (tx: Tx) => Promise<void>): Promise<ScheduleRun | null> {
      return track(send(s, now(), caller, audit));
    },

    /** Resolves once every tick and run under way has ended. */
    async settled(): Promise<void> {
      while (running.size) await Promise.allSettled([...running]);
    },
  };
}
export type ReportScheduler = ReturnType<typeof reportScheduler>;
