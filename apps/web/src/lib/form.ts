// Form helpers shared by the form screens and dialogs.
import { useEffect } from 'react';
import type { FormInstance } from 'antd';
import { useLang } from './language.ts';

/**
 * Field messages are texts of the moment they were raised; after a language switch, raise
 * the ones on screen again so they read in the new language.
 */
export function useRevalidateOnLanguage(form: FormInstance): void {
  const lang = useLang();
  useEffect(() => {
    const withErrors = form
      .getFieldsError()
      .filter((f) => f.errors.length > 0)
      .map((f) => f.name);
    if (withErrors.length > 0) void form.validateFields(withErrors).catch(() => undefined);
  }, [lang, form]);
}

/** A text field's value for the API: trimmed, and left out when blank. */
export function blankToUndefined(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}
