import { describe, expect, it, vi } from 'vitest';
import type { BoundAsset, DeviceState, MapPoint } from '@iotc/shared/live';
import { detailCurveOption, niceAxis, pickCurve, presentCurves } from './detail-curve.ts';
import {
  assetKindOf,
  isAlarming,
  isOutOfLimits,
  StateBuffer,
  limitsOf,
  matchesFilter,
  mergePoints,
  mergeRows,
  parseStatus,
  rangeText,
  toMonitorRow,
} from './monitor-model.ts';

const COLD: BoundAsset = { id: 'a1', kind: 'vehicle', code: '沪A12345', name: 'Reefer', tempMin: 2, tempMax: 8, humidityMin: null, humidityMax: 80 };

function state(id: string, over: Partial<DeviceState> = {}): DeviceState {
  return {
    id,
    deviceId: `8600000000${id}`,
    name: `Truck ${id}`,
    orgId: 'o',
    orgName: 'Org',
    status: 'driving',
    time: '2026-03-01T04:05:06Z',
    lastSeenAt: '2026-03-01T04:05:07Z',
    lat: 31,
    lon: 121,
    positioning: 'GPS',
    network: '4G',
    speed: 42.25,
    course: 90,
    acc: true,
    sensors: { temperature: 5, humidity: 60.04, battery: 85.6, door: 'closed', light: 12, vibration: 0.1234 },
    asset: COLD,
    ...over,
  };
}

function point(s: DeviceState): MapPoint {
  return { id: s.id, deviceId: s.deviceId, name: s.name, status: s.status, lat: s.lat!, lon: s.lon! };
}

const batchOf = (...states: DeviceState[]) => new Map(states.map((s) => [s.id, s]));

describe('scenario and address', () => {
  it('vehicle and container scenarios show their kind only, transport both, device all', () => {
    expect(assetKindOf(104)).toBe('vehicle');
    expect(assetKindOf(103)).toBe('container');
    expect(assetKindOf(101)).toBe('vehicle,container');
    expect(assetKindOf(102)).toBeUndefined();
    expect(assetKindOf(undefined)).toBeUndefined();
  });

  it('reads the status tab from the address', () => {
    expect(parseStatus('parked')).toBe('parked');
    expect(parseStatus('all')).toBeUndefined();
    expect(parseStatus('__proto__')).toBeUndefined();
    expect(parseStatus(null)).toBeUndefined();
  });
});

describe('limits', () => {
  it('takes the asset range of temperature and humidity only', () => {
    expect(limitsOf('temperature', COLD)).toEqual({ min: 2, max: 8 });
    expect(limitsOf('humidity', COLD)).toEqual({ min: null, max: 80 });
    expect(limitsOf('light', COLD)).toBeNull();
    expect(limitsOf('temperature', null)).toBeNull();
    expect(limitsOf('temperature', { ...COLD, tempMin: null, tempMax: null })).toBeNull();
  });

  it('is out of range strictly outside the bounds', () => {
    const l = { min: 2, max: 8 };
    expect(isOutOfLimits(8.1, l)).toBe(true);
    expect(isOutOfLimits(1.9, l)).toBe(true);
    expect(isOutOfLimits(8, l)).toBe(false);
    expect(isOutOfLimits(2, l)).toBe(false);
    expect(isOutOfLimits(null, l)).toBe(false);
    expect(isOutOfLimits(100, null)).toBe(false);
    expect(isOutOfLimits(100, { min: null, max: 80 })).toBe(true);
    expect(isOutOfLimits(-100, { min: null, max: 80 })).toBe(false);
  });

  it('alarms on out-of-range readings and a battery below 20 percent', () => {
    expect(isAlarming('temperature', 9, COLD)).toBe(true);
    expect(isAlarming('temperature', 5, COLD)).toBe(false);
    expect(isAlarming('battery', 19.9, null)).toBe(true);
    expect(isAlarming('battery', 20, null)).toBe(false);
    expect(isAlarming('light', 99999, COLD)).toBe(false);
  });

  it('writes a range with open sides as a dash', () => {
    expect(rangeText({ min: 2, max: 8 })).toBe('2 ~ 8');
    expect(rangeText({ min: null, max: 80 })).toBe('- ~ 80');
    expect(rangeText(null)).toBeNull();
  });
});

describe('table rows', () => {
  it('flattens a state with its readings at their precision and the asset limits', () => {
    const row = toMonitorRow(state('1'));
    expect(row).toMatchObject({
      id: '1',
      asset: '沪A12345 Reefer',
      status: 'driving',
      speed: '42.3',
      temperature: '5.0',
      tempMin: 2,
      tempMax: 8,
      tempRange: '2 ~ 8',
      humidity: '60.0',
      humidityMax: 80,
      battery: 85.6,
      door: 'closed',
      light: '12',
      vibration: '0.12',
      pressure: null,
    });
    expect(row.lastSeenAt).toMatch(/^2026-03-01 \d\d:05:07$/);
    expect(toMonitorRow(state('2', { asset: null, sensors: {} }))).toMatchObject({ asset: null, temperature: null, tempMin: null, battery: null, door: null });
  });

  it('puts a batch into the page by id and keeps order and unrelated rows', () => {
    const rows = [state('1'), state('2'), state('3')];
    const moved = state('2', { status: 'offline', speed: 0 });
    const merged = mergeRows(rows, batchOf(moved, state('9')));
    expect(merged.map((r) => r.id)).toEqual(['1', '2', '3']);
    expect(merged[1]).toBe(moved);
    expect(merged[0]).toBe(rows[0]);
    // A batch that touches no row answers the same page, so nothing re-renders.
    expect(mergeRows(rows, batchOf(state('9')))).toBe(rows);
  });
});

describe('map points', () => {
  const a = state('a');
  const b = state('b', { status: 'parked', lat: 39.9, lon: 116.4 });

  it('moves and recolours known devices and adds new positioned ones', () => {
    const points = [point(a), point(b)];
    const next = mergePoints(points, batchOf(state('a', { lat: 31.5, status: 'parked' }), state('c', { lat: 23, lon: 113 })), {});
    expect(next.map((p) => [p.id, p.status, p.lat])).toEqual([
      ['a', 'parked', 31.5],
      ['b', 'parked', 39.9],
      ['c', 'driving', 23],
    ]);
    expect(next[1]).toBe(points[1]);
  });

  it('answers the same list when nothing visible changed', () => {
    const points = [point(a), point(b)];
    expect(mergePoints(points, batchOf(state('a', { speed: 80, sensors: { temperature: 1 } })), {})).toBe(points);
    expect(mergePoints(points, new Map(), {})).toBe(points);
    // A device without a position is not drawn.
    expect(mergePoints(points, batchOf(state('z', { lat: null, lon: null })), {})).toBe(points);
  });

  it('keeps a device where it was when a report has no position', () => {
    const next = mergePoints([point(a)], batchOf(state('a', { lat: null, lon: null, status: 'offline' })), {});
    expect(next).toEqual([{ ...point(a), status: 'offline' }]);
  });

  it('follows the filters: a device leaving the status tab leaves the map unless selected', () => {
    const points = [point(a), point(b)];
    const parkedNow = state('a', { status: 'parked' });
    expect(mergePoints(points, batchOf(parkedNow), { status: 'driving' }).map((p) => p.id)).toEqual(['b']);
    expect(mergePoints(points, batchOf(parkedNow), { status: 'driving' }, 'a').map((p) => p.id)).toEqual(['a', 'b']);
    // New devices join only when they match.
    expect(mergePoints([], batchOf(state('n', { status: 'parked' })), { status: 'driving' })).toEqual([]);
    expect(mergePoints([], batchOf(state('n')), { keyword: 'a123' }).map((p) => p.id)).toEqual(['n']);
    expect(mergePoints([], batchOf(state('n')), { assetKind: 'container' })).toEqual([]);
  });

  it('matches the keyword against device id, name and asset code, ignoring case', () => {
    expect(matchesFilter(state('1'), { keyword: 'truck' })).toBe(true);
    expect(matchesFilter(state('1'), { keyword: '86000' })).toBe(true);
    expect(matchesFilter(state('1'), { keyword: '沪a' })).toBe(true);
    expect(matchesFilter(state('1'), { keyword: 'nothing' })).toBe(false);
    expect(matchesFilter(state('1', { asset: null }), { assetKind: 'vehicle' })).toBe(false);
  });
});

describe('StateBuffer', () => {
  it('keeps the newest state per device and hands a batch to every listener on flush', () => {
    const buffer = new StateBuffer();
    const one = vi.fn();
    const two = vi.fn();
    const off = buffer.subscribe(one);
    buffer.subscribe(two);
    buffer.push([state('a', { speed: 1 }), state('b')]);
    buffer.push([state('a', { speed: 2 })]);
    expect(buffer.size).toBe(2);
    buffer.flush();
    const batch = one.mock.calls[0]![0] as Map<string, DeviceState>;
    expect([...batch.keys()]).toEqual(['a', 'b']);
    expect(batch.get('a')!.speed).toBe(2);
    expect(two).toHaveBeenCalledWith(batch);
    // Nothing new: no call.
    buffer.flush();
    expect(one).toHaveBeenCalledTimes(1);
    off();
    buffer.push([state('c')]);
    buffer.flush();
    expect(one).toHaveBeenCalledTimes(1);
    expect(two).toHaveBeenCalledTimes(2);
  });
});

describe('detail curve', () => {
  const series = {
    times: ['2026-03-01T00:00:00Z', '2026-03-01T01:00:00Z'],
    values: { temperature: [5, 9], humidity: [null, null], door: [0, 1], speed: [10, 0] },
    total: 2,
  };

  it('offers the curves with values, temperature first', () => {
    const present = presentCurves(series);
    expect(present.map((f) => f.key)).toEqual(['temperature', 'speed', 'door']);
    expect(pickCurve(present, undefined)!.key).toBe('temperature');
    expect(pickCurve(present, 'door')!.key).toBe('door');
    expect(pickCurve(present, 'humidity')!.key).toBe('temperature');
  });

  it('draws the limits as lines and keeps them on the axis', () => {
    const field = presentCurves(series)[0]!;
    const option = detailCurveOption({
      field,
      series,
      limits: { min: 2, max: 8 },
      from: 0,
      to: 1,
      texts: { name: 'Temperature', upper: 'Upper limit', lower: 'Lower limit', doorOpen: 'Open', doorClosed: 'Closed' },
    });
    const line = (option.series as { markLine?: { data: { yAxis: number }[] }; data: unknown[] }[])[0]!;
    expect(line.markLine!.data.map((d) => d.yAxis)).toEqual([8, 2]);
    expect(line.data).toEqual([
      [Date.parse(series.times[0]!), 5],
      [Date.parse(series.times[1]!), 9],
    ]);
    const y = option.yAxis as { min: number; max: number };
    expect(y.min).toBeLessThanOrEqual(2);
    expect(y.max).toBeGreaterThanOrEqual(9);
  });

  it('puts the axis on round ticks with room at both ends', () => {
    expect(niceAxis(-25, -12.4)).toEqual({ min: -30, max: -5, interval: 5 });
    expect(niceAxis(2, 9)).toEqual({ min: 0, max: 12, interval: 2 });
    expect(niceAxis(0.1, 0.4)).toEqual({ min: 0, max: 0.5, interval: 0.1 });
  });
});
