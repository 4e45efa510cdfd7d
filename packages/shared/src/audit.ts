// Shapes of the audit log: its rows and the filters of its list.
import { z } from 'zod';
import { isoInstant, listQuerySchema } from './list.ts';

export const AUDIT_ACTIONS = [
  'login',
  'logout',
  'password_change',
  'register',
  'code_send',
  'code_verify',
  'password_reset',
  'sso_login',
  'sso_bind',
  'org_create',
  'org_update',
  'org_deactivate',
  'org_activate',
  'org_delete',
  'user_create',
  'user_update',
  'user_deactivate',
  'user_activate',
  'user_reset_password',
  'user_roles',
  'role_create',
  'role_update',
  'role_delete',
  'device_create',
  'device_update',
  'device_secret',
  'device_delete',
  'device_import',
  'device_bind',
  'device_unbind',
  'asset_create',
  'asset_update',
  'asset_delete',
  'asset_import',
  'ledger_share_create',
  'ledger_share_revoke',
  'transport_tracking_link_create',
  'transport_tracking_link_revoke',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_RESULTS = ['success', 'failure'] as const;

/** An empty query value (`?account=`) means no filter. */
const blankAsUndefined = (v: unknown) => (v === '' ? undefined : v);

export const auditLogQuerySchema = listQuerySchema.extend({
  account: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  action: z.preprocess(blankAsUndefined, z.enum(AUDIT_ACTIONS).optional()),
  result: z.preprocess(blankAsUndefined, z.enum(AUDIT_RESULTS).optional()),
  timeFrom: z.preprocess(blankAsUndefined, isoInstant.optional()),
  timeTo: z.preprocess(blankAsUndefined, isoInstant.optional()),
});
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

export const auditLogRowSchema = z.object({
  id: z.number().int(),
  time: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  account: z.string(),
  action: z.string(),
  result: z.enum(AUDIT_RESULTS),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  detail: z.string().nullable(),
});
export type AuditLogRow = z.infer<typeof auditLogRowSchema>;
