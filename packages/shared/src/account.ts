// Shapes of the account lifecycle beyond sign-in: registration, password retrieval by an
// e-mailed or texted four-digit code, and external (OpenID Connect) sign-in with binding.
import { z } from 'zod';
import { blankAsUndefined } from './list.ts';
import { passwordSchema, verificationCodeSchema, PATTERNS } from './validation.ts';

/** 4-32 letters, digits or `_ . - @` (an e-mail address is a valid account). */
export const ACCOUNT_PATTERN = /^[A-Za-z0-9_.\-@]{4,32}$/;


export const accountSchema = z
  .string()
  .trim()
  .min(1, { message: 'ACCOUNT_REQUIRED' })
  .regex(ACCOUNT_PATTERN, { message: 'ACCOUNT_FORMAT' });
export const emailSchema = z.string().trim().max(254).pipe(z.email({ message: 'EMAIL_FORMAT' }));
export const optionalEmailSchema = z.preprocess(blankAsUndefined, emailSchema.optional());
export const optionalMobileSchema = z.preprocess(
  blankAsUndefined,
  z.string().trim().regex(PATTERNS.mobileCN, { message: 'MOBILE_FORMAT' }).optional(),
);

/** Register: a new account together with its own new organisation. */
export const registerBodySchema = z
  .object({
    account: accountSchema,
    name: z.string().trim().min(1, { message: 'NAME_REQUIRED' }).max(64),
    orgName: z.string().trim().min(1, { message: 'ORG_NAME_REQUIRED' }).max(100),
    email: emailSchema,
    phone: optionalMobileSchema,
    password: passwordSchema,
    confirmPassword: z.string().max(128),
    captchaId: z.string().trim().min(1, { message: 'CAPTCHA_ERROR' }).max(64),
    captcha: z.string().trim().min(1, { message: 'CAPTCHA_REQUIRED' }).max(16),
  })
  .superRefine((v, ctx) => {
    if (v.password !== v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'PASSWORD_CONFIRM_MISMATCH' });
  });
export type RegisterBody = z.infer<typeof registerBodySchema>;
export const registerDataSchema = z.object({ account: z.string(), orgName: z.string() });
export type RegisterData = z.infer<typeof registerDataSchema>;

/** How a retrieval code travels. */
export const CODE_CHANNELS = ['email', 'sms'] as const;
export type CodeChannel = (typeof CODE_CHANNELS)[number];

/** sysUserModel: which verification channels an account has, masked. */
export const userModelBodySchema = z.object({ account: z.string().trim().min(1, { message: 'ACCOUNT_REQUIRED' }).max(64) });
export const userModelDataSchema = z.object({
  account: z.string(),
  /** e.g. `de***@example.com`; null when none is bound. */
  email: z.string().nullable(),
  /** e.g. `138****0000`; null when none is bound. */
  phone: z.string().nullable(),
});
export type UserModelData = z.infer<typeof userModelDataSchema>;

/** sendMail: sends a four-digit code by e-mail (default) or SMS. */
export const sendCodeBodySchema = userModelBodySchema.extend({ channel: z.enum(CODE_CHANNELS).default('email') });
export type SendCodeBody = z.infer<typeof sendCodeBodySchema>;
export const sendCodeDataSchema = z.object({
  channel: z.enum(CODE_CHANNELS),
  /** The masked address the code went to. */
  to: z.string(),
  expiresAt: z.string(),
  /** Seconds before another code may be asked for. */
  resendAfter: z.number().int(),
});
export type SendCodeData = z.infer<typeof sendCodeDataSchema>;

/** mailVerify: checks the code; a right code is used up and yields a short-lived reset ticket. */
export const verifyCodeBodySchema = userModelBodySchema.extend({
  channel: z.enum(CODE_CHANNELS).default('email'),
  code: verificationCodeSchema,
});
export type VerifyCodeBody = z.infer<typeof verifyCodeBodySchema>;
export const verifyCodeDataSchema = z.object({ ticket: z.string(), expiresAt: z.string() });
export type VerifyCodeData = z.infer<typeof verifyCodeDataSchema>;

/** forgot: the new password, authorised by the ticket of mailVerify. */
export const forgotBodySchema = userModelBodySchema
  .extend({
    ticket: z.string().trim().min(1, { message: 'RESET_EXPIRED' }).max(200),
    password: passwordSchema,
    confirmPassword: z.string().max(128),
  })
  .superRefine((v, ctx) => {
    if (v.password !== v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'PASSWORD_CONFIRM_MISMATCH' });
  });
export type ForgotBody = z.infer<typeof forgotBodySchema>;

/** What the login screen needs to offer external sign-in. */
export const ssoConfigSchema = z.object({
  enabled: z.boolean(),
  /** The provider's display name, e.g. 'Company SSO'. */
  name: z.string().nullable(),
  /** Where the browser goes to start the external sign-in. */
  startUrl: z.string(),
});
export type SsoConfig = z.infer<typeof ssoConfigSchema>;

/** bindUser: the spec's query names; `openid` is the pending external sign-in handed to the bind page. */
export const bindUserQuerySchema = z.object({
  openid: z.string().trim().min(1, { message: 'BIND_EXPIRED' }).max(200),
  userCode: z.string().trim().min(1, { message: 'ACCOUNT_REQUIRED' }).max(64),
  password: z.string().min(1, { message: 'PASSWORD_REQUIRED' }).max(128),
});
export type BindUserQuery = z.infer<typeof bindUserQuerySchema>;

/** POST ssoReauth: where to open the provider's sign-in again (a new window) to sign a record. */
export const ssoReauthStartSchema = z.object({ url: z.string() });
export type SsoReauthStart = z.infer<typeof ssoReauthStartSchema>;

// The paths live in a module without Zod, so the web app's login page need not bring Zod.
export { ACCOUNT_API, SSO_REAUTH_MESSAGE } from './account-api.ts';
