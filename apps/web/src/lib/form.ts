// Form helpers shared by the account screens.
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
