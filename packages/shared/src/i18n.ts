// Languages of the product and how a request header or a browser setting maps onto them.
export type Lang = 'zh' | 'en';
/** Values of the `language` request header (spec section 7). */
export type LanguageHeader = 'zh-CN' | 'en-US';

export const PRODUCT_TITLE: Record<Lang, string> = { en: 'IoT Cloud Console', zh: '物联网云平台' };

/** `zh-CN`, `zh`, `zh-TW`... give zh; everything else (including nothing) gives en. */
export function langFromHeader(value: string | undefined | null): Lang {
  return value && value.toLowerCase().includes('zh') ? 'zh' : 'en';
}

export function headerFromLang(lang: Lang): LanguageHeader {
  return lang === 'zh' ? 'zh-CN' : 'en-US';
}

/** A text in both languages. */
export type I18nText = Record<Lang, string>;
