// The text of a failed call as the user should read it: a known error code in the user's
// language (the server's envelope uses the same texts), else the server's own message.
import i18next from 'i18next';
import { errorText, isErrorCode, type ErrorCode } from '@iotc/shared/errors';
import type { Lang } from '@iotc/shared/i18n';
import { ApiError } from '../api/client.ts';

export function apiErrorCode(error: unknown): ErrorCode | undefined {
  const code = error instanceof ApiError ? error.errorcode : null;
  return isErrorCode(code) ? code : undefined;
}

export function apiErrorText(error: unknown, lang: Lang): string {
  const code = apiErrorCode(error);
  if (code) return errorText(code, lang);
  if (error instanceof ApiError) {
    if (error.errorcode === 'TIMEOUT') return i18next.t('error.timeout');
    if (error.errorcode === 'NETWORK') return i18next.t('error.network');
    if (error.errormsg) return error.errormsg;
  }
  return i18next.t('error.server');
}
