// The theme choice: dark beside default and red, kept in local storage and read back at the next
// start (a fresh module is a reloaded page).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setItem } from './storage.ts';

async function freshStart() {
  vi.resetModules();
  return import('./theme.ts');
}

describe('theme choice', () => {
  beforeEach(() => {
    localStorage.clear();
  });

  it('offers default, red and dark, default first', async () => {
    const theme = await freshStart();
    expect(theme.THEMES).toEqual(['default-theme', 'red-theme', 'dark-theme']);
    expect(theme.getTheme()).toBe('default-theme');
    expect(theme.isDarkTheme('dark-theme')).toBe(true);
    expect(theme.isDarkTheme('red-theme')).toBe(false);
  });

  it('remembers dark across a restart', async () => {
    const theme = await freshStart();
    theme.setTheme('dark-theme');
    expect(theme.getTheme()).toBe('dark-theme');
    const next = await freshStart();
    expect(next.getTheme()).toBe('dark-theme');
    next.setTheme('red-theme');
    expect((await freshStart()).getTheme()).toBe('red-theme');
  });

  it('falls back to default for a saved value it does not know', async () => {
    setItem('theme', 'neon-theme');
    expect((await freshStart()).getTheme()).toBe('default-theme');
  });
});
