import { describe, expect, it } from 'vitest';
import { mapOption, PALETTES } from './cockpit-charts.ts';

type Formatter = (p: { seriesType: string; name: string; data?: { code?: string; name?: string } }) => string;

describe('the cockpit map tooltip', () => {
  const texts = { warehouses: 'Warehouses', vehicles: 'Vehicles', coldRooms: 'Cold rooms' };
  const vehicle = { id: 'd1', deviceId: 'D1', code: '<img src=x id=pwn1>', name: '<b id=pwn2>bold</b>', status: 'driving' as const, lat: 31.2, lon: 121.5, time: null };
  const tooltip = mapOption([], [vehicle], PALETTES['default-theme'], 100, texts).tooltip as { formatter: Formatter };

  it("shows a vehicle's code and name as text", () => {
    const html = tooltip.formatter({ seriesType: 'scatter', name: vehicle.name, data: { code: vehicle.code, name: vehicle.name } });
    expect(html).toBe('&lt;img src=x id=pwn1&gt; &lt;b id=pwn2&gt;bold&lt;/b&gt;');
  });

  it('names a province in the language, with its counts', () => {
    const rows = [{ key: '310000', name: 'Shanghai', warehouses: 2, coldRooms: 3, vehicles: 1 }];
    const t = mapOption(rows, [], PALETTES['default-theme'], 100, texts, { 上海: 'Shanghai' });
    expect((t.tooltip as { formatter: Formatter }).formatter({ seriesType: 'map', name: '上海' })).toBe('Shanghai<br/>Warehouses: 2<br/>Cold rooms: 3<br/>Vehicles: 1');
    expect((t.series as { data: unknown }[])[0]!.data).toEqual([{ name: '上海', value: 2 }]);
    const label = (t.geo as { emphasis: { label: { formatter: (p: { name: string }) => string } } }).emphasis.label;
    expect(label.formatter({ name: '上海' })).toBe('Shanghai');
  });

  it('keeps its own line breaks in a province tooltip', () => {
    expect(tooltip.formatter({ seriesType: 'map', name: '上海<i>' })).toBe('上海&lt;i&gt;<br/>Warehouses: 0<br/>Cold rooms: 0<br/>Vehicles: 0');
  });
});
