// The organisation filter of the lists that several features show (alarm levels and policies,
// push rules, the delivery log): a select of every organisation of the caller's tree (indented by
// depth), shown only when there is more than one to choose from. While the organisations are on
// their way it shows waiting: an organisation administrator mostly has several to choose from, and
// a field that came in later would push the list down under the user's eyes.
import { useMemo } from 'react';
import type { OrgNode } from '@iotc/shared/platform';
import { useOrgTree } from '../api/org-tree.ts';
import type { FilterItem, FilterOption } from './filter-bar.tsx';
import { usePermission } from '../lib/permissions.ts';

export function flattenOrgs(nodes: OrgNode[], depth = 0): FilterOption[] {
  // An ideographic space per level: the tree's shape in a flat list, and still searchable by name.
  return nodes.flatMap((n) => [{ value: n.id, label: `${'\u3000'.repeat(depth)}${n.name}` }, ...flattenOrgs(n.children, depth + 1)]);
}

export function useOrgFilter(label: string): FilterItem | null {
  const allowed = usePermission()('org:read');
  const { data, isPending } = useOrgTree(allowed);
  const waiting = allowed && isPending;
  return useMemo(() => {
    const field = { label, key: 'orgId', type: 'select', width: 220 } as const;
    if (waiting) return { ...field, options: [], loading: true };
    const options = flattenOrgs(data ?? []);
    return options.length > 1 ? { ...field, options } : null;
  }, [data, label, waiting]);
}
