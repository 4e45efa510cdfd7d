// The menu items a role grants, as one checkable tree per scenario type. A role stores the
// ids antd's Tree reports as checked (leaves and fully checked folders); shown again, only
// the leaves are handed back to the tree, which works out the folders itself, so a folder
// stored with part of its children cannot spread to all of them.
import type { MenuItem } from '@iotc/shared/auth';

export interface MenuTreeNode {
  key: string;
  title: string;
  children?: MenuTreeNode[];
}

export function toMenuTreeData(items: MenuItem[]): MenuTreeNode[] {
  return items.map((m) => ({
    key: m.id,
    title: m.name,
    ...(m.children?.length ? { children: toMenuTreeData(m.children) } : {}),
  }));
}

function walk(items: MenuItem[], visit: (m: MenuItem) => void): void {
  for (const m of items) {
    visit(m);
    walk(m.children ?? [], visit);
  }
}

export function menuIdsOf(items: MenuItem[]): Set<string> {
  const ids = new Set<string>();
  walk(items, (m) => ids.add(m.id));
  return ids;
}

/** The granted ids that are leaves of this tree: what its `checkedKeys` should be. */
export function checkedLeaves(items: MenuItem[], granted: Iterable<string>): string[] {
  const set = new Set(granted);
  const out: string[] = [];
  walk(items, (m) => {
    if (!m.children?.length && set.has(m.id)) out.push(m.id);
  });
  return out;
}

/** The grants with this tree's part replaced by what it now reports as checked. */
export function replaceTreeGrants(current: string[], items: MenuItem[], checked: string[]): string[] {
  const own = menuIdsOf(items);
  return [...current.filter((id) => !own.has(id)), ...checked.filter((id) => own.has(id))];
}
