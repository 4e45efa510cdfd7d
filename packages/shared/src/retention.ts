// Retention (issue 24): how long each organisation keeps its readings as rows and as packs (a
// rule per organisation, inherited down the tree, with a platform floor for packs), legal holds
// that suspend removal, and the record of what retention removed.
import { z } from 'zod';
import { blankAsUndefined, listQuerySchema } from './list.ts';

/** Without any rule in the tree: rows stay this many days (then only the packs), packs forever. */
export const DEFAULT_ROWS_DAYS = 90;
export const DEFAULT_PACKS_DAYS: number | null = null;
/** The most days a rule may name (100 years); longer is "forever" (null). */
export const MAX_RETENTION_DAYS = 36_500;

const daysSchema = z.number().int().min(1).max(MAX_RETENTION_DAYS).nullable();

/** Where an effective value comes from. */
export const RETENTION_SOURCES = ['own', 'inherited', 'platform', 'default', 'floor'] as const;
export type RetentionSource = (typeof RETENTION_SOURCES)[number];

export const effectiveValueSchema = z.object({
  /** Days kept; null: forever. */
  days: z.number().int().nullable(),
  /**
   * own: the organisation's own rule; inherited: an ancestor's (`fromOrg*`); platform: the
   * platform organisation's rule, the tree's default; default: the built-in default (no rule
   * anywhere); floor: raised to the platform's floor.
   */
  source: z.enum(RETENTION_SOURCES),
  fromOrgId: z.string().nullable(),
  fromOrgName: z.string().nullable(),
});
export type EffectiveValue = z.infer<typeof effectiveValueSchema>;

export const retentionOrgSchema = z.object({
  orgId: z.string(),
  parentId: z.string().nullable(),
  code: z.string(),
  name: z.string(),
  kind: z.enum(['platform', 'tenant']),
  /** The organisation's own settings (inherit both when it has no rule). */
  own: z.object({
    rowsInherit: z.boolean(),
    rowsDays: z.number().int().nullable(),
    packsInherit: z.boolean(),
    packsDays: z.number().int().nullable(),
    packsFloorDays: z.number().int().nullable(),
    updatedAt: z.string().nullable(),
  }),
  rows: effectiveValueSchema,
  packs: effectiveValueSchema,
});
export type RetentionOrg = z.infer<typeof retentionOrgSchema>;

export const retentionTreeSchema = z.object({
  /** The caller's organisation and its descendants, parents before children. */
  orgs: z.array(retentionOrgSchema),
  /** The platform's floor for packs (days; null: none). */
  floorDays: z.number().int().nullable(),
  /** Whether the caller may change the platform organisation's rule and the floor. */
  platformAdmin: z.boolean(),
});
export type RetentionTree = z.infer<typeof retentionTreeSchema>;

/**
 * An organisation's rule. `*Days` null means forever (ignored while the part inherits);
 * `packsFloorDays` only on the platform organisation, by the platform administrator.
 */
export const retentionRuleBodySchema = z.object({
  rowsInherit: z.boolean(),
  rowsDays: daysSchema,
  packsInherit: z.boolean(),
  packsDays: daysSchema,
  packsFloorDays: daysSchema.optional(),
});
export type RetentionRuleBody = z.infer<typeof retentionRuleBodySchema>;

export const orgIdParamsSchema = z.object({ orgId: z.uuid() });

export const LEGAL_HOLD_KINDS = ['org', 'device', 'task'] as const;
export type LegalHoldKind = (typeof LEGAL_HOLD_KINDS)[number];

export const legalHoldQuerySchema = listQuerySchema.extend({
  /** active: not released; released: released; absent: both. */
  state: z.preprocess(blankAsUndefined, z.enum(['active', 'released']).optional()),
  subjectKind: z.preprocess(blankAsUndefined, z.enum(LEGAL_HOLD_KINDS).optional()),
});
export type LegalHoldQuery = z.infer<typeof legalHoldQuerySchema>;

export const legalHoldRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  subjectKind: z.enum(LEGAL_HOLD_KINDS),
  subjectId: z.string(),
  /** The organisation's name, the device's id and name, or the task's code (null once deleted). */
  subjectName: z.string().nullable(),
  reason: z.string(),
  placedAt: z.string(),
  placedBy: z.string().nullable(),
  releasedAt: z.string().nullable(),
  releasedBy: z.string().nullable(),
});
export type LegalHoldRow = z.infer<typeof legalHoldRowSchema>;

export const legalHoldBodySchema = z.object({
  subjectKind: z.enum(LEGAL_HOLD_KINDS),
  subjectId: z.uuid(),
  reason: z.string().trim().min(1, { message: 'HOLD_REASON_REQUIRED' }).max(500),
});
export type LegalHoldBody = z.infer<typeof legalHoldBodySchema>;

export const holdIdParamsSchema = z.object({ id: z.uuid() });

export const retentionRemovalQuerySchema = listQuerySchema.extend({
  what: z.preprocess(blankAsUndefined, z.enum(['rows', 'packs']).optional()),
});
export type RetentionRemovalQuery = z.infer<typeof retentionRemovalQuerySchema>;

export const retentionRemovalRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string().nullable(),
  deviceRef: z.string(),
  /** The device's id and name (null once the device is deleted). */
  deviceId: z.string().nullable(),
  deviceName: z.string().nullable(),
  /** rows: rows whose packs hold them (nothing lost); packs: the readings themselves. */
  what: z.enum(['rows', 'packs']),
  fromTime: z.string(),
  toTime: z.string(),
  readings: z.number().int(),
  policy: z.string(),
  removedAt: z.string(),
});
export type RetentionRemovalRow = z.infer<typeof retentionRemovalRowSchema>;

export const RETENTION_API = {
  rules: '/api/iot/v2/retention-rules',
  holds: '/api/iot/v2/legal-holds',
  removals: '/api/iot/v2/retention-removals',
} as const;
