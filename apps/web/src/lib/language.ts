// The interface language: zh or en, kept in the `language` cookie (spec section 4).
import { useEffect, useReducer } from 'react';
import Cookies from 'js-cookie';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { headerFromLang, langFromHeader, type Lang, type LanguageHeader } from '@iotc/shared/i18n';

const COOKIE = 'language';

function isLang(value: unknown): value is Lang {
  return value === 'zh' || value === 'en';
}

/** The saved choice, else the browser's language (anything containing 'zh' gives zh). */
export function initialLang(): Lang {
  const saved = Cookies.get(COOKIE);
  if (isLang(saved)) return saved;
  return langFromHeader(typeof navigator === 'undefined' ? undefined : navigator.language);
}

export function saveLang(lang: Lang): void {
  Cookies.set(COOKIE, lang, { expires: 365, sameSite: 'lax', path: '/' });
}

export function currentLang(): Lang {
  return i18next.language === 'zh' ? 'zh' : 'en';
}

export function currentLanguageHeader(): LanguageHeader {
  return headerFromLang(currentLang());
}

export function changeLang(lang: Lang): void {
  void i18next.changeLanguage(lang);
}

/** The current language, re-rendering the caller when it changes. */
export function useLang(): Lang {
  const { i18n } = useTranslation();
  return i18n.language === 'zh' ? 'zh' : 'en';
}

/**
 * For a part that speaks another language than the screen (a preview in the rule's language):
 * fetches that language's texts when missing and re-renders once they are in; false until then.
 */
export function useLanguageTexts(lang: Lang): boolean {
  const [, loaded] = useReducer((n: number) => n + 1, 0);
  const ready = i18next.hasResourceBundle(lang, 'translation');
  useEffect(() => {
    if (!ready) void i18next.loadLanguages(lang).then(loaded);
  }, [lang, ready]);
  return ready;
}
