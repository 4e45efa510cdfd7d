import { describe, expect, it } from 'vitest';
import type { MenuItem } from '@iotc/shared/auth';
import { findTrail, menuHref, menuLeaves } from './menu.ts';

const item = (id: string, pid: string | null, url: string | null, children: MenuItem[] = []): MenuItem => ({
  id,
  pid,
  name: id,
  url,
  icon: null,
  active: true,
  children,
});

const tree = [
  item('m', null, null, [
    item('m-a', 'm', null, [item('m-a-1', 'm-a', 'view/alarm/query'), item('m-a-2', 'm-a', 'view/alarm/levels')]),
  ]),
  item('r', null, null, [item('r-1', 'r', 'view/report/temperature')]),
];

describe('menu helpers', () => {
  it('a leaf opens its url with its pid in the query', () => {
    expect(menuHref({ url: 'view/alarm/query', pid: 'm-a' })).toBe('/view/alarm/query?pid=m-a');
    expect(menuHref({ url: '/view/x/', pid: null })).toBe('/view/x');
  });

  it('lists leaves depth first', () => {
    expect(menuLeaves(tree).map((m) => m.id)).toEqual(['m-a-1', 'm-a-2', 'r-1']);
  });

  it('finds the trail of an address, also below a screen (with an id)', () => {
    expect(findTrail(tree, '/view/alarm/levels').map((m) => m.id)).toEqual(['m', 'm-a', 'm-a-2']);
    expect(findTrail(tree, '/view/report/temperature/42').map((m) => m.id)).toEqual(['r', 'r-1']);
    expect(findTrail(tree, '/view/alarm/queryX')).toEqual([]);
  });
});
