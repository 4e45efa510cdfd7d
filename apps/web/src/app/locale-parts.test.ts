// Each page gets the message parts (locale-parts.ts) its texts use, and no raw key shows:
// - the first load's part covers every key that the account screens and what the router shows
//   before the console can ask for: a key outside it would show raw on the login page;
// - the shell part covers the console frame's keys (what stays on screen around every screen);
// - each screen in routes/screens.ts lists the parts of its keys beyond those two (`withParts`).
// The walk follows the static imports from a page (for a screen, its lazily loaded drawers and
// dialogs too: they use the screen's parts) and reads every `t('…')` key, the static start of a
// `t(`…${…}`)` key, and any quoted text that is a key of the language file (keys kept in tables
// and handed to `t` later). A key built entirely at run time it cannot see: i18n.ts fetches the
// part of such a key when it is first missed.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import zh from '../locales/zh.json';
import enAccount from '../locales/en.json?part=account';
import enShell from '../locales/en.json?part=shell';
import zhAccount from '../locales/zh.json?part=account';
import zhShell from '../locales/zh.json?part=shell';
import table from 'virtual:iotc-locale-parts';
import { ACCOUNT_PREFIXES, SHELL_PREFIXES, isAccountKey, partOf } from './locale-parts.ts';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');
const KEYS: Record<string, string> = en;
const PREFIXES = new Set(Object.keys(KEYS).map((key) => key.slice(0, key.indexOf('.'))));

/** Files the walk reads but whose dynamic imports it does not follow: they load other pages. */
const OTHER_PAGES = ['app/router.tsx', 'app/routes/screens.ts', 'app/i18n.ts', 'main.tsx'];

/** The message keys used by `starts` and what they import (keys to the file using them). */
function keysFrom(starts: readonly string[], { dynamic }: { dynamic: boolean }): Map<string, string> {
  const seen = new Set<string>();
  const keys = new Map<string, string>();
  const stack = starts.map((file) => join(SRC, file));
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const name = relative(SRC, file);
    const source = readFileSync(file, 'utf8');
    const paths = [...source.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gm)].map((m) => m[1]!);
    if (dynamic && !OTHER_PAGES.includes(name)) paths.push(...[...source.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)].map((m) => m[1]!));
    for (const path of paths) {
      const target = join(dirname(file), path);
      const found = [target, `${target}.ts`, `${target}.tsx`].find((f) => /\.tsx?$/.test(f) && existsSync(f));
      if (found) stack.push(found);
    }
    for (const [, key] of source.matchAll(/\bt\(\s*['`]([a-zA-Z0-9]+\.[^'`$]*)/g)) keys.set(key!, name);
    for (const [, key] of source.matchAll(/['"`]([a-zA-Z0-9]+\.[a-zA-Z0-9_.]+)['"`]/g)) if (Object.hasOwn(KEYS, key!)) keys.set(key!, name);
    for (const [, key] of source.matchAll(/`([a-zA-Z0-9]+\.[a-zA-Z0-9_.]*)\$\{/g)) if (PREFIXES.has(key!.slice(0, key!.indexOf('.')))) keys.set(key!, name);
  }
  return keys;
}

/** Keys of `keys` whose part is not one of `parts`, as `key (file)`. */
function outside(keys: Map<string, string>, parts: readonly string[]): string[] {
  return [...keys].filter(([key]) => !parts.includes(partOf(key))).map(([key, file]) => `${key} (${file})`);
}

/** The screens of routes/screens.ts that wait for their parts: name, page module and parts, as written. */
function declaredScreens(): { name: string; file: string; parts: string[] }[] {
  const source = readFileSync(join(SRC, 'app/routes/screens.ts'), 'utf8');
  const entry = /^\s*(?:export const (\w+): ScreenImporter =|'?([\w/]+)'?:) withParts\(\(\) => import\('([^']+)'\), \[([^\]]*)\]\)/gm;
  return [...source.matchAll(entry)].map((m) => ({
    name: (m[1] ?? m[2])!,
    file: relative(SRC, join(SRC, 'app/routes', m[3]!)),
    parts: [...m[4]!.matchAll(/'(\w+)'/g)].map((p) => p[1]!),
  }));
}

const ACCOUNT_STARTS = [
  'main.tsx',
  'app/router.tsx',
  'features/auth/pages/login-page.tsx',
  'features/auth/pages/register-page.tsx',
  'features/auth/pages/retrieve-password-page.tsx',
  'features/auth/pages/change-password-page.tsx',
  'features/auth/pages/success-page.tsx',
  'features/auth/pages/bind-user-page.tsx',
  'features/auth/pages/reauth-done-page.tsx',
  'components/not-found.tsx',
];

describe('the first load messages', () => {
  it('hold every key the account screens and the pages before the console use', () => {
    const keys = keysFrom(ACCOUNT_STARTS, { dynamic: false });
    // The walk reaches the login page and its texts (a walk that stopped early would prove nothing).
    expect(keys.get('login.submit')).toBe('features/auth/pages/login-page.tsx');
    expect(keys.size).toBeGreaterThan(60);
    expect(outside(keys, ['account'])).toEqual([]);
  });
});

describe('the console frame messages', () => {
  it('are the account and shell parts', () => {
    // The frame and its view host, with what they load later (the feedback host, the 404 page).
    const keys = keysFrom(['app/console.ts', 'app/feedback-app.tsx'], { dynamic: true });
    expect(keys.get('alarm.notify.view')).toBe('app/layout/alarm-notifier.tsx');
    expect(keys.get('inbox.title')).toBeDefined();
    expect(keys.get('forbidden.subtitle')).toBe('components/forbidden.tsx');
    expect(outside(keys, ['account', 'shell'])).toEqual([]);
  });
});

describe('each screen', () => {
  const screens = declaredScreens();

  it('is found in routes/screens.ts, with its page', () => {
    // Every console screen and the public pages: a list the regular expression missed would test nothing.
    expect(screens.length).toBeGreaterThan(50);
    expect(screens.map((s) => s.name)).toEqual(expect.arrayContaining(['alarm/query', 'cockpit/index', 'transport/tasks', 'LEDGER_PUBLIC_SCREEN', 'TRACKING_PUBLIC_SCREEN']));
    for (const { file } of screens) expect(existsSync(join(SRC, file)), file).toBe(true);
  });

  it.each(screens.map((s) => [s.name, s] as const))('%s lists the parts of its keys, and only those', (_name, { file, parts }) => {
    const keys = keysFrom([file], { dynamic: true });
    expect(keys.size).toBeGreaterThan(0);
    expect(outside(keys, ['account', 'shell', ...parts])).toEqual([]);
    const used = new Set([...keys.keys()].map(partOf));
    expect(parts.filter((part) => !used.has(part))).toEqual([]);
    for (const part of parts) expect(table.en?.[part], part).toBeTypeOf('function');
  });

  it('walks a screen and the drawers it loads later', () => {
    const keys = keysFrom(['features/transport/pages/tasks-page.tsx'], { dynamic: true });
    // The lazily loaded task drawer's texts; none of another screen's.
    expect(keys.get('transport.detail.story')).toBe('features/transport/components/task-detail-drawer.tsx');
    expect(keys.get('cockpit.title')).toBeUndefined();
    // A key kept in a table and handed to `t` later.
    expect(keysFrom(['features/asset/pages/devices-page.tsx'], { dynamic: true }).get('asset.device.protocolJt808')).toBe('features/asset/components/protocols.ts');
  });
});

describe('the parts', () => {
  it('split each language: every key in exactly one part, together the whole file', async () => {
    for (const [lang, all, account, shell] of [
      ['en', en, enAccount, enShell],
      ['zh', zh, zhAccount, zhShell],
    ] as const) {
      const loaders = table[lang]!;
      expect(Object.keys(loaders)).toContain('shell');
      expect(Object.keys(loaders)).not.toContain('account');
      const rest = await Promise.all(Object.entries(loaders).map(async ([name, load]) => [name, (await load()).default] as const));
      expect(rest.find(([name]) => name === 'shell')![1]).toEqual(shell);
      const parts = [account, ...rest.map(([, messages]) => messages)];
      expect(parts.reduce((n, part) => n + Object.keys(part).length, 0)).toBe(Object.keys(all).length);
      expect(Object.assign({}, ...parts)).toEqual(all);
      for (const [name, messages] of rest) for (const key of Object.keys(messages)) expect(partOf(key), key).toBe(name);
      expect(account['login.submit']).toBe(all['login.submit']);
      expect(shell['alarm.notify.view']).toBe(all['alarm.notify.view']);
      // The first load's part and the shell are small shares of the language.
      expect(JSON.stringify(account).length).toBeLessThan(JSON.stringify(all).length / 8);
      expect(JSON.stringify(shell).length).toBeLessThan(JSON.stringify(all).length / 15);
    }
  });

  it('are named apart: no prefix is called account or shell, no list holds a prefix of the other', () => {
    expect(PREFIXES.has('account') || PREFIXES.has('shell')).toBe(false);
    for (const prefix of SHELL_PREFIXES) {
      expect(ACCOUNT_PREFIXES).not.toContain(prefix.split('.')[0]);
      expect(Object.keys(KEYS).some((key) => key.startsWith(`${prefix}.`)), prefix).toBe(true);
    }
    expect(isAccountKey('login.submit')).toBe(true);
    expect(partOf('alarm.type.1')).toBe('shell');
    expect(partOf('alarm.stats.count')).toBe('alarm');
  });
});
