// Walking the menu tree of loadMenu: which item belongs to an address, its trail of
// ancestors, and how a leaf opens (spec section 2, left navigation).
import type { MenuItem } from '@iotc/shared/auth';
import { setRouterItem } from './session.ts';

function normalise(path: string): string {
  return path.replace(/^\/+/, '').replace(/\/+$/, '');
}

/** The address a leaf opens: its url with the item's pid as a query value. */
export function menuHref(item: Pick<MenuItem, 'url' | 'pid'>): string {
  const path = `/${normalise(item.url ?? '')}`;
  return item.pid ? `${path}?pid=${encodeURIComponent(item.pid)}` : path;
}

/** Remembers the item as the last opened one (`router`) and goes to its address. */
export function openMenuItem(item: MenuItem, navigate: (to: string) => void): void {
  setRouterItem(item);
  navigate(menuHref(item));
}

/** Every item that has an address, depth first. */
export function menuLeaves(items: MenuItem[]): MenuItem[] {
  return items.flatMap((item) => (item.url ? [item] : []).concat(menuLeaves(item.children ?? [])));
}

function trails(items: MenuItem[], parents: MenuItem[] = []): MenuItem[][] {
  return items.flatMap((item) => {
    const trail = [...parents, item];
    return (item.url ? [trail] : []).concat(trails(item.children ?? [], trail));
  });
}

/**
 * The trail (root first) of the item whose url is the longest match of `pathname`; among
 * items sharing a url, the one named by `preferId` (the pid query or the stored item) wins.
 */
export function findTrail(items: MenuItem[], pathname: string, preferIds: (string | null | undefined)[] = []): MenuItem[] {
  const path = normalise(pathname);
  let best: MenuItem[] = [];
  let bestLength = -1;
  let bestPreferred = false;
  for (const trail of trails(items)) {
    const leaf = trail[trail.length - 1];
    const url = normalise(leaf?.url ?? '');
    if (!url || !(path === url || path.startsWith(`${url}/`))) continue;
    const preferred = preferIds.some((id) => id && (id === leaf?.id || id === leaf?.pid));
    if (url.length > bestLength || (url.length === bestLength && preferred && !bestPreferred)) {
      best = trail;
      bestLength = url.length;
      bestPreferred = preferred;
    }
  }
  return best;
}
