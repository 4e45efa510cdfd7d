// Consignee tracking links (issue 26): a public, read-only link to one transport task, made by
// someone who may change tasks. It works until it ends, at its expiry (DEFAULT_TRACKING_EXPIRY_DAYS
// unless the maker picks another, never more than MAX_TRACKING_EXPIRY_DAYS) or when someone of the
// task's organisation tree revokes it. As the ledger's share links (ledger/shares.ts): only the
// token's SHA-256 is stored, the token is in the answer that makes it and nowhere else, the lists,
// the revoke call and the audit log name a link by its id; an ended link answers 410 with why
// (TRACKING_LINK_EXPIRED, TRACKING_LINK_REVOKED), a token never made 404 (TRACKING_LINK_UNKNOWN).
//
// The public answer is built field by field (never a task row spread): the task's code, goods,
// origin and destination names, status and times, the agreed temperature range, the latest
// position of its first device (the task's position, as the monitor shows it), the ETA the monitor
// computes (liveProgress) and the temperature curve of the task's period, thinned as the history
// curves are. No device ids, no organisation, no driver, no customer, no other task.
import type { Page } from '@iotc/shared/envelope';
import { liveProgress } from '@iotc/shared/transport-progress';
import {
  DEFAULT_TRACKING_EXPIRY_DAYS,
  MAX_TRACKING_EXPIRY_DAYS,
  MAX_TRACKING_POINTS,
  TRACKING_API,
  trackingPage,
  type PublicTracking,
  type TrackingLinkAnswer,
  type TrackingLinkBody,
  type TrackingLinkQuery,
  type TrackingLinkRow,
} from '@iotc/shared/transport-tracking';
import type { Db } from '../../db/client.ts';
import { toPage } from '../../db/list.ts';
import { AppError } from '../../lib/errors.ts';
import { linkExpiry, linkTokenHash, newLinkToken, openLink, publicLinkUrl, type LinkKind } from '../../lib/public-link.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import { countReadings, DAY_MS, readEvery, sensorNumber, sensorsOf } from '../archive/reader.ts';
import type { TaskRow } from '@iotc/shared/transport';
import type { MapConfig } from '@iotc/shared/live';
import { MAP_TILE_PRESETS } from '@iotc/shared/map-tiles';
import { statesOf, taskById } from './repo.ts';
import { insertLink, linkById, linkByTokenHash, linkPage, linkRow, revokeLink, type TrackingLinkRecord } from './tracking-repo.ts';

/** The longest period the curve covers: its last 93 days, as a history curve. */
const MAX_CURVE_MS = 93 * DAY_MS;

const TRACKING_LINK: LinkKind = {
  defaultDays: DEFAULT_TRACKING_EXPIRY_DAYS,
  maxDays: MAX_TRACKING_EXPIRY_DAYS,
  codes: { range: 'TRACKING_LINK_EXPIRY_RANGE', unknown: 'TRACKING_LINK_UNKNOWN', revoked: 'TRACKING_LINK_REVOKED', expired: 'TRACKING_LINK_EXPIRED' },
};

/** A task's time (ISO) in ms; null stays null. */
const ms = (v: string | null) => (v ? Date.parse(v) : null);


export interface TrackingOptions {
  /** The audit log's recorder; without it nothing is recorded (a test's bare service). */
  audit?: AuditWriter;
  /** PUBLIC_URL, for absolute links. */
  publicUrl?: string;
  /** The platform's base map now (the map tiles setting); without it, the offline outline. */
  map?: () => MapConfig;
  now?: () => Date;
}

export function trackingService(db: Db, opts: TrackingOptions = {}) {
  const now = opts.now ?? (() => new Date());
  const record = opts.audit ? successRecorder(opts.audit) : async (..._: unknown[]) => {};

  /** The task when it belongs to the caller's tree; any other is not found. */
  async function visibleTask(caller: Caller, id: string): Promise<TaskRow> {
    const task = await taskById(db, id);
    if (!task || !caller.scope.has(task.orgId)) throw new AppError(404, 'NOT_FOUND');
    return task;
  }

  /** A link of the caller's organisation tree; any other is not found. */
  async function visibleLink(caller: Caller, id: string): Promise<TrackingLinkRecord> {
    const link = await linkById(db, id);
    if (!link || !caller.scope.has(link.orgId)) throw new AppError(404, 'NOT_FOUND');
    return link;
  }

  /** The temperature curve of the task's period on its first device, every k-th reading past MAX_TRACKING_POINTS. */
  async function curveOf(task: TaskRow, deviceRef: string | undefined): Promise<PublicTracking['temperature']> {
    if (!deviceRef || task.status === 'pending') return { times: [], values: [] };
    const end = ms(task.arrivedAt) ?? ms(task.completedAt) ?? ms(task.cancelledAt) ?? now().getTime();
    const start = Math.max(ms(task.startedAt) ?? ms(task.plannedStart) ?? Date.parse(task.createdAt), end - MAX_CURVE_MS);
    if (end <= start) return { times: [], values: [] };
    const range = { from: start, to: end, toInclusive: true };
    const total = await countReadings(db, deviceRef, range);
    if (total === 0) return { times: [], values: [] };
    const rows = await readEvery(db, deviceRef, range, Math.max(1, Math.ceil(total / MAX_TRACKING_POINTS)), total, { fields: ['temperature'] });
    const times: string[] = [];
    const values: (number | null)[] = [];
    for (const r of rows) {
      times.push(new Date(Math.floor(r.timeUs / 1000)).toISOString());
      values.push(sensorNumber(sensorsOf(r), 'temperature'));
    }
    return values.every((v) => v === null) ? { times: [], values: [] } : { times, values };
  }

  return {
    /** Makes a link to one task of the caller's tree; the token is in this answer only. */
    async create(caller: Caller, taskId: string, body: TrackingLinkBody, meta: ClientMeta): Promise<TrackingLinkAnswer> {
      const task = await visibleTask(caller, taskId);
      const expiresAt = linkExpiry(TRACKING_LINK, body, now());
      const { token, tokenHash } = newLinkToken();
      const link = await db.transaction(async (tx) => {
        const made = await insertLink(tx, { tokenHash, orgId: task.orgId, taskId: task.id, createdBy: caller.account, expiresAt });
        await record(tx, caller, task.orgId, 'transport_tracking_link_create', `${task.code} ${made.id} until ${expiresAt.toISOString()}`, meta);
        return made;
      });
      return {
        id: link.id,
        token,
        url: publicLinkUrl(opts.publicUrl, trackingPage(token)),
        apiUrl: TRACKING_API.public(token),
        expiresAt: expiresAt.toISOString(),
      };
    },

    /** The links of one task of the caller's tree. */
    async listOfTask(caller: Caller, taskId: string, q: TrackingLinkQuery): Promise<Page<TrackingLinkRow>> {
      const task = await visibleTask(caller, taskId);
      const { rows, total } = await linkPage(db, q, caller.scope.orgs, now(), task.id);
      return toPage(rows, total, q);
    },

    /** The links of the caller's organisation tree. */
    async list(caller: Caller, q: TrackingLinkQuery): Promise<Page<TrackingLinkRow>> {
      const { rows, total } = await linkPage(db, q, caller.scope.orgs, now());
      return toPage(rows, total, q);
    },

    /** Ends a link now; revoking an ended link again changes nothing and records nothing. */
    async revoke(caller: Caller, id: string, meta: ClientMeta): Promise<TrackingLinkRow> {
      const link = await visibleLink(caller, id);
      await db.transaction(async (tx) => {
        if (await revokeLink(tx, link.id, caller.account, now())) {
          await record(tx, caller, link.orgId, 'transport_tracking_link_revoke', `${link.taskId} ${link.id}`, meta);
        }
      });
      return (await linkRow(db, link.id, now()))!;
    },

    /** What a live link shows, without login. */
    async publicView(token: string): Promise<PublicTracking> {
      const at = now();
      const link = openLink(TRACKING_LINK, await linkByTokenHash(db, linkTokenHash(token)), at);
      const task = await taskById(db, link.taskId);
      // The task went with its links (cascade): unknown.
      if (!task) throw new AppError(404, 'TRACKING_LINK_UNKNOWN');
      const first = task.devices[0]?.id;
      const state = first ? (await statesOf(db, [first])).get(first) : undefined;
      const position = state && state.lat !== null && state.lon !== null ? { lat: state.lat, lon: state.lon } : null;
      const p = liveProgress({
        status: task.status,
        position,
        origin: task.origin,
        destination: task.destination,
        stops: task.stops,
        route: task.route,
        plannedDistanceM: task.plannedDistanceM,
        plannedStart: ms(task.plannedStart),
        plannedArrival: ms(task.plannedArrival),
        startedAt: ms(task.startedAt),
        now: at.getTime(),
      });
      const sensors = (state?.sensors ?? {}) as Record<string, unknown>;
      return {
        task: {
          code: task.code,
          goodsName: task.goodsName,
          originName: task.origin.name,
          destinationName: task.destination.name,
          destination: { lat: task.destination.lat, lon: task.destination.lon },
          status: task.status,
          plannedStart: task.plannedStart,
          plannedArrival: task.plannedArrival,
          startedAt: task.startedAt,
          arrivedAt: task.arrivedAt,
          completedAt: task.completedAt,
          tempMin: task.tempMin,
          tempMax: task.tempMax,
        },
        position: state && position ? { lat: position.lat, lon: position.lon, time: state.time.toISOString(), speed: state.speed ?? null } : null,
        temp: typeof sensors.temperature === 'number' ? sensors.temperature : null,
        progress: p.progress,
        remainingM: p.remainingM,
        eta: p.eta !== null ? new Date(p.eta).toISOString() : null,
        temperature: await curveOf(task, first),
        expiresAt: link.expiresAt.toISOString(),
        checkedAt: at.toISOString(),
        map: opts.map?.() ?? MAP_TILE_PRESETS.none,
      };
    },
  };
}
export type TrackingService = ReturnType<typeof trackingService>;
