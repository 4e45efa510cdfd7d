// Which messages come with the first load: the login and the other account screens (and what
// every page may show before the console: the language switch, a screen that failed to load, an
// unknown address) need only the keys under these prefixes. The rest, most of the 150 KB of each
// language, is fetched with the console frame or a public page (i18n.ts `loadAllMessages`).
// vite-locale-parts.ts splits the language files by this list at build time;
// locale-parts.test.ts walks the account screens' imports and fails on a key outside it.
export const ACCOUNT_PREFIXES: readonly string[] = [
  'app',
  'bind',
  'changePassword',
  'chunk',
  'common',
  'error',
  'lang',
  'layout',
  'login',
  'notFound',
  'reauthDone',
  'register',
  'retrieve',
  'routeError',
  'sso',
  'success',
  // The sign-in by a token in the address (routes/loaders.ts) says so as the first page opens.
  'token',
];

/** Whether a message key is one of the first load's. */
export function isAccountKey(key: string): boolean {
  return ACCOUNT_PREFIXES.includes(key.slice(0, key.indexOf('.')));
}
