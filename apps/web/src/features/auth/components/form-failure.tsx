// The inline failure of an account form: a server refusal (worded from the shared catalogue by
// its errorcode, so a language switch re-words it) or a failure without an answer.
import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, isErrorCode, type ErrorCode } from '@iotc/shared/errors';
import { ApiError } from '../../../api/client.ts';
import { useLang } from '../../../lib/language.ts';

export interface Failure {
  code: string | null;
  message: string | null;
}

/** What a failed call is shown as; anything but an ApiError has neither code nor text. */
export function failureOf(error: unknown): Failure {
  return error instanceof ApiError ? { code: error.errorcode, message: error.errormsg } : { code: null, message: null };
}

export function FormFailure({
  failure,
  fallback,
  action,
}: {
  failure: Failure;
  /** Shown when neither the code nor the server's text says more. */
  fallback: ErrorCode;
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const text = (() => {
    // VALIDATION carries the offending field in the server's text; every other code is its catalogue text.
    if (isErrorCode(failure.code) && failure.code !== 'VALIDATION') return errorText(failure.code, lang);
    if (failure.code === 'TIMEOUT') return t('error.timeout');
    if (failure.code === 'NETWORK') return t('error.network');
    return failure.message ?? errorText(fallback, lang);
  })();
  return (
    <Alert
      type="error"
      showIcon
      title={text}
      action={action}
      data-testid="form-failure"
      data-errorcode={failure.code ?? undefined}
      role="alert"
      style={{ marginBottom: 20 }}
    />
  );
}
