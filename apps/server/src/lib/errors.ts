// The one failure every layer throws: an HTTP status and a catalogue code (packages/shared
// errors), with an optional detail in both languages. plugins/errors.ts turns it into the
// envelope in the request's language.
import type { ErrorCode } from '@iotc/shared/errors';
import type { I18nText } from '@iotc/shared/i18n';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    /** Extra detail appended to the catalogue text (never internal details); in both languages when it is words. */
    readonly detail?: string | I18nText,
  ) {
    super(code);
  }
}
