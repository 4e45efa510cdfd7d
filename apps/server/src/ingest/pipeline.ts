// The intake pipeline shared by MQTT and HTTP: authenticate the device by its secret, check and
// decode each report, hand the good ones to the reading store (batched across messages; a
// repeated device time is stored once), and keep every refusal with its reason in the device's
// intake log. A bad report never stops the others.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { DEVICE_ID_PATTERN, deviceReportSchema, MAX_FUTURE_SKEW_MS, MAX_REPORTS_PER_CALL, type IntakeResult } from '@iotc/shared/device';
import { decodeExtraData } from '@iotc/shared/sensors';
import { rowsOf, type Db } from '../db/client.ts';
import { devices, intakeLog } from '../db/schema.ts';
import type { ReadingStore } from './store.ts';
import type { Reading } from './stored-readings.ts';
import { storableText, unstorableTextAt } from '../plugins/text-guard.ts';
import type { DeviceRateLimiter } from './device-rate.ts';
import type { DatabaseAvailability } from '../db/availability.ts';
import { authFailureLimiter, type AuthFailureLimiter } from './auth-failures.ts';

const UNSTORABLE_REASON = 'text with a NUL character or an unpaired surrogate cannot be stored';

export type Channel = 'mqtt' | 'http' | 'jt808';

export interface ReportingDevice {
  id: string;
  orgId: string;
  deviceId: string;
}

/** The reports of one HTTP body or MQTT payload (one report or an array); null when there are too many. */
export function reportList(body: unknown): unknown[] | null {
  const reports = Array.isArray(body) ? body : [body];
  return reports.length > MAX_REPORTS_PER_CALL ? null : reports;
}

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');
/** A new device secret: 24 random bytes, shown once and kept only as its hash. */
export const newSecret = () => randomBytes(24).toString('base64url');

/** Intake log rows deleted per statement by `purge`. */
const PURGE_BATCH = 5_000;

/** A device id of a caller that did not sign in, as kept in the intake log: at most this long. */
export const LOGGED_DEVICE_ID_MAX = 64;
/** Longer than any secret the platform gives out (32 characters): a longer one is refused unread. */
const SECRET_MAX = 256;
/** The earliest device time taken by default (INTAKE_EARLIEST_TIME). */
export const DEFAULT_EARLIEST = new Date('2000-01-01T00:00:00Z');

/** Keeps a refused payload readable in the log without letting one device fill the table. */
const excerpt = (v: unknown) => {
  let text: string | undefined;
  try {
    text = typeof v === 'string' ? v : JSON.stringify(v);
  } catch {
    // Nested too deep to write back out (JSON.stringify runs out of stack): said, not shown.
    text = '(nested too deeply to show)';
  }
  // NUL and lone surrogates cannot be stored in a text column: shown as U+FFFD.
  return text === undefined ? null : storableText(text.slice(0, 2000));
};

/** Reports of a known device that the intake refused, as kept in its intake log. */
export interface Refusal {
  deviceRef: string;
  /** How many reports (one message or call may carry several). */
  count: number;
  at: Date;
  /** The last one's reason. */
  reason: string;
}

export function intakePipeline(
  db: Db,
  store: ReadingStore,
  opts: {
    now?: () => Date;
    /** Told after refusals of a known device are logged (the fault detector counts them). Its failures never reach the intake. */
    onRefused?: (refusal: Refusal) => void;
    /** Metrics: what became of the reports of each message or call (a message refused whole counts as one rejected). */
    onCounted?: (channel: Channel, counts: { stored: number; duplicate: number; rejected: number }) => void;
    /** The per-device message rate of MQTT and HTTP (see device-rate.ts); `ingest` itself is never throttled. */
    deviceRate?: DeviceRateLimiter;
    /** While the database is unreachable, sign-ins and refusals fail at once with UnavailableError (see db/availability.ts). */
    availability?: DatabaseAvailability;
    /** Where a device slowed down to its rate is noted (at most once a second per device). */
    log?: { warn(obj: object, msg: string): void };
    /** Reports dated before this are refused (default DEFAULT_EARLIEST); the latest is MAX_FUTURE_SKEW_MS ahead. */
    earliest?: Date;
    /** Failed sign-ins a minute from one address before it is refused unread (default 20). */
    authFailuresPerMinute?: number;
    /** How long intake log rows are kept (`purge`; default 30 days). */
    keepLogMs?: number;
  } = {},
) {
  const now = opts.now ?? (() => new Date());
  const earliest = opts.earliest ?? DEFAULT_EARLIEST;
  const authFailures: AuthFailureLimiter = authFailureLimiter(opts.authFailuresPerMinute ?? 20);
  const guard = <T>(run: () => Promise<T>): Promise<T> => (opts.availability ? opts.availability.guard(run) : run());
  const refused = (refusal: Refusal) => {
    try {
      opts.onRefused?.(refusal);
    } catch {
      // The listener logs its own failures; a device's refusal is recorded either way.
    }
  };

  return {
    /** Failed sign-ins per client address: `blocked` before a sign-in, `failed` after a failed one. */
    authFailures,

    /** The device whose id and secret these are, or null (unknown device or wrong secret). */
    async authenticate(deviceId: string, secret: string): Promise<ReportingDevice | null> {
      // No device has such an id (a NUL, say, which the database would refuse with an error).
      if (!DEVICE_ID_PATTERN.test(deviceId) || secret.length > SECRET_MAX) return null;
      const [row] = await guard(() =>
        db
          .select({ id: devices.id, orgId: devices.orgId, deviceId: devices.deviceId, secretHash: devices.secretHash })
          .from(devices)
          .where(eq(devices.deviceId, deviceId)),
      );
      const given = Buffer.from(hashSecret(secret), 'hex');
      const kept = Buffer.from(row?.secretHash ?? hashSecret(''), 'hex');
      if (!row || !timingSafeEqual(given, kept)) return null;
      return { id: row.id, orgId: row.orgId, deviceId: row.deviceId };
    },

    /** The registered device of an id (an external broker has authenticated it already). */
    async deviceOf(deviceId: string): Promise<ReportingDevice | null> {
      if (!DEVICE_ID_PATTERN.test(deviceId)) return null;
      const [row] = await guard(() =>
        db.select({ id: devices.id, orgId: devices.orgId, deviceId: devices.deviceId }).from(devices).where(eq(devices.deviceId, deviceId)),
      );
      return row ?? null;
    },

    /**
     * Takes one HTTP call of a device against its rate before `ingest`: null when admitted; else
     * how long to wait (the caller answers 429 with Retry-After), the refusal kept in the device's
     * intake log.
     */
    async throttle(device: ReportingDevice, channel: Channel): Promise<{ retryAfterMs: number } | null> {
      const refusal = opts.deviceRate?.take(device.deviceId, now().getTime());
      if (!refusal) return null;
      opts.onCounted?.(channel, { stored: 0, duplicate: 0, rejected: 1 });
      if (refusal.logReason) {
        await db.insert(intakeLog).values({ deviceRef: device.id, deviceId: device.deviceId, channel, reason: refusal.logReason, payload: null });
        refused({ deviceRef: device.id, count: 1, at: now(), reason: refusal.logReason });
      }
      return { retryAfterMs: refusal.retryAfterMs };
    },

    /**
     * The embedded broker's per-device rate (device-rate.ts): waits until the device's message fits
     * its rate, never refusing it. The broker acknowledges a QoS 1 message only once it is stored and
     * reads nothing more from that device's connection meanwhile, so a device over its rate is slowed
     * down to it (TCP back-pressure) rather than cut off, and no report is lost to the limit.
     */
    async pace(device: ReportingDevice): Promise<void> {
      for (;;) {
        const wait = opts.deviceRate?.take(device.deviceId, now().getTime());
        if (!wait) return;
        if (wait.logReason) opts.log?.warn({ deviceId: device.deviceId, waitMs: wait.retryAfterMs }, 'MQTT device over its rate limit: its messages are taken at the limit');
        await new Promise((r) => setTimeout(r, wait.retryAfterMs));
      }
    },

    /** Records a refusal that belongs to no known device (or before any report could be read). */
    async refuse(channel: Channel, deviceId: string | null, reason: string, payload: unknown, deviceRef: string | null = null) {
      // The id a caller gave is bounded too: a failed sign-in may name anything.
      const id = deviceId === null ? null : storableText(deviceId.length > LOGGED_DEVICE_ID_MAX ? `${deviceId.slice(0, LOGGED_DEVICE_ID_MAX)}...` : deviceId);
      await guard(() => db.insert(intakeLog).values({ deviceRef, deviceId: id, channel, reason, payload: excerpt(payload) }));
      opts.onCounted?.(channel, { stored: 0, duplicate: 0, rejected: 1 });
      if (deviceRef) refused({ deviceRef, count: 1, at: now(), reason });
    },

    /**
     * Deletes intake log rows older than `keepLogMs`, oldest first, a bounded batch at a time
     * (ids grow with time, so each batch reads the primary key's first rows only), until a batch
     * has none left to delete; resolves to how many went.
     */
    async purge(): Promise<number> {
      const before = new Date(now().getTime() - (opts.keepLogMs ?? 30 * 86_400_000)).toISOString();
      let total = 0;
      for (;;) {
        const r = rowsOf<{ n: number | string }>(
          await db.execute(sql`with oldest as (select id, at from intake_log order by id limit ${PURGE_BATCH}),
            gone as (delete from intake_log where id in (select id from oldest where at < ${before}::timestamptz) returning 1)
            select count(*) as n from gone`),
        )[0];
        const n = Number(r?.n ?? 0);
        total += n;
        if (n === 0) return total;
      }
    },

    /** Counts reports refused before they reached the store because the database was unreachable (an HTTP call refused at sign-in). */
    refusedUnavailable(count: number) {
      opts.availability?.refused(count);
    },

    /** Checks, decodes and stores the reports of one authenticated device. */
    async ingest(device: ReportingDevice, reports: unknown[], channel: Channel): Promise<IntakeResult> {
      const rejected: IntakeResult['rejected'] = [];
      const rows: Reading[] = [];
      /** The report each row came from. */
      const rowReport: number[] = [];
      const latest = now().getTime() + MAX_FUTURE_SKEW_MS;
      reports.forEach((input, index) => {
        // Text PostgreSQL cannot store (NUL, lone surrogates) would fail the whole batch's insert.
        const unstorable = unstorableTextAt(input, 'report');
        if (unstorable) {
          rejected.push({ index, reason: `${unstorable}: ${UNSTORABLE_REASON}` });
          return;
        }
        const parsed = deviceReportSchema.safeParse(input);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          rejected.push({ index, reason: `${issue.path.join('.') || 'report'}: ${issue.message}` });
          return;
        }
        const r = parsed.data;
        if (r.deviceId !== device.deviceId) {
          rejected.push({ index, reason: `deviceId ${r.deviceId} is not the authenticated device ${device.deviceId}` });
          return;
        }
        const time = new Date(r.time);
        if (time.getTime() > latest) {
          rejected.push({ index, reason: `time ${r.time} is in the future` });
          return;
        }
        if (time.getTime() < earliest.getTime()) {
          rejected.push({ index, reason: `time ${r.time} is before the earliest device time taken, ${earliest.toISOString()}` });
          return;
        }
        const decoded = decodeExtraData(r.extraData);
        if (!decoded.ok) {
          rejected.push({ index, reason: decoded.reason });
          return;
        }
        const unstorableRaw = unstorableTextAt(decoded.raw, 'extraData');
        if (unstorableRaw) {
          rejected.push({ index, reason: `${unstorableRaw}: ${UNSTORABLE_REASON}` });
          return;
        }
        rowReport.push(index);
        rows.push({
          orgId: device.orgId,
          deviceRef: device.id,
          time,
          lat: r.lat ?? null,
          lon: r.lon ?? null,
          positioning: r.positioning ?? null,
          network: r.network ?? null,
          speed: r.speed ?? null,
          course: r.course ?? null,
          acc: r.acc ?? null,
          raw: decoded.raw,
          sensors: decoded.values,
        });
      });
      // A reading the database refuses is refused alone; the others, and other devices' readings written with them, are stored.
      const { inserted, failed } = await store.store(rows);
      if (failed.length) {
        for (const f of failed) rejected.push({ index: rowReport[f.index]!, reason: f.reason });
        rejected.sort((a, b) => a.index - b.index);
      }
      if (rejected.length) {
        // A log row that cannot be written (disk full) refuses the call as unavailable: it is sent again.
        await guard(() => db.insert(intakeLog).values(
            rejected.map((r) => ({ deviceRef: device.id, deviceId: device.deviceId, channel, reason: r.reason, payload: excerpt(reports[r.index]) })),
          ),
        );
        refused({ deviceRef: device.id, count: rejected.length, at: now(), reason: rejected.at(-1)!.reason });
      }
      const duplicates = rows.length - failed.length - inserted;
      opts.onCounted?.(channel, { stored: inserted, duplicate: duplicates, rejected: rejected.length });
      return { accepted: inserted, duplicates, rejected };
    },
  };
}
export type IntakePipeline = ReturnType<typeof intakePipeline>;
