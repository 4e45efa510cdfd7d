import { describe, expect, it } from 'vitest';
import { resolveScreen, SCREENS } from './screens.ts';

describe('view host name resolution', () => {
  it('opens a screen by its view/page name', () => {
    expect(resolveScreen(['deviceManage', 'realTimeMonitoring'])).toMatchObject({ name: 'deviceManage/realTimeMonitoring' });
  });

  it('drops a scenario prefix and reports the scenario type', () => {
    expect(resolveScreen(['scenario_transport', 'deviceManage', 'realTimeMonitoring'])).toMatchObject({
      name: 'deviceManage/realTimeMonitoring',
      scenarioType: 101,
    });
    expect(resolveScreen(['scenario_vehicle', 'deviceManage', 'realTimeMonitoring'])?.scenarioType).toBe(104);
    expect(resolveScreen(['scenario_container', 'deviceManage', 'realTimeMonitoring'])?.scenarioType).toBe(103);
  });

  it('hands a third segment to the screen as its id', () => {
    expect(resolveScreen(['deviceManage', 'realTimeMonitoring', 'dev-7'])).toMatchObject({
      name: 'deviceManage/realTimeMonitoring',
      id: 'dev-7',
    });
  });

  it('maps the mock-mode path Home to the index screen', () => {
    expect(resolveScreen(['Home'])?.importer).toBe(SCREENS.home);
  });

  it('knows nothing of unbuilt names or prototype keys', () => {
    expect(resolveScreen(['alarm', 'nothing'])).toBeUndefined();
    expect(resolveScreen(['constructor'])).toBeUndefined();
    expect(resolveScreen(['__proto__', 'toString'])).toBeUndefined();
    expect(resolveScreen([])).toBeUndefined();
    expect(resolveScreen(['a', 'b', 'c', 'd'])).toBeUndefined();
  });
});
