// Labels that come from declarations (column headers, button names, filter labels, tab names):
// an i18n key when the locale files know it, else the text as written, so a declaration can also
// carry a plain name (a dictionary value, a device field) without a locale entry.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export type LabelFn = (key: string) => string;

export function useLabel(): LabelFn {
  const { t, i18n } = useTranslation();
  // The typed `t` accepts known keys only; a declaration's key is checked at run time instead.
  const translate = t as unknown as (key: string) => string;
  return useCallback((key: string) => (key && i18n.exists(key) ? translate(key) : key), [translate, i18n]);
}
