// Whether the signed-in user may open a console screen: a screen is open when an item of the
// user's menu (of the current scenario) leads to it; the landing screens are open to everyone.
// A screen of another scenario's menu (a bookmark, a shared link) opens in that scenario.
// The server checks every call as well; this keeps a typed-in address from showing a screen
// the user was never given.
import type { MenuItem } from '@iotc/shared/auth';
import type { ScenarioType } from '@iotc/shared/constants';
import { findTrail, menuLeaves } from '../../lib/menu.ts';
import { resolveScreen } from './screens.ts';

/**
 * Screens everyone may land on: the index, the home (no menu item leads to it), the default
 * landing after login, and the user's own inbox (the header's bell leads to it, not the menu).
 */
export const OPEN_SCREENS: ReadonlySet<string> = new Set(['home', 'home/home', 'deviceManage/realTimeMonitoring', 'inbox']);

/** The screen names the menu's items open, resolved as the view host resolves addresses. */
export function menuScreenNames(menu: MenuItem[]): Set<string> {
  const names = new Set<string>();
  for (const leaf of menuLeaves(menu)) {
    const segments = (leaf.url ?? '').split(/[?#]/)[0]!.split('/').filter(Boolean);
    if (segments[0] !== 'view') continue;
    const screen = resolveScreen(segments.slice(1));
    if (screen) names.add(screen.name);
  }
  return names;
}

/** true when the screen named `name` may be shown to a user whose menu is `menu`. */
export function canOpenScreen(name: string, menu: MenuItem[]): boolean {
  return OPEN_SCREENS.has(name) || menuScreenNames(menu).has(name);
}

/**
 * The scenario that owns a screen the current scenario's menu does not lead to, among the other
 * scenarios' menus (in the order given) that lead to it: the first with an item at this very
 * address, else the first; undefined when none leads to it.
 */
export function owningScenario(
  name: string,
  pathname: string,
  menus: readonly (readonly [ScenarioType, MenuItem[]])[],
): ScenarioType | undefined {
  const leading = menus.filter(([, menu]) => menuScreenNames(menu).has(name));
  return (leading.find(([, menu]) => findTrail(menu, pathname).length > 0) ?? leading[0])?.[0];
}
