// The colour theme (default or red, spec section 1 and 4, and dark), kept in local storage and
// shared by every screen through a tiny store.
import { storedValue } from './storage.ts';

export const THEMES = ['default-theme', 'red-theme', 'dark-theme'] as const;
export type ThemeName = (typeof THEMES)[number];

/**
 * Each theme's primary colour. The default is Ant Design's blue one step darker (blue-7, not
 * blue-6 #1677ff): white text on it (primary buttons, the selected menu entry) and it as text on
 * white (links) reach the 4.5:1 contrast of WCAG AA, 6.2:1 where #1677ff gave 4.1:1. The red
 * theme's red-7 already does (5.6:1).
 */
export const THEME_PRIMARY: Record<ThemeName, string> = {
  'default-theme': '#0958d9',
  'red-theme': '#cf1322',
  // Ant Design's blue for the dark algorithm (buttons #1668dc, white on it 5.2:1); texts in the
  // primary colour use a lighter blue there (see DARK_TOKENS in app/theme.ts).
  'dark-theme': '#1677ff',
};

/** Whether the theme draws light text on dark surfaces (antd's dark algorithm, dark charts and maps). */
export function isDarkTheme(theme: ThemeName): boolean {
  return theme === 'dark-theme';
}

const theme = storedValue<ThemeName>('theme', (saved) => THEMES.find((t) => t === saved) ?? 'default-theme');

export const getTheme = theme.get;
export const setTheme = theme.set;
export const useThemeName = theme.use;
