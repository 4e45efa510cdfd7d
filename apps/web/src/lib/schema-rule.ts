// Form rules from the shared Zod schemas: a field is checked by the same schema the server
// parses it with, and a failure shows the text of the schema's error code in the user's
// language, so the form and the server's refusal read alike.
import type { FormRule } from 'antd';
import type { z } from 'zod';
import { errorText, isErrorCode, type ErrorCode } from '@iotc/shared/errors';
import type { Lang } from '@iotc/shared/i18n';

/**
 * The error code of `value` under `schema`, or undefined when it passes. An empty field reads
 * as ''; a failure whose message is no error code (a length bound) gives `fallback`.
 */
export function schemaIssue(schema: z.ZodType, value: unknown, fallback: ErrorCode = 'VALIDATION'): ErrorCode | undefined {
  const result = schema.safeParse(value ?? '');
  if (result.success) return undefined;
  const message = result.error.issues[0]?.message ?? '';
  return isErrorCode(message) ? message : fallback;
}

/** An antd Form rule checking the field with `schema`. */
export function schemaRule(schema: z.ZodType, lang: Lang, fallback?: ErrorCode): FormRule {
  return {
    validator: (_rule, value: unknown) => {
      const code = schemaIssue(schema, value, fallback);
      return code ? Promise.reject(new Error(errorText(code, lang))) : Promise.resolve();
    },
  };
}
