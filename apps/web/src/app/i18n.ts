// i18next set-up: flat dotted keys from locales/*.json, typed so an unknown key fails `tsc`;
// a language change is saved in the cookie and carried to dayjs, <html lang> and the page title.
// Only the language in use is downloaded: each language is a chunk of its own (language-*.ts),
// fetched before the first render and, for the other one, when the user switches to it; i18next
// switches only once the new texts are there, so no raw key ever shows. A language comes in two
// parts (locale-parts.ts): the account screens' messages with the first load, the console's once
// the console frame or a public page asks for them (`loadAllMessages`), and from then on with
// every language that is fetched.
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
  messages: Record<string, string>;
  antd: Locale;
}

const PACKS: Record<Lang, () => Promise<{ default: LanguagePack }>> = {
  en: () => import('./language-en.ts'),
  zh: () => import('./language-zh.ts'),
};

/** The rest of each language's messages (the console's), fetched once the console needs them. */
const CONSOLE_MESSAGES: Record<Lang, () => Promise<{ default: Record<string, string> }>> = {
  en: () => import('../locales/en.json?part=console'),
  zh: () => import('../locales/zh.json?part=console'),
};

const antdLocales: Partial<Record<Lang, Locale>> = {};

/** Set once a screen needs the console's messages: every language fetched from then on has them. */
let allWanted = false;
/** The languages whose console messages are in. */
const complete = new Set<Lang>();

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
    const load = async (): Promise<ResourceKey> => {
      const [{ default: pack }, rest] = await Promise.all([PACKS[language](), allWanted ? CONSOLE_MESSAGES[language]() : null]);
      // The console may have asked for its messages while this language was on its way.
      const more = rest ?? (allWanted ? await CONSOLE_MESSAGES[language]() : null);
      antdLocales[language] = pack.antd;
      if (more) complete.add(language);
      return more ? { ...pack.messages, ...more.default } : pack.messages;
    };
    load().then(
      (messages) => callback(null, messages),
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

/**
 * Fetches the console's messages for every language already in (the one in use, and one a preview
 * shows), and for every language fetched from now on. A screen that needs them waits for this
 * before it renders (app/router.tsx), so no raw key shows.
 */
export function loadAllMessages(): Promise<void> {
  allWanted = true;
  const missing = (['zh', 'en'] as const).filter((lang) => !complete.has(lang) && i18next.hasResourceBundle(lang, 'translation'));
  return Promise.all(
    missing.map((lang) =>
      CONSOLE_MESSAGES[lang]().then(({ default: rest }) => {
        i18next.addResourceBundle(lang, 'translation', rest, true, true);
        complete.add(lang);
      }),
    ),
  ).then(() => undefined);
}

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
