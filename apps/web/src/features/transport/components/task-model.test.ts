import { describe, expect, it } from 'vitest';
import { taskBodySchema } from '@iotc/shared/transport';
import { formPath, newTaskValues, roadRoutePoints, schemaIssues, settingsBody, taskActions } from './task-model.ts';

describe('the transport task model', () => {
  it('offers only the moves a status allows, cancelling with a reason', () => {
    expect(taskActions('pending').map((a) => [a.to, a.asks])).toEqual([
      ['in_transit', 'confirm'],
      ['cancelled', 'reason'],
    ]);
    expect(taskActions('arrived').map((a) => a.name)).toEqual(['transport.task.action.resume', 'transport.task.action.complete', 'transport.task.action.cancel']);
    expect(taskActions('completed')).toEqual([]);
    expect(taskActions('cancelled')).toEqual([]);
  });

  it('sends a route as drawn when it has points and none without, and the stay timeout in seconds', () => {
    const v = newTaskValues();
    expect(settingsBody(v).routeSource).toBe('none');
    const drawn = settingsBody({ ...v, route: [[1, 2], [3, 4]], alarm: { ...v.alarm, stayTimeoutMin: 15 } });
    expect(drawn.routeSource).toBe('drawn');
    expect(drawn.alarm.stayTimeoutS).toBe(900);
    expect(settingsBody({ ...v, routeSource: 'routing', route: [[1, 2], [3, 4]] }).routeSource).toBe('routing');
  });

  it('asks a road route from the origin through the drawn points, at most 25 in all, to the destination', () => {
    expect(roadRoutePoints([1, 1], [], [2, 2])).toEqual([[1, 1], [2, 2]]);
    expect(roadRoutePoints([1, 1], [[1.5, 1.5]], [2, 2])).toEqual([[1, 1], [1.5, 1.5], [2, 2]]);
    const drawn = Array.from({ length: 100 }, (_, i): [number, number] => [i, i]);
    const points = roadRoutePoints([-1, -1], drawn, [200, 200]);
    expect(points).toHaveLength(25);
    expect(points.slice(0, 2)).toEqual([[-1, -1], [0, 0]]);
    expect(points.slice(-2)).toEqual([[99, 99], [200, 200]]);
  });

  it('puts schema failures on the form fields', () => {
    expect(formPath(['alarm', 'stayTimeoutS'])).toEqual(['alarm', 'stayTimeoutMin']);
    expect(formPath(['route', 3, 0])).toEqual(['route']);
    const parsed = taskBodySchema.safeParse({
      goodsName: 'x',
      deviceIds: [],
      origin: { name: 'a', lat: 1, lon: 1 },
      destination: { name: 'b', lat: 2, lon: 2 },
      plannedStart: '2026-01-02T00:00:00.000Z',
      plannedArrival: '2026-01-01T00:00:00.000Z',
      alarm: { door: true },
    });
    expect(parsed.success).toBe(false);
    const issues = schemaIssues(parsed.error!);
    expect(issues).toEqual(
      expect.arrayContaining([
        { name: ['deviceIds'], code: 'TASK_DEVICES_REQUIRED' },
        { name: ['plannedArrival'], code: 'TASK_ARRIVAL_BEFORE_START' },
        { name: ['alarm', 'levelId'], code: 'ALARM_LEVEL_REQUIRED' },
      ]),
    );
  });
});
