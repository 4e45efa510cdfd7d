// Pure walks over the organisation tree of GET /orgs/tree: searching it, finding a node, the
// ancestors of a node, the roles a user may hold.
import type { OrgNode } from '@iotc/shared/platform';

export function findOrg(nodes: OrgNode[], id: string | null | undefined): OrgNode | undefined {
  if (!id) return undefined;
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findOrg(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/** The ids from the root down to `id` itself, or [] when the tree does not hold it. */
export function orgPath(nodes: OrgNode[], id: string): string[] {
  for (const node of nodes) {
    if (node.id === id) return [node.id];
    const below = orgPath(node.children, id);
    if (below.length) return [node.id, ...below];
  }
  return [];
}

/** Every id of the tree, depth first. */
function matches(node: OrgNode, needle: string): boolean {
  return node.name.toLowerCase().includes(needle) || node.code.toLowerCase().includes(needle);
}

export interface FilteredTree {
  nodes: OrgNode[];
  /** Ids to expand so every match shows: the ancestors of each match. */
  expanded: string[];
  /** Ids whose name or code holds the keyword. */
  matched: Set<string>;
}

/**
 * The tree narrowed to the organisations whose name or code holds `keyword` (case-insensitive),
 * with the path to each; a match keeps its whole subtree, so its children stay reachable.
 * A blank keyword keeps everything and expands nothing.
 */
export function filterOrgTree(nodes: OrgNode[], keyword: string): FilteredTree {
  const needle = keyword.trim().toLowerCase();
  const matched = new Set<string>();
  const expanded: string[] = [];
  if (!needle) return { nodes, expanded, matched };
  const walk = (list: OrgNode[]): OrgNode[] =>
    list.flatMap((node) => {
      const children = walk(node.children);
      if (matches(node, needle)) {
        matched.add(node.id);
        if (children.length) expanded.push(node.id);
        // The matching node keeps every child; the filtered ones only decide what opens.
        return [node];
      }
      if (children.length) {
        expanded.push(node.id);
        return [{ ...node, children }];
      }
      return [];
    });
  return { nodes: walk(nodes), expanded, matched };
}

/**
 * The roles a user of organisation `orgId` may hold: those of the organisation itself and of
 * its ancestors. Without the tree (not loaded yet) only the organisation's own roles count.
 */
export function assignableRoles<R extends { orgId: string }>(roles: R[], tree: OrgNode[] | undefined, orgId: string | undefined): R[] {
  if (!orgId) return [];
  const path = tree ? orgPath(tree, orgId) : [];
  const allowed = new Set(path.length ? path : [orgId]);
  return roles.filter((r) => allowed.has(r.orgId));
}

/**
 * A list's filters with the tree's organisation set (or cleared): it rides along with the
 * filter bar's values and survives the bar's Reset.
 */
export function withOrgFilter<F extends Record<string, string>>(filters: F, orgId: string | undefined): Record<string, string> {
  const { orgId: _previous, ...rest } = filters;
  return orgId ? { ...rest, orgId } : rest;
}
