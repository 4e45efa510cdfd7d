// A consignee's tracking link of one transport task (issue 26): public, read-only, expiring and
// revocable, like the ledger's share links (ledger/api.ts). The maker sees the token once; only
// its SHA-256 is stored. The public answer says where the goods are, the task's status, its ETA
// and its temperature curve, and nothing else of the organisation: no device ids, no organisation,
// no driver, no other task. The service is apps/server/src/modules/transport/tracking.ts.
import { z } from 'zod';
import { blankAsUndefined, isoInstant, listQuerySchema } from './list.ts';
import { mapConfigSchema } from './live.ts';
import { TASK_STATUSES } from './transport.ts';

/** The spans the maker may pick, in days. */
export const TRACKING_EXPIRY_DAYS = [1, 7, 30, 90, 365] as const;
/** A link made without an expiry ends after this many days. */
export const DEFAULT_TRACKING_EXPIRY_DAYS = 90;
/** The longest a tracking link lives: a year (a delivery is days; the link is no archive). */
export const MAX_TRACKING_EXPIRY_DAYS = 365;
/** Most points of the public temperature curve (every k-th reading beyond it). */
export const MAX_TRACKING_POINTS = 500;
/** How often the public page asks again. */
export const TRACKING_REFRESH_MS = 30_000;

/** The web app's public tracking page of a token. */
export const trackingPage = (token: string) => `/track/${token}`;

export const TRACKING_API = {
  /** POST make (TrackingLinkBody) → TrackingLinkAnswer; GET the task's links (paged). */
  taskLinks: (taskId: string) => `/api/iot/v2/transport-tasks/${taskId}/tracking-links`,
  /** GET the links of the caller's organisation tree (paged). */
  links: '/api/iot/v2/transport-tracking-links',
  /** POST: ends a link now. */
  revoke: (id: string) => `/api/iot/v2/transport-tracking-links/${id}/revoke`,
  /** GET without login → PublicTracking. */
  public: (token: string) => `/api/iot/v2/transport-tracking/public/${token}`,
} as const;

export const trackingLinkBodySchema = z
  .object({
    /** Days from now; default DEFAULT_TRACKING_EXPIRY_DAYS. */
    expiresInDays: z.number().int().min(1).max(MAX_TRACKING_EXPIRY_DAYS).optional(),
    /** An instant instead (in the future, at most MAX_TRACKING_EXPIRY_DAYS away: the server checks it). */
    expiresAt: z.preprocess(blankAsUndefined, isoInstant.optional()),
  })
  .refine((b) => b.expiresInDays === undefined || b.expiresAt === undefined, { message: 'TRACKING_LINK_EXPIRY_ONE', path: ['expiresAt'] });
export type TrackingLinkBody = z.infer<typeof trackingLinkBodySchema>;

export const trackingLinkAnswerSchema = z.object({
  /** The link's id: the list and the revoke call name it (never the token). */
  id: z.string(),
  /** Shown this once. */
  token: z.string(),
  /** The public tracking page (absolute when PUBLIC_URL is set). */
  url: z.string(),
  apiUrl: z.string(),
  expiresAt: z.string(),
});
export type TrackingLinkAnswer = z.infer<typeof trackingLinkAnswerSchema>;

export const TRACKING_LINK_STATUSES = ['active', 'expired', 'revoked'] as const;
export type TrackingLinkStatus = (typeof TRACKING_LINK_STATUSES)[number];

export const trackingLinkQuerySchema = listQuerySchema.extend({
  status: z.preprocess(blankAsUndefined, z.enum(TRACKING_LINK_STATUSES).optional()),
});
export type TrackingLinkQuery = z.infer<typeof trackingLinkQuerySchema>;

/** One link as the lists show it (the token is never shown again). */
export const trackingLinkRowSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  taskCode: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
  status: z.enum(TRACKING_LINK_STATUSES),
});
export type TrackingLinkRow = z.infer<typeof trackingLinkRowSchema>;

/** What a live link shows the consignee: the one task, its position, ETA and temperature curve. */
export const publicTrackingSchema = z.object({
  task: z.object({
    code: z.string(),
    goodsName: z.string(),
    originName: z.string(),
    destinationName: z.string(),
    /** Where the goods go (the consignee's own place), for the map. */
    destination: z.object({ lat: z.number(), lon: z.number() }),
    status: z.enum(TASK_STATUSES),
    plannedStart: z.string().nullable(),
    plannedArrival: z.string().nullable(),
    startedAt: z.string().nullable(),
    arrivedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    /** The agreed temperature range (°C), for the curve's bands. */
    tempMin: z.number().nullable(),
    tempMax: z.number().nullable(),
  }),
  /** The latest position of the task (its first device, as the monitor shows it); null without a fix. */
  position: z.object({ lat: z.number(), lon: z.number(), time: z.string(), speed: z.number().nullable() }).nullable(),
  /** The latest temperature reading (°C), null without one. */
  temp: z.number().nullable(),
  /** Done share of the planned path (0..1), the metres left and the estimated arrival, as the monitor computes them. */
  progress: z.number().nullable(),
  remainingM: z.number().nullable(),
  eta: z.string().nullable(),
  /** The task period's temperature curve, thinned to MAX_TRACKING_POINTS. */
  temperature: z.object({ times: z.array(z.string()), values: z.array(z.number().nullable()) }),
  expiresAt: z.string(),
  checkedAt: z.string(),
  /** The platform's base map (its tiles and coordinate system), as the console draws it. */
  map: mapConfigSchema,
});
export type PublicTracking = z.infer<typeof publicTrackingSchema>;
