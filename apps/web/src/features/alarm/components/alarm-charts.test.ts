import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import type { AlarmStats, AlarmType } from '@iotc/shared/alarm';
import { MINOR, URGENT } from '../alarm-fixtures.ts';
import { statsBucket } from '../api/alarm-stats.ts';
import { bucketAxis, byLevelOption, byTypeOption, overTimeOption } from './alarm-charts.ts';

const local = (text: string) => dayjs(text).format('YYYY-MM-DDTHH:mm:ss');

const STATS: AlarmStats = {
  byType: [
    { type: 'temp_high', count: 3 },
    { type: 'offline', count: 1 },
  ],
  byLevel: [
    { levelId: URGENT.id, code: 'urgent', nameZh: '紧急', nameEn: 'Urgent', color: URGENT.color, count: 3 },
    { levelId: MINOR.id, code: 'minor', nameZh: '次要', nameEn: 'Minor', color: MINOR.color, count: 1 },
  ],
  overTime: [
    { bucket: local('2026-03-01T01:00:00'), levelId: MINOR.id, count: 1 },
    { bucket: local('2026-03-01T01:00:00'), levelId: URGENT.id, count: 2 },
    { bucket: local('2026-03-01T03:00:00'), levelId: URGENT.id, count: 1 },
  ],
};

describe('alarm statistics', () => {
  it('counts per hour up to two days, else per day', () => {
    const from = '2026-03-01T00:00:00.000Z';
    expect(statsBucket(from, '2026-03-03T00:00:00.000Z')).toBe('hour');
    expect(statsBucket(from, '2026-03-03T00:00:01.000Z')).toBe('day');
    expect(statsBucket(undefined, undefined)).toBe('day');
  });

  it('lists every bucket of the window, quiet ones too', () => {
    const from = dayjs('2026-03-01T00:30:00').toISOString();
    const to = dayjs('2026-03-01T04:00:00').toISOString();
    expect(bucketAxis(from, to, 'hour', [])).toEqual(['00', '01', '02', '03'].map((h) => local(`2026-03-01T${h}:00:00`)));
    expect(bucketAxis(undefined, undefined, 'day', ['b', 'a'])).toEqual(['a', 'b']);
  });

  it('stacks the alarms over time per level in the level colours, most important first', () => {
    const from = dayjs('2026-03-01T00:00:00').toISOString();
    const to = dayjs('2026-03-01T04:00:00').toISOString();
    const option = overTimeOption(STATS, [URGENT, MINOR], { from, to, bucket: 'hour' }, 'en');
    const series = option.series as { name: string; stack: string; data: number[]; itemStyle: { color: string } }[];
    expect(series.map((s) => [s.name, s.stack, s.itemStyle.color])).toEqual([
      ['Urgent', 'alarms', URGENT.color],
      ['Minor', 'alarms', MINOR.color],
    ]);
    expect(series[0]!.data).toEqual([0, 2, 0, 1]);
    expect(series[1]!.data).toEqual([0, 1, 0, 0]);
    expect((option.xAxis as { data: string[] }).data).toEqual(['03-01 00:00', '03-01 01:00', '03-01 02:00', '03-01 03:00']);
  });

  it('breaks the type labels that would run into each other onto lines, and slants more than four', () => {
    const three: AlarmStats = { ...STATS, byType: [{ type: 'temp_high', count: 18 }, { type: 'door_abnormal', count: 12 }, { type: 'overspeed', count: 11 }] };
    const label = (names: Record<string, string>, stats: AlarmStats) => (byTypeOption(stats, (t) => names[t]!, 'Alarms').xAxis as { axisLabel: Record<string, unknown> }).axisLabel;
    const en: Record<string, string> = { temp_high: 'Temperature high', door_abnormal: 'Abnormal door opening', overspeed: 'Terminal overspeed', offline: 'Offline', humidity_low: 'Humidity low' };
    const zh: Record<string, string> = { temp_high: '温度过高', door_abnormal: '异常开门', overspeed: '超速报警', offline: '离线', humidity_low: '湿度过低' };
    expect(label(en, three)).toEqual({ interval: 0, width: 93, overflow: 'break' });
    expect(label(zh, three)).toEqual({ interval: 0 });
    // Two English types fit side by side (the screen as the demo first shows it).
    expect(label(en, STATS)).toEqual({ interval: 0 });
    const five: AlarmStats = { ...STATS, byType: ['temp_high', 'door_abnormal', 'overspeed', 'offline', 'humidity_low'].map((type) => ({ type: type as AlarmType, count: 1 })) };
    expect(label(zh, five)).toEqual({ interval: 0, rotate: 30 });
  });

  it('draws the levels in their colours and names of the language', () => {
    const pie = (byLevelOption(STATS, 'zh').series as { data: { name: string; value: number; itemStyle: { color: string } }[] }[])[0]!;
    expect(pie.data).toEqual([
      { name: '紧急', value: 3, itemStyle: { color: URGENT.color } },
      { name: '次要', value: 1, itemStyle: { color: MINOR.color } },
    ]);
  });
});
