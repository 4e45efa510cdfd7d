// Field rules of the account forms: each check answers a shared error code (the server words its
// refusals by the same codes), turned into an antd rule worded in the current language.
import type { FormRule } from 'antd';
import type { z } from 'zod';
import { errorText, type ErrorCode } from '@iotc/shared/errors';
import { isValidPassword } from '@iotc/shared/validation';
import { useLang } from '../../../lib/language.ts';
import { schemaIssue } from '../../../lib/schema-rule.ts';

export type Check = (value: unknown) => ErrorCode | undefined;

/** A shared schema as a check; a message that is not a code (a length the input already caps) reads VALIDATION. */
export function schemaCheck(schema: z.ZodType): Check {
  return (value) => schemaIssue(schema, value);
}

/** A new password: present, then the spec's rule. */
export const newPasswordCheck: Check = (value) => {
  if (typeof value !== 'string' || !value) return 'PASSWORD_REQUIRED';
  return isValidPassword(value) ? undefined : 'PASSWORD_FORMAT';
};

/** The confirmation of the password typed in `password`. */
export function confirmCheck(password: () => unknown): Check {
  return (value) => {
    if (typeof value !== 'string' || !value) return 'PASSWORD_REQUIRED';
    return value === password() ? undefined : 'PASSWORD_CONFIRM_MISMATCH';
  };
}

/** Turns checks into antd rules worded in the current language. */
export function useCodeRule(): (check: Check) => FormRule {
  const lang = useLang();
  return (check) => ({
    validator: (_rule, value: unknown) => {
      const code = check(value);
      return code ? Promise.reject(new Error(errorText(code, lang))) : Promise.resolve();
    },
  });
}
