// i18next set-up: flat dotted keys from locales/*.json, typed so an unknown key fails `tsc`;
// a language change is saved in the cookie and carried to dayjs, <html lang> and the page title.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import { PRODUCT_TITLE, type Lang } from '@iotc/shared/i18n';
import en from '../locales/en.json';
import zh from '../locales/zh.json';
import { initialLang, saveLang } from '../lib/language.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    keySeparator: false;
    nsSeparator: false;
  }
}

function applyLang(lang: Lang): void {
  saveLang(lang);
  dayjs.locale(lang === 'zh' ? 'zh-cn' : 'en');
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  document.title = PRODUCT_TITLE[lang];
}

i18next.on('languageChanged', (lng) => applyLang(lng === 'zh' ? 'zh' : 'en'));

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, zh: { translation: zh } },
  lng: initialLang(),
  fallbackLng: 'en',
  supportedLngs: ['zh', 'en'],
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false,
});

export default i18next;
