// i18next set-up: flat dotted keys from locales/*.json, typed so an unknown key fails `tsc`;
// a language change is saved in the cookie and carried to dayjs, <html lang> and the page title.
// Only the language in use is downloaded: each language is a chunk of its own (language-*.ts),
// fetched before the first render and, for the other one, when the user switches to it; i18next
// switches only once the new texts are there, so no raw key ever shows.
import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import type { Locale } from 'antd/es/locale';
import { PRODUCT_TITLE, type Lang } from '@iotc/shared/i18n';
import type en from '../locales/en.json';
import { initialLang, saveLang } from '../lib/language.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    keySeparator: false;
    nsSeparator: false;
  }
}

interface LanguagePack {
  messages: ResourceKey;
  antd: Locale;
}

const PACKS: Record<Lang, () => Promise<{ default: LanguagePack }>> = {
  en: () => import('./language-en.ts'),
  zh: () => import('./language-zh.ts'),
};

const antdLocales: Partial<Record<Lang, Locale>> = {};

/** antd's texts for a language whose pack has arrived (the current one always has). */
export function antdLocale(lang: Lang): Locale | undefined {
  return antdLocales[lang];
}

function isLang(value: string): value is Lang {
  return value === 'zh' || value === 'en';
}

// i18next's backend interface, answered from the language chunks.
const packBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    if (!isLang(language)) {
      callback(new Error(`no messages for ${language}`), null);
      return;
    }
    PACKS[language]().then(
      ({ default: pack }) => {
        antdLocales[language] = pack.antd;
        callback(null, pack.messages);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

function applyPageLang(lang: Lang): void {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  document.title = PRODUCT_TITLE[lang];
}

function applyLang(lang: Lang): void {
  saveLang(lang);
  dayjs.locale(lang === 'zh' ? 'zh-cn' : 'en');
  applyPageLang(lang);
}

// The page's title and language are known before the language's chunk arrives: set at once, so
// the tab, a bookmark and a screen reader never see the other language's title meanwhile.
applyPageLang(initialLang());

i18next.on('languageChanged', (lng) => applyLang(lng === 'zh' ? 'zh' : 'en'));

/** Settles once the first language's texts are in: render nothing before (main.tsx). */
export const i18nReady = i18next
  .use(packBackend)
  .use(initReactI18next)
  .init({
    lng: initialLang(),
    // No fallback language: it would be downloaded too, and both files carry every key
    // (locales/check.ts).
    fallbackLng: false,
    supportedLngs: ['zh', 'en'],
    load: 'currentOnly',
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  });

export default i18next;
