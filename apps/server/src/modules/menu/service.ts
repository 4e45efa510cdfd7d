// Builds the user's menu tree: granted items plus the parents they need, names in the
// request's language. Management items (platformOnly) show to whoever's roles grant them.
import type { MenuItem, MyServices, ServiceKey } from '@iotc/shared/auth';
import type { Lang } from '@iotc/shared/i18n';
import { PLATFORM_ADMIN_SCREENS, SCREEN_PERMISSIONS } from '@iotc/shared/platform';
import type { Caller } from '../../lib/caller.ts';
import type { MenuRepo, MenuRow } from './repo.ts';

export function buildTree(rows: MenuRow[], visible: (r: MenuRow) => boolean, lang: Lang): MenuItem[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const keep = new Set<string>();
  for (const r of rows) {
    if (!visible(r)) continue;
    // A granted item brings its ancestors, or it would be unreachable in a three-level menu.
    for (let cur: MenuRow | undefined = r; cur && !keep.has(cur.id); cur = cur.pid ? byId.get(cur.pid) : undefined) {
      keep.add(cur.id);
    }
  }
  const items = new Map<string, MenuItem>();
  for (const r of rows) {
    if (!keep.has(r.id)) continue;
    items.set(r.id, {
      id: r.id,
      pid: r.pid,
      name: lang === 'zh' ? r.nameZh : r.nameEn,
      url: r.url,
      icon: r.icon,
      active: r.active,
      children: [],
    });
  }
  const roots: MenuItem[] = [];
  for (const item of items.values()) {
    const parent = item.pid ? items.get(item.pid) : undefined;
    if (parent) parent.children.push(item);
    else roots.push(item);
  }
  // A parent whose children were all filtered away is an empty folder: drop it.
  const prune = (list: MenuItem[]): MenuItem[] =>
    list.filter((m) => {
      m.children = prune(m.children);
      return m.url !== null || m.children.length > 0;
    });
  return prune(roots);
}

/**
 * Each scenario type opens at its real-time monitoring screen (spec section 2); the cold-chain
 * warehouse service opens warehouse operations in the device scenario.
 */
const SCENARIO_SERVICES: { key: ServiceKey; type: number }[] = [
  { key: 'transport', type: 101 },
  { key: 'device', type: 102 },
  { key: 'container', type: 103 },
  { key: 'vehicle', type: 104 },
];
const WAREHOUSE_URL = 'view/warehouse/manage';
const PLATFORM_URL = 'view/system/auditLogs';
const forAnyone = (r: MenuRow) => !r.url || !PLATFORM_ADMIN_SCREENS.has(r.url);
/** A screen needing an action the caller lacks is not shown (SCREEN_PERMISSIONS). */
const permitted = (caller: Caller) => (r: MenuRow) => {
  const needs = r.url ? SCREEN_PERMISSIONS[r.url] : undefined;
  return !needs || caller.isPlatformAdmin || caller.permissions.includes(needs);
};

export function menuService(repo: MenuRepo) {
  return {
    /** 'My Services': the scenarios in which the caller's roles open at least one screen. */
    async services(caller: Caller): Promise<MyServices> {
      const granted = caller.isPlatformAdmin ? null : await repo.grantedIds(caller.userId);
      const services: MyServices['services'] = [];
      const leavesOf = async (type: number) =>
        (await repo.ofType(type)).filter((r) => r.url && !r.platformOnly && (granted === null || granted.has(r.id)) && permitted(caller)(r));
      const byType = new Map<number, Awaited<ReturnType<typeof leavesOf>>>();
      for (const s of SCENARIO_SERVICES) byType.set(s.type, await leavesOf(s.type));
      if (byType.get(102)!.some((r) => r.url === WAREHOUSE_URL)) services.push({ key: 'warehouse', type: 102, url: WAREHOUSE_URL });
      for (const s of SCENARIO_SERVICES) {
        const leaves = byType.get(s.type)!;
        const landing = leaves.find((r) => r.url!.endsWith('deviceManage/realTimeMonitoring')) ?? leaves[0];
        if (landing) services.push({ key: s.key, type: s.type, url: landing.url! });
      }
      if (caller.isPlatformAdmin) return { services, platformManagement: { type: 102, url: PLATFORM_URL } };
      // Management screens granted by the user's roles open the platform-management entry at the first of them.
      const management = (await repo.ofType(102)).find((r) => r.url && r.platformOnly && forAnyone(r) && granted!.has(r.id));
      return { services, platformManagement: management ? { type: 102, url: management.url! } : null };
    },

    async load(caller: Caller, type: number, lang: Lang): Promise<MenuItem[]> {
      const rows = await repo.ofType(type);
      if (caller.isPlatformAdmin) return buildTree(rows, () => true, lang);
      const granted = await repo.grantedIds(caller.userId);
      return buildTree(rows, (r) => granted.has(r.id) && forAnyone(r) && permitted(caller)(r), lang);
    },
  };
}
export type MenuService = ReturnType<typeof menuService>;
