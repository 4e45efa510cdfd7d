// The message parts in i18n.ts: a page has the first load's part only; a screen's parts come when
// asked for, for every language in; a language fetched later comes with every part asked for so
// far; a key of a part nobody asked for fetches its part, and what shows it re-renders. This file
// does not use test/dom.tsx, which loads every part.
import { createRoot } from 'react-dom/client';
import { act } from 'react';
import { useTranslation } from 'react-i18next';
import { afterAll, describe, expect, it, vi } from 'vitest';
import en from '../locales/en.json';
import zh from '../locales/zh.json';
import i18next, { i18nReady, loadMessageParts } from './i18n.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const warn = vi.spyOn(console, 'warn');
const log = vi.spyOn(console, 'log');
afterAll(() => {
  // i18next says nothing about the keys it misses meanwhile.
  expect(warn).not.toHaveBeenCalled();
  expect(log).not.toHaveBeenCalled();
});

const has = (lang: 'en' | 'zh', key: string) => i18next.getResource(lang, 'translation', key) !== undefined;

function Shows({ k }: { k: 'cockpit.title' }) {
  const { t } = useTranslation();
  return <p>{t(k)}</p>;
}

describe('the message parts', () => {
  it('come as screens ask for them, with a language fetched later, and for a key nobody foresaw', async () => {
    await i18nReady;
    expect(i18next.language).toBe('en');
    expect(i18next.t('login.submit')).toBe(en['login.submit']);
    // Before the console nothing but the first load's part, and a missing key fetches nothing.
    expect(i18next.t('alarm.stats.count')).toBe('alarm.stats.count');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(has('en', 'alarm.stats.count') || has('en', 'alarm.notify.view')).toBe(false);

    await loadMessageParts(['shell', 'alarm']);
    expect(i18next.t('alarm.notify.view')).toBe(en['alarm.notify.view']);
    expect(i18next.t('alarm.stats.count')).toBe(en['alarm.stats.count']);
    expect(has('en', 'transport.detail.story') || has('en', 'cockpit.title')).toBe(false);

    // A key of a part no screen asked for: shown as the key, then its part comes and it re-renders.
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    act(() => root.render(<Shows k="cockpit.title" />));
    expect(container.textContent).toBe('cockpit.title');
    await vi.waitFor(() => expect(container.textContent).toBe(en['cockpit.title']));

    // Chinese comes with the first load's part and every part asked for, before the switch shows.
    await act(() => i18next.changeLanguage('zh'));
    expect(container.textContent).toBe(zh['cockpit.title']);
    for (const key of ['login.submit', 'alarm.notify.view', 'alarm.stats.count', 'cockpit.title'] as const) expect(i18next.t(key)).toBe(zh[key]);
    expect(has('zh', 'transport.detail.story')).toBe(false);

    // A part asked for now comes for both languages in.
    await loadMessageParts(['transport']);
    expect(has('zh', 'transport.detail.story') && has('en', 'transport.detail.story')).toBe(true);
    act(() => root.unmount());
  });
});
