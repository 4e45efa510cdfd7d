import { describe, expect, it } from 'vitest';
import type { MenuItem } from '@iotc/shared/auth';
import { checkedLeaves, menuIdsOf, replaceTreeGrants, toMenuTreeData } from './menu-grants-model.ts';

const item = (id: string, children: MenuItem[] = []): MenuItem => ({
  id,
  pid: null,
  name: `name ${id}`,
  url: children.length ? null : `view/${id}`,
  icon: null,
  active: true,
  children,
});

const device = [item('102-monitor', [item('102-live'), item('102-alarm')]), item('102-platform', [item('102-orgs'), item('102-users')])];
const vehicle = [item('104-monitor', [item('104-live')])];

describe('menu grants of a role', () => {
  it('builds antd tree data with ids as keys', () => {
    expect(toMenuTreeData(device)[0]).toEqual({
      key: '102-monitor',
      title: 'name 102-monitor',
      children: [
        { key: '102-live', title: 'name 102-live' },
        { key: '102-alarm', title: 'name 102-alarm' },
      ],
    });
  });

  it('hands the tree only the granted leaves, so a stored folder does not check all its children', () => {
    expect(checkedLeaves(device, ['102-platform', '102-orgs', '102-live', '104-live'])).toEqual(['102-live', '102-orgs']);
  });

  it('replaces one tree part of the grants and keeps the other trees and unknown ids', () => {
    const current = ['102-live', '104-monitor', '104-live', 'legacy-item'];
    const next = replaceTreeGrants(current, device, ['102-platform', '102-orgs', '102-users', 'stray']);
    expect(next.sort()).toEqual(['102-orgs', '102-platform', '102-users', '104-live', '104-monitor', 'legacy-item']);
    expect(replaceTreeGrants(next, vehicle, []).sort()).toEqual(['102-orgs', '102-platform', '102-users', 'legacy-item']);
  });

  it('lists every id of a tree', () => {
    expect([...menuIdsOf(vehicle)]).toEqual(['104-monitor', '104-live']);
  });
});
