// Work orders: a job for someone to go and fix what alarms (or a person) found. Opened from one
// or more alarms or by hand; assignee, priority, due time, status open / in progress / resolved /
// closed, comments; its story is appended, never changed. The service is
// apps/server/src/modules/work-order.
import { z } from 'zod';
import { alarmRowSchema } from './alarm.ts';
import { SIGNATURE_MEANINGS, signatureProofFields } from './signature.ts';
import { blankAsUndefined, csvFilter, isoInstant, listQuerySchema } from './list.ts';

export const WORK_ORDER_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];

/** Most urgent first. */
export const WORK_ORDER_PRIORITIES = ['urgent', 'high', 'medium', 'low'] as const;
export type WorkOrderPriority = (typeof WORK_ORDER_PRIORITIES)[number];

/**
 * Where a status may go next. Closed is final; a resolved order goes back to work when the fix
 * did not hold. Going to `resolved` needs a note (what was done).
 */
export const WORK_ORDER_TRANSITIONS: Record<WorkOrderStatus, readonly WorkOrderStatus[]> = {
  open: ['in_progress', 'resolved', 'closed'],
  in_progress: ['resolved', 'closed'],
  resolved: ['in_progress', 'closed'],
  closed: [],
};

export function canMoveTo(from: WorkOrderStatus, to: WorkOrderStatus): boolean {
  return WORK_ORDER_TRANSITIONS[from].includes(to);
}

/** Most alarms one work order gathers. */
export const MAX_WORK_ORDER_ALARMS = 100;

const title = z.string().trim().min(1, { message: 'WORK_ORDER_TITLE_REQUIRED' }).max(100, { message: 'WORK_ORDER_TITLE_TOO_LONG' });
const description = z.string().trim().max(2000).default('');
const optionalUuid = z.preprocess((v) => (v === '' ? null : v), z.uuid().nullable().optional());
const optionalInstant = z.preprocess((v) => (v === '' ? null : v), isoInstant.nullable().optional());

/** Create: by hand (no alarms) or from alarms of the organisation tree (the order goes to the alarms' organisation). */
export const workOrderCreateSchema = z.object({
  /** The owning organisation; default the alarms' organisation, else the caller's. */
  orgId: optionalUuid,
  title,
  description,
  priority: z.enum(WORK_ORDER_PRIORITIES).default('medium'),
  assigneeId: optionalUuid,
  dueAt: optionalInstant,
  alarmIds: z.array(z.uuid()).max(MAX_WORK_ORDER_ALARMS, { message: 'WORK_ORDER_ALARMS_TOO_MANY' }).default([]),
});
export type WorkOrderCreate = z.infer<typeof workOrderCreateSchema>;
export type WorkOrderCreateInput = z.input<typeof workOrderCreateSchema>;

/** Change the order's own fields (status goes through transitions). */
export const workOrderUpdateSchema = workOrderCreateSchema.omit({ orgId: true, alarmIds: true });
export type WorkOrderUpdate = z.infer<typeof workOrderUpdateSchema>;

/** Closing signs the order (the password again, meaning responsible by default); the other moves take no signature. */
export const workOrderTransitionSchema = z.object({
  to: z.enum(WORK_ORDER_STATUSES),
  note: z.string().trim().max(1000).default(''),
  ...signatureProofFields,
  meaning: z.enum(SIGNATURE_MEANINGS).optional(),
});
export type WorkOrderTransition = z.infer<typeof workOrderTransitionSchema>;

export const linkAlarmsSchema = z.object({
  alarmIds: z.array(z.uuid()).min(1, { message: 'WORK_ORDER_ALARMS_REQUIRED' }).max(MAX_WORK_ORDER_ALARMS, { message: 'WORK_ORDER_ALARMS_TOO_MANY' }),
});

const person = z.object({ id: z.string(), account: z.string(), name: z.string() });

export const workOrderRowSchema = z.object({
  id: z.string(),
  /** `WO` + the creation day in UTC + a number of the day in the organisation, e.g. WO-20261124-0003. */
  code: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  title: z.string(),
  description: z.string(),
  priority: z.enum(WORK_ORDER_PRIORITIES),
  status: z.enum(WORK_ORDER_STATUSES),
  assignee: person.nullable(),
  dueAt: z.string().nullable(),
  /** Not resolved or closed and past its due time (at the time of the answer). */
  overdue: z.boolean(),
  /** `alarm`: opened from alarms; `manual`: by hand. */
  source: z.enum(['alarm', 'manual']),
  alarmCount: z.number().int(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  resolvedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type WorkOrderRow = z.infer<typeof workOrderRowSchema>;

/** One order with its alarms. */
export const workOrderDetailSchema = workOrderRowSchema.extend({ alarms: z.array(alarmRowSchema) });
export type WorkOrderDetail = z.infer<typeof workOrderDetailSchema>;

/** What a work order's story records; nothing in it is ever changed or removed. */
export const WORK_ORDER_EVENT_KINDS = ['created', 'updated', 'assigned', 'status_changed', 'commented', 'alarms_linked'] as const;
export type WorkOrderEventKind = (typeof WORK_ORDER_EVENT_KINDS)[number];

export const workOrderEventRowSchema = z.object({
  id: z.number(),
  at: z.string(),
  kind: z.enum(WORK_ORDER_EVENT_KINDS),
  actor: z.string().nullable(),
  /** created: { source, alarmIds }; updated: { changed: field names }; assigned: { userId, account, name } or { userId: null };
   * status_changed: { from, to, note }; commented: { text }; alarms_linked: { alarmIds }. */
  detail: z.record(z.string(), z.unknown()),
});
export type WorkOrderEventRow = z.infer<typeof workOrderEventRowSchema>;

export const workOrderQuerySchema = listQuerySchema.extend({
  status: csvFilter(z.enum(WORK_ORDER_STATUSES), 10),
  priority: csvFilter(z.enum(WORK_ORDER_PRIORITIES), 10),
  assigneeId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  /** 'true': only orders assigned to the caller. */
  mine: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  overdue: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  /** Orders that hold this alarm. */
  alarmId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  /** Created in [from, to). */
  from: z.preprocess(blankAsUndefined, isoInstant.optional()),
  to: z.preprocess(blankAsUndefined, isoInstant.optional()),
  /** Code or title contains. */
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type WorkOrderQuery = z.infer<typeof workOrderQuerySchema>;

/** Users a handler may give an alarm or a work order to (readable with alarm:handle, without user:read). */
export const assigneeRowSchema = z.object({ id: z.string(), account: z.string(), name: z.string(), orgId: z.string(), orgName: z.string() });
export type AssigneeRow = z.infer<typeof assigneeRowSchema>;
export const assigneeQuerySchema = z.object({
  /** Active users of the caller's organisation tree; with orgId, of that organisation's tree (inside the caller's). */
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
});

export const WORK_ORDER_API = {
  workOrders: '/api/iot/v2/work-orders',
  assignees: '/api/iot/v2/assignees',
} as const;
