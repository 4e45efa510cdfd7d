// Input rules of the spec's section 5, as plain predicates and Zod schemas whose messages are
// error codes of errors.ts, so the server's answers and the web forms word them alike.
import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, VERIFICATION_CODE_LENGTH } from './constants.ts';
import type { ErrorCode } from './errors.ts';

export const PATTERNS = {
  chineseOnly: /^[\u4e00-\u9fa5]+$/,
  digitsOnly: /^\d+$/,
  lettersOnly: /^[A-Za-z]+$/,
  lettersDigitsChinese: /^[A-Za-z0-9\u4e00-\u9fa5]+$/,
  mobileCN: /^1[3-9]\d{9}$/,
  /** Optional 3-4 digit area code (with or without a hyphen), then 7-8 digits. */
  landline: /^(\d{3,4}-?)?\d{7,8}$/,
  verificationCode: new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`),
  /** A row id (uuid), e.g. a device picked in an address. */
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
} as const;

const CHINESE = /[\u3400-\u9fff\uf900-\ufaff]/;

/**
 * Password: 8-20 characters, at least two kinds among letters, digits and special symbols,
 * no whitespace, no Chinese characters.
 */
export function isValidPassword(value: string): boolean {
  if (value.length < PASSWORD_MIN || value.length > PASSWORD_MAX) return false;
  if (/\s/.test(value) || CHINESE.test(value)) return false;
  const kinds = [/[A-Za-z]/, /\d/, /[^A-Za-z\d]/].filter((re) => re.test(value)).length;
  return kinds >= 2;
}

const msg = (code: ErrorCode) => ({ message: code });
const matching = (re: RegExp, code: ErrorCode) => z.string().regex(re, msg(code));

export const passwordSchema = z.string().refine(isValidPassword, msg('PASSWORD_FORMAT'));
export const chineseOnlySchema = matching(PATTERNS.chineseOnly, 'CHINESE_ONLY');
export const digitsOnlySchema = matching(PATTERNS.digitsOnly, 'DIGITS_ONLY');
export const lettersOnlySchema = matching(PATTERNS.lettersOnly, 'LETTERS_ONLY');
export const lettersDigitsChineseSchema = matching(PATTERNS.lettersDigitsChinese, 'LETTERS_DIGITS_CHINESE');
export const mobileSchema = matching(PATTERNS.mobileCN, 'MOBILE_FORMAT');
export const landlineSchema = matching(PATTERNS.landline, 'LANDLINE_FORMAT');
export const verificationCodeSchema = z.string().min(1, msg('CODE_REQUIRED')).regex(PATTERNS.verificationCode, msg('CODE_FORMAT'));

/**
 * A new password: the rule, different from the original, equal to its confirmation; each
 * failure carries the spec's message code on the field it belongs to.
 */
export const newPasswordSchema = z
  .object({ oldPassword: z.string(), newPassword: passwordSchema, confirmPassword: z.string() })
  .superRefine((v, ctx) => {
    if (v.newPassword === v.oldPassword) ctx.addIssue({ code: 'custom', path: ['newPassword'], message: 'PASSWORD_SAME_AS_OLD' });
    if (v.newPassword !== v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'PASSWORD_CONFIRM_MISMATCH' });
  });

/** A valid IANA time zone name (as Intl knows them). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
