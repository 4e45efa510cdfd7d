import { describe, expect, it } from 'vitest';
import type { MenuItem } from '@iotc/shared/auth';
import { canOpenScreen, menuScreenNames, owningScenario } from './screen-access.ts';

const item = (id: string, url: string | null, children: MenuItem[] = []): MenuItem => ({
  id,
  pid: null,
  name: id,
  url,
  icon: null,
  active: true,
  children,
});

const operator = [
  item('monitor', null, [
    item('live', null, [item('live-device', 'view/scenario_transport/deviceManage/realTimeMonitoring')]),
  ]),
  item('platform', null, [item('users', 'view/system/users'), item('audit', '/view/system/auditLogs/')]),
];

describe('which screens a signed-in user may open', () => {
  it('opens the screens the menu leads to, whatever the url spelling or scenario prefix', () => {
    expect([...menuScreenNames(operator)].sort()).toEqual(['deviceManage/realTimeMonitoring', 'system/auditLogs', 'system/users']);
    expect(canOpenScreen('system/users', operator)).toBe(true);
    expect(canOpenScreen('system/auditLogs', operator)).toBe(true);
  });

  it('refuses a built screen the menu does not lead to', () => {
    expect(canOpenScreen('system/roles', operator)).toBe(false);
    expect(canOpenScreen('system/orgs', operator)).toBe(false);
    expect(canOpenScreen('system/users', [])).toBe(false);
  });

  it('keeps the index, the home and the default landing open to everyone, even with no menu', () => {
    expect(canOpenScreen('home', [])).toBe(true);
    expect(canOpenScreen('home/home', [])).toBe(true);
    expect(canOpenScreen('deviceManage/realTimeMonitoring', [])).toBe(true);
  });

  it('ignores folders, items outside /view and urls that name no screen', () => {
    const odd = [item('system', 'system/roles'), item('folder', null, [item('x', 'view/alarm/unbuilt')]), item('ext', 'https://example.com/view/system/orgs')];
    expect(menuScreenNames(odd).size).toBe(0);
    expect(canOpenScreen('system/roles', odd)).toBe(false);
  });

  it('matches a mock-mode alias in the menu to the screen it names', () => {
    expect(canOpenScreen('home', [item('h', 'view/Home')])).toBe(true);
    expect(menuScreenNames([item('h', 'view/Home')]).has('home')).toBe(true);
  });
});

describe('which scenario owns an address the current scenario refuses', () => {
  const transport = [item('tasks-group', null, [item('tasks', 'view/transport/tasks'), item('alarms', 'view/alarm/query')])];
  const vehicle = [item('vehicle-live', 'view/scenario_vehicle/deviceManage/realTimeMonitoring'), item('alarms', 'view/alarm/query')];
  const container = [item('container-tasks', 'view/Home'), item('tasks-elsewhere', 'view/transport/tasks/')];

  it("is the scenario whose menu has an item at the address, else the first leading to the screen", () => {
    expect(owningScenario('transport/tasks', '/view/transport/tasks', [[103, []], [101, transport]])).toBe(101);
    // Both lead to the alarm query; the order given decides.
    expect(owningScenario('alarm/query', '/view/alarm/query', [[101, transport], [104, vehicle]])).toBe(101);
    // An item at this very address wins over an earlier menu that reaches the screen otherwise.
    expect(owningScenario('home', '/view/Home', [[101, [item('h', 'view/home')]], [103, container]])).toBe(103);
    // A record of a screen (view/page/id) belongs to the screen's item.
    expect(owningScenario('transport/tasks', '/view/transport/tasks/42', [[104, vehicle], [101, transport]])).toBe(101);
  });

  it('is none when no menu leads to the screen', () => {
    expect(owningScenario('system/users', '/view/system/users', [[101, transport], [104, vehicle]])).toBeUndefined();
    expect(owningScenario('transport/tasks', '/view/transport/tasks', [])).toBeUndefined();
  });
});
