// i18next set-up: flat dotted keys from locales/*.json, typed so an unknown key fails `tsc`;
// a language change is saved in the cookie and carried to dayjs, <html lang> and the page title.
// Only the language in use is downloaded: each language is a chunk of its own (language-*.ts),
// fetched before the first render and, for the other one, when the user switches to it; i18next
// switches only once the new texts are there, so no raw key ever shows. A language comes in parts
// (locale-parts.ts): the account screens' messages with the first load; the console frame's (the
// shell part) and each console screen's parts once the frame or the screen asks for them
// (`loadMessageParts`, app/router.tsx and app/routes/screens.ts); from then on every language that
// is fetched comes with all the parts asked for so far. A key whose part is not in yet (one the
// screen's list missed, built at run time) fetches its part and the texts show a moment later.
import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import type { Locale } from 'antd/es/locale';
import { PRODUCT_TITLE, type Lang } from '@iotc/shared/i18n';
import type en from '../locales/en.json';
import { initialLang, saveLang } from '../lib/language.ts';
import { partOf } from './locale-parts.ts';

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

/** Each language's parts but the first load's, by name (vite-locale-parts.ts): fetched with the console. */
type PartTable = Record<string, Record<string, () => Promise<{ default: Record<string, string> }>>>;
let partTable: Promise<PartTable> | undefined;
function parts(): Promise<PartTable> {
  partTable ??= import('virtual:iotc-locale-parts').then((m) => m.default);
  return partTable;
}

const antdLocales: Partial<Record<Lang, Locale>> = {};

/** Emitted when parts come in; the components re-render on it (react `bindI18n` below). */
const PARTS_ADDED = 'partsAdded';

/** The parts some screen has asked for: every language fetched from then on comes with them. */
const wanted = new Set<string>();
/** The parts whose messages are in, by language. */
const complete: Record<Lang, Set<string>> = { zh: new Set(), en: new Set() };

/** One part's messages of a language (an unknown part name, as a missing key's prefix may be: none). */
async function fetchPart(lang: Lang, part: string): Promise<Record<string, string>> {
  const load = (await parts())[lang]?.[part];
  return load ? (await load()).default : {};
}

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
      const fetched = new Set<string>();
      const fetchWanted = () => {
        const todo = [...wanted].filter((part) => !fetched.has(part));
        todo.forEach((part) => fetched.add(part));
        return Promise.all(todo.map((part) => fetchPart(language, part)));
      };
      const [{ default: pack }, first] = await Promise.all([PACKS[language](), fetchWanted()]);
      const messages = Object.assign({}, pack.messages, ...first) as Record<string, string>;
      // A screen may have asked for more parts while this language was on its way.
      for (let more = await fetchWanted(); more.length; more = await fetchWanted()) Object.assign(messages, ...more);
      antdLocales[language] = pack.antd;
      fetched.forEach((part) => complete[language].add(part));
      return messages;
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

/** `lang:part` pairs on their way (addParts). */
const pending = new Set<string>();

/** Fetches the parts not in yet for every language already in; answers whether any came. */
async function addParts(names: readonly string[]): Promise<boolean> {
  names.forEach((part) => wanted.add(part));
  const missing = (['zh', 'en'] as const).flatMap((lang) =>
    i18next.hasResourceBundle(lang, 'translation') ? names.filter((part) => !complete[lang].has(part)).map((part) => [lang, part] as const) : [],
  );
  if (!missing.length) return false;
  missing.forEach(([lang, part]) => pending.add(`${lang}:${part}`));
  try {
    const fetched = await Promise.all(missing.map(([lang, part]) => fetchPart(lang, part)));
    // All at once, after all are in (another call may have added some meanwhile).
    let added = false;
    missing.forEach(([lang, part], i) => {
      if (complete[lang].has(part)) return;
      i18next.addResourceBundle(lang, 'translation', fetched[i], true, true);
      complete[lang].add(part);
      added = true;
    });
    return added;
  } finally {
    missing.forEach(([lang, part]) => pending.delete(`${lang}:${part}`));
  }
}

/**
 * Fetches message parts (locale-parts.ts: `shell` or a prefix) for every language already in (the
 * one in use, and one a preview shows), and for every language fetched from now on. A screen that
 * needs them waits for this before it renders (app/router.tsx, app/routes/screens.ts), so no raw
 * key shows, and nothing that shows already re-renders for them.
 */
export async function loadMessageParts(names: readonly string[]): Promise<void> {
  await addParts(names);
}

/** Every part of every language loaded: for tests, which render any screen in either language. */
export async function loadAllMessages(): Promise<void> {
  await loadMessageParts(Object.keys((await parts()).en ?? {}));
}

/**
 * The safety net for a key no screen's list foresaw (a key built at run time): i18next calls this
 * for any key it has no text for, and a key whose part is not in for the language in use fetches
 * it; the components re-render when it comes. The key shows meanwhile, as i18next does without the
 * handler. (It also covers a screen's part asked for in the instant a switched-to language's texts
 * were being handed to i18next.)
 */
function missingKey(key: string, defaultValue: string | undefined): string {
  const part = partOf(key);
  const lang = i18next.language;
  // Before the console nothing is missing (the account screens have their part); after, not a
  // message key (a text shown as written), or a part that is in or on its way already.
  const fetch =
    wanted.size > 0 && /^[a-zA-Z0-9]+\.\S/.test(key) && part !== 'account' && isLang(lang) && !complete[lang].has(part) && !pending.has(`${lang}:${part}`);
  if (fetch) {
    addParts([part]).then(
      (added) => {
        if (added) i18next.emit(PARTS_ADDED);
      },
      () => undefined,
    );
  }
  return defaultValue ?? key;
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
    parseMissingKeyHandler: missingKey,
    // Parts added by the safety net above re-render what shows their keys (react-i18next listens
    // to these events of i18next; a screen's own parts are in before it renders).
    react: { bindI18n: `languageChanged ${PARTS_ADDED}` },
  });

export default i18next;
