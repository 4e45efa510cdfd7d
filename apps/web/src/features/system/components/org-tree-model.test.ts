import { describe, expect, it } from 'vitest';
import type { OrgNode } from '@iotc/shared/platform';
import { allOrgIds, toOrgSelectData } from '../../../components/org-select.tsx';
import { assignableRoles, filterOrgTree, findOrg, orgPath, withOrgFilter } from './org-tree-model.ts';

const org = (id: string, name: string, code: string, children: OrgNode[] = [], status: OrgNode['status'] = 'active'): OrgNode => ({
  id,
  parentId: null,
  code,
  name,
  kind: 'tenant',
  status,
  userCount: 0,
  createdAt: '2026-01-01T00:00:00Z',
  children,
});

const tree = [
  org('p', 'IoT Cloud Platform', 'platform', [
    org('a', 'Acme Cold Chain', 'acme', [org('a1', 'Acme North Depot', 'acme-north'), org('a2', 'Acme South', 'acme-south', [], 'disabled')]),
    org('b', '华东物流', 'east', [org('b1', '上海仓库', 'sh-depot')]),
  ]),
];

const ids = (nodes: OrgNode[]): string[] => nodes.flatMap((n) => [n.id, ...ids(n.children)]);

describe('organisation tree search', () => {
  it('a blank keyword keeps the whole tree and opens nothing', () => {
    const r = filterOrgTree(tree, '  ');
    expect(r.nodes).toBe(tree);
    expect(r.expanded).toEqual([]);
    expect(r.matched.size).toBe(0);
  });

  it('keeps the path to a match and opens it; siblings off the path go', () => {
    const r = filterOrgTree(tree, 'north');
    expect(ids(r.nodes)).toEqual(['p', 'a', 'a1']);
    expect(new Set(r.expanded)).toEqual(new Set(['p', 'a']));
    expect([...r.matched]).toEqual(['a1']);
  });

  it('matches name or code, case-insensitively, in Chinese too', () => {
    expect(ids(filterOrgTree(tree, 'SH-DEPOT').nodes)).toEqual(['p', 'b', 'b1']);
    expect(ids(filterOrgTree(tree, '上海').nodes)).toEqual(['p', 'b', 'b1']);
  });

  it('a matching organisation keeps all its children', () => {
    const r = filterOrgTree(tree, 'acme cold');
    expect(ids(r.nodes)).toEqual(['p', 'a', 'a1', 'a2']);
    expect([...r.matched]).toEqual(['a']);
  });

  it('no match gives an empty tree and leaves the input tree untouched', () => {
    const before = JSON.stringify(tree);
    expect(filterOrgTree(tree, 'nothing-like-this').nodes).toEqual([]);
    expect(JSON.stringify(tree)).toBe(before);
  });
});

describe('organisation tree walks', () => {
  it('finds a node, its path from the root and every id', () => {
    expect(findOrg(tree, 'b1')?.name).toBe('上海仓库');
    expect(findOrg(tree, 'zz')).toBeUndefined();
    expect(findOrg(tree, undefined)).toBeUndefined();
    expect(orgPath(tree, 'a2')).toEqual(['p', 'a', 'a2']);
    expect(orgPath(tree, 'zz')).toEqual([]);
    expect(allOrgIds(tree)).toEqual(['p', 'a', 'a1', 'a2', 'b', 'b1']);
  });

  it('offers deactivated organisations in a select, but not for choosing', () => {
    const data = toOrgSelectData(tree);
    expect(data[0]!.children[0]!.children.map((o) => [o.value, o.disabled])).toEqual([
      ['a1', false],
      ['a2', true],
    ]);
  });

  it('a user may hold roles of the organisation and its ancestors, not of siblings or children', () => {
    const roles = [
      { id: 'r-p', orgId: 'p' },
      { id: 'r-a', orgId: 'a' },
      { id: 'r-a1', orgId: 'a1' },
      { id: 'r-b', orgId: 'b' },
    ];
    expect(assignableRoles(roles, tree, 'a').map((r) => r.id)).toEqual(['r-p', 'r-a']);
    expect(assignableRoles(roles, tree, 'a1').map((r) => r.id)).toEqual(['r-p', 'r-a', 'r-a1']);
    expect(assignableRoles(roles, tree, undefined)).toEqual([]);
    // Before the tree has loaded: the organisation's own roles only.
    expect(assignableRoles(roles, undefined, 'b').map((r) => r.id)).toEqual(['r-b']);
  });

  it('the tree selection rides along with the other list filters', () => {
    expect(withOrgFilter({ keyword: 'x', orgId: 'a' }, 'b')).toEqual({ keyword: 'x', orgId: 'b' });
    expect(withOrgFilter({ keyword: 'x', orgId: 'a' }, undefined)).toEqual({ keyword: 'x' });
    expect(withOrgFilter({}, 'a')).toEqual({ orgId: 'a' });
  });
});
