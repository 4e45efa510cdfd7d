// Product profiles and batches (issue 27 item 3): the API's schemas. A profile says what a
// product tolerates over its life; a batch (its batch number within the organisation, as warehouse
// records write it) carries a profile, travels on transport tasks and stays in rooms; its budget
// use is excursion-budget.ts's answer over those periods. The service is modules/product.
import { z } from 'zod';
import { blankAsUndefined, listQuerySchema } from './list.ts';

const text = (max: number) => z.preprocess((v) => v ?? '', z.string().trim().max(max));
const temp = (code: string) => z.number({ message: code }).min(-100, { message: code }).max(100, { message: code });
// Within -100..100 °C, and low < high ≤ absolute max: so the low limit is below 100 and the high
// limit and the absolute max above -100 (written into the bounds, so the documented ranges say it).
const lowTemp = (code: string) => z.number({ message: code }).min(-100, { message: code }).lt(100, { message: code });
const highTemp = (code: string) => z.number({ message: code }).gt(-100, { message: code }).max(100, { message: code });
const minutes = z.number({ message: 'PRODUCT_BUDGET_MINUTES' }).int({ message: 'PRODUCT_BUDGET_MINUTES' }).min(0, { message: 'PRODUCT_BUDGET_MINUTES' }).max(1_000_000, { message: 'PRODUCT_BUDGET_MINUTES' });

export const profileBodySchema = z
  .object({
    name: z.string({ message: 'PRODUCT_NAME_REQUIRED' }).trim().min(1, { message: 'PRODUCT_NAME_REQUIRED' }).max(64, { message: 'PRODUCT_NAME_REQUIRED' }),
    lowC: lowTemp('PRODUCT_TEMP_INVALID'),
    highC: highTemp('PRODUCT_TEMP_INVALID'),
    aboveBudgetMin: minutes,
    belowBudgetMin: minutes,
    absoluteMaxC: highTemp('PRODUCT_TEMP_INVALID'),
    absoluteMinC: temp('PRODUCT_TEMP_INVALID').nullish().transform((v) => v ?? null),
    alertPercent: z
      .number({ message: 'PRODUCT_ALERT_PERCENT' })
      .int({ message: 'PRODUCT_ALERT_PERCENT' })
      .min(1, { message: 'PRODUCT_ALERT_PERCENT' })
      .max(99, { message: 'PRODUCT_ALERT_PERCENT' })
      .default(80),
    remark: text(500),
  })
  .refine((p) => p.lowC < p.highC, { message: 'PRODUCT_RANGE_ORDER', path: ['highC'] })
  .refine((p) => p.absoluteMaxC >= p.highC, { message: 'PRODUCT_ABS_MAX_BELOW_HIGH', path: ['absoluteMaxC'] })
  .refine((p) => p.absoluteMinC === null || p.absoluteMinC <= p.lowC, { message: 'PRODUCT_ABS_MIN_ABOVE_LOW', path: ['absoluteMinC'] });
export type ProfileBody = z.infer<typeof profileBodySchema>;
export type ProfileInput = z.input<typeof profileBodySchema>;

export const profileRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  name: z.string(),
  lowC: z.number(),
  highC: z.number(),
  aboveBudgetMin: z.number(),
  belowBudgetMin: z.number(),
  absoluteMaxC: z.number(),
  absoluteMinC: z.number().nullable(),
  alertPercent: z.number(),
  remark: z.string(),
  /** Batches that carry it. */
  batches: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProfileRow = z.infer<typeof profileRowSchema>;

export const profileQuerySchema = listQuerySchema.extend({
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
});
export type ProfileQuery = z.infer<typeof profileQuerySchema>;

export const BATCH_NO_RE = /^[^\s,]{1,64}$/;
const batchNo = z.string({ message: 'PRODUCT_BATCH_NO_INVALID' }).trim().regex(BATCH_NO_RE, { message: 'PRODUCT_BATCH_NO_INVALID' });

/** A batch: created when named (here, or on a task); its profile may be set later. */
export const batchBodySchema = z.object({
  batchNo,
  goodsName: text(100),
  profileId: z.preprocess(blankAsUndefined, z.uuid({ message: 'PRODUCT_PROFILE_NOT_FOUND' }).nullish()).transform((v) => v ?? null),
});
export type BatchBody = z.infer<typeof batchBodySchema>;
export type BatchInput = z.input<typeof batchBodySchema>;

/** The batches a task carries (replaces the list); unknown batch numbers are created in the task's organisation. */
export const taskBatchesBodySchema = z.object({
  batches: z.array(z.object({ batchNo, goodsName: text(100).optional(), profileId: z.preprocess(blankAsUndefined, z.uuid({ message: 'PRODUCT_PROFILE_NOT_FOUND' }).nullish()) })).max(50),
});
export type TaskBatchesBody = z.infer<typeof taskBatchesBodySchema>;

export const BUDGET_STATES = ['ok', 'alert', 'exhausted'] as const;
const kindUseSchema = z.object({
  budgetMin: z.number(),
  usedMin: z.number(),
  leftMin: z.number(),
  percent: z.number(),
  state: z.enum(BUDGET_STATES),
  /** The device (its device id) that gave the most minutes. */
  device: z.string().nullable(),
});
const extremeSchema = z.object({ value: z.number(), at: z.string(), device: z.string() }).nullable();
export const budgetSchema = z.object({
  above: kindUseSchema,
  below: kindUseSchema,
  absoluteMax: z.object({ limit: z.number(), crossed: z.boolean(), extreme: extremeSchema }),
  absoluteMin: z.object({ limit: z.number().nullable(), crossed: z.boolean(), extreme: extremeSchema }),
});
export type Budget = z.infer<typeof budgetSchema>;

export const profileBriefSchema = z.object({
  id: z.string(),
  name: z.string(),
  lowC: z.number(),
  highC: z.number(),
  aboveBudgetMin: z.number(),
  belowBudgetMin: z.number(),
  absoluteMaxC: z.number(),
  absoluteMinC: z.number().nullable(),
  alertPercent: z.number(),
});
export type ProfileBrief = z.infer<typeof profileBriefSchema>;

export const batchRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  batchNo: z.string(),
  goodsName: z.string(),
  profile: profileBriefSchema.nullable(),
  /** Where the profile comes from: the batch's own, or (without one) the latest task carrying it that has one. */
  profileFrom: z.enum(['batch', 'task']).nullable(),
  /** Null without a profile. */
  budget: budgetSchema.nullable(),
  /** When the budget was computed (a list shows the stored computation; see the service for when it is computed again). */
  computedAt: z.string().nullable(),
  tasks: z.number().int(),
  /** Budget alarms raised so far (key → ISO time). */
  raised: z.record(z.string(), z.string()),
  createdAt: z.string(),
});
export type BatchRow = z.infer<typeof batchRowSchema>;

export const PERIOD_KINDS = ['task', 'storage'] as const;
export const periodSchema = z.object({
  kind: z.enum(PERIOD_KINDS),
  /** The task's id, or the 'in' record's id. */
  ref: z.string(),
  /** Task code, or warehouse / room name. */
  label: z.string(),
  from: z.string(),
  /** Null: still going on (counted until now). */
  to: z.string().nullable(),
  devices: z.array(z.string()),
  aboveMin: z.number(),
  belowMin: z.number(),
  coveredMin: z.number(),
  readings: z.number().int(),
  maxC: z.number().nullable(),
  minC: z.number().nullable(),
});
export type BudgetPeriod = z.infer<typeof periodSchema>;

export const batchDetailSchema = batchRowSchema.extend({ periods: z.array(periodSchema) });
export type BatchDetail = z.infer<typeof batchDetailSchema>;

export const batchQuerySchema = listQuerySchema.extend({
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  profileId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type BatchQuery = z.infer<typeof batchQuerySchema>;

/**
 * The trip alone against the task's product profile (the shipment report's section): the time
 * above and below range of this task's period and its extremes, as used and left of the profile's
 * budgets as if the trip were the whole life.
 */
export const tripBudgetSchema = z.object({ profile: profileBriefSchema, budget: budgetSchema });
export type TripBudget = z.infer<typeof tripBudgetSchema>;

/** A task's batches with their budgets (the shipment report's section). */
export const taskBatchSchema = batchRowSchema.pick({ id: true, batchNo: true, goodsName: true, profile: true, budget: true });
export type TaskBatch = z.infer<typeof taskBatchSchema>;

export const PRODUCT_API = {
  /** GET list, POST create; /:id GET, PUT, DELETE. */
  profiles: '/api/iot/v2/product-profiles',
  /** GET list, POST create; /:id GET (with periods), PUT, DELETE. */
  batches: '/api/iot/v2/product-batches',
  /** GET, PUT the batches of a task: `/api/iot/v2/transport-tasks/:id/batches`. */
  taskBatches: (taskId: string) => `/api/iot/v2/transport-tasks/${taskId}/batches`,
} as const;
