// Request and response shapes of the auth, menu and dictionary calls (spec section 7).
import { z } from 'zod';
import { SCENARIO_TYPES } from './constants.ts';
import { passwordSchema } from './validation.ts';

export const loginBodySchema = z.object({
  account: z.string().trim().min(1, { message: 'ACCOUNT_REQUIRED' }).max(64),
  password: z.string().min(1, { message: 'PASSWORD_REQUIRED' }).max(128),
  /** 7 = stay logged in for a week; absent = a sliding session. */
  period: z.literal(7).optional(),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const userInfoSchema = z.object({
  id: z.string(),
  account: z.string(),
  name: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  roles: z.array(z.string()),
  /** The actions the user's roles grant (every action for a platform administrator). */
  permissions: z.array(z.string()),
  isPlatformAdmin: z.boolean(),
  mustChangePassword: z.boolean(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const loginDataSchema = z.object({
  token: z.string(),
  period: z.number().nullable(),
  expiresAt: z.string(),
  mustChangePassword: z.boolean(),
  user: userInfoSchema,
});
export type LoginData = z.infer<typeof loginDataSchema>;

export const scenarioTypeSchema = z.coerce
  .number()
  .int()
  .refine((v): v is (typeof SCENARIO_TYPES)[number] => (SCENARIO_TYPES as readonly number[]).includes(v), {
    message: 'type must be one of 101, 102, 103, 104',
  });

export const loadMenuBodySchema = z
  .object({ type: scenarioTypeSchema.optional() })
  .nullish()
  .transform((v) => v ?? {});

export interface MenuItem {
  id: string;
  pid: string | null;
  name: string;
  url: string | null;
  icon: string | null;
  active: boolean;
  children: MenuItem[];
}
export const menuItemSchema: z.ZodType<MenuItem> = z.lazy(() =>
  z.object({
    id: z.string(),
    pid: z.string().nullable(),
    name: z.string(),
    url: z.string().nullable(),
    icon: z.string().nullable(),
    active: z.boolean(),
    children: z.array(menuItemSchema),
  }),
);

export const dictSchema = z.object({
  dictCode: z.string(),
  dictName: z.string(),
  children: z.array(z.object({ dictKey: z.string(), dictVal: z.string() })),
});
export type Dict = z.infer<typeof dictSchema>;

/**
 * The spec's 'update password' (change password with captcha). The first failing rule answers,
 * in this order: account, original password, new password rule, same as original,
 * confirmation, captcha.
 */
export const changePasswordBodySchema = z
  .object({
    account: z.string().trim().min(1, { message: 'ACCOUNT_REQUIRED' }).max(64),
    oldPassword: z.string().min(1, { message: 'PASSWORD_REQUIRED' }).max(128),
    newPassword: passwordSchema,
    confirmPassword: z.string().max(128),
    captchaId: z.string().trim().min(1, { message: 'CAPTCHA_ERROR' }).max(64),
    captcha: z.string().trim().min(1, { message: 'CAPTCHA_REQUIRED' }).max(16),
  })
  .superRefine((v, ctx) => {
    if (v.newPassword === v.oldPassword) ctx.addIssue({ code: 'custom', path: ['newPassword'], message: 'PASSWORD_SAME_AS_OLD' });
    else if (v.newPassword !== v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'PASSWORD_CONFIRM_MISMATCH' });
  });
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const captchaSchema = z.object({ id: z.string(), image: z.string(), expiresAt: z.string() });
export type Captcha = z.infer<typeof captchaSchema>;

/** The services of 'My Services': the cold-chain warehouse and the four scenario types. */
export const SERVICE_KEYS = ['warehouse', 'transport', 'device', 'container', 'vehicle'] as const;
export type ServiceKey = (typeof SERVICE_KEYS)[number];

export const myServicesSchema = z.object({
  services: z.array(z.object({ key: z.enum(SERVICE_KEYS), type: z.number().int(), url: z.string() })),
  /** The platform-management entry beside the services: users granted a management screen only. */
  platformManagement: z.object({ type: z.number().int(), url: z.string() }).nullable(),
});
export type MyServices = z.infer<typeof myServicesSchema>;

// The paths live in a module without Zod, so the web app's first load need not bring Zod.
export { API } from './auth-api.ts';
