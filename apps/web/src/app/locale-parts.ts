// How each language's messages are split, so a page downloads the texts it shows and few more
// (issue 23). Every key is in exactly one part:
// - `account`: the first load's (the login and the other account screens, and what every page may
//   show before the console: the language switch, a screen that failed to load, an unknown address);
// - `shell`: what the console frame (navigation, header, alarm notifications, inbox bell, view host)
//   and the shared components every list screen uses (data table, filter bar, address texts) show;
// - one part per remaining prefix (the key's first segment: `alarm`, `transport`, `cockpit`, ...),
//   fetched with the screens that declare it (app/routes/screens.ts `withParts`).
// vite-locale-parts.ts splits the language files by these lists at build time; i18n.ts fetches the
// parts; locale-parts.test.ts walks the account screens, the console frame and each console screen
// and fails on a key outside the parts they get.

/** First segments of the first load's keys. */
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

/**
 * Prefixes of the console frame's keys and of the shared components' most screens use. An entry
 * with a dot takes only those keys of a larger prefix: the alarm notifications show any alarm's
 * type, the rest of `alarm` is the alarm screens'.
 */
export const SHELL_PREFIXES: readonly string[] = [
  'alarm.action',
  'alarm.notify',
  'alarm.type',
  'assignee',
  'filter',
  'forbidden',
  'geocode',
  'inbox',
  'map',
  // The sensors' names come from @iotc/shared/sensors (charts, columns), out of the test's walk.
  'sensor',
  'table',
  'theme',
];

/** The part a key is in: `account`, `shell`, or its prefix. */
export function partOf(key: string): string {
  const prefix = key.slice(0, key.indexOf('.'));
  if (ACCOUNT_PREFIXES.includes(prefix)) return 'account';
  if (SHELL_PREFIXES.some((p) => key.startsWith(`${p}.`))) return 'shell';
  return prefix;
}

/** Whether a message key is one of the first load's. */
export function isAccountKey(key: string): boolean {
  return partOf(key) === 'account';
}
