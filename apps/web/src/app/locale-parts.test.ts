// The first load's messages (locale-parts.ts) cover every key that the account screens and what
// the router shows before the console can ask for: a key outside them would show raw on the login
// page until the console's messages came. The walk follows static imports from the pages of the
// router that do not wait for the console's messages (app/router.tsx `withMessages`), never a
// dynamic import, and reads every `t('…')` and `i18next.t('…')` key on the way.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import zh from '../locales/zh.json';
import enAccount from '../locales/en.json?part=account';
import enConsole from '../locales/en.json?part=console';
import zhAccount from '../locales/zh.json?part=account';
import zhConsole from '../locales/zh.json?part=console';
import { isAccountKey } from './locale-parts.ts';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');
const STARTS = [
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

function keysOfFirstLoad(): Map<string, string> {
  const seen = new Set<string>();
  const keys = new Map<string, string>();
  const stack = STARTS.map((file) => join(SRC, file));
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, path] of source.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gm)) {
      const target = join(dirname(file), path!);
      const found = [target, `${target}.ts`, `${target}.tsx`].find((f) => /\.tsx?$/.test(f) && existsSync(f));
      if (found) stack.push(found);
    }
    for (const [, key] of source.matchAll(/\bt\(\s*['`]([a-zA-Z0-9]+\.[^'`$]*)/g)) keys.set(key!, relative(SRC, file));
  }
  return keys;
}

describe('the first load messages', () => {
  it('hold every key the account screens and the pages before the console use', () => {
    const keys = keysOfFirstLoad();
    // The walk reaches the login page and its texts (a walk that stopped early would prove nothing).
    expect(keys.get('login.submit')).toBe('features/auth/pages/login-page.tsx');
    expect(keys.size).toBeGreaterThan(60);
    const outside = [...keys].filter(([key]) => !isAccountKey(key)).map(([key, file]) => `${key} (${file})`);
    expect(outside).toEqual([]);
  });

  it('split each language into two parts that together are the whole file', () => {
    for (const [all, account, rest] of [
      [en, enAccount, enConsole],
      [zh, zhAccount, zhConsole],
    ] as const) {
      expect({ ...account, ...rest }).toEqual(all);
      expect(Object.keys(account).length + Object.keys(rest).length).toBe(Object.keys(all).length);
      expect(account['login.submit']).toBe(all['login.submit']);
      expect(rest['transport.title' as keyof typeof rest] ?? Object.values(rest)[0]).toBeTruthy();
      // The first load's part is a small share of the language.
      expect(JSON.stringify(account).length).toBeLessThan(JSON.stringify(all).length / 8);
    }
  });
});
