// Grouping the stock lines for the tree table, and the province bars.
import { describe, expect, it } from 'vitest';
import type { StockRow } from '@iotc/shared/warehouse';
import { provinceChart, stockTree } from './stock-model.ts';

const line = (over: Partial<StockRow>): StockRow => ({
  warehouseId: 'w1',
  warehouseCode: 'WH-1',
  warehouseName: 'Shanghai',
  roomId: 'r1',
  roomCode: 'WH-1-F',
  roomName: 'Frozen',
  province: '上海',
  goodsName: 'Dumplings',
  batchNo: 'B1',
  unit: 'cases',
  inQuantity: 100,
  outQuantity: 30.5,
  quantity: 69.5,
  lastMovementAt: '2026-11-24T02:00:00.000Z',
  ...over,
});

describe('stockTree', () => {
  it('groups warehouse → room (the floor named) → goods, counting lines and keeping the last movement', () => {
    const tree = stockTree(
      [
        line({}),
        line({ batchNo: 'B2', quantity: 5, lastMovementAt: '2026-11-24T05:00:00.000Z' }),
        line({ roomId: null, roomCode: null, roomName: null, goodsName: 'Ice packs', unit: '' }),
        line({ warehouseId: 'w2', warehouseCode: 'WH-2', warehouseName: 'Guangzhou', roomId: 'r9', roomName: 'Chilled', roomCode: 'WH-2-C' }),
      ],
      'Floor',
    );
    expect(tree.map((w) => [w.name, w.lines])).toEqual([
      ['Shanghai (WH-1)', 3],
      ['Guangzhou (WH-2)', 1],
    ]);
    const [frozen, floor] = tree[0]!.children!;
    expect(frozen!.name).toBe('Frozen (WH-1-F)');
    expect(frozen!.children!.map((g) => [g.batchNo, g.quantity])).toEqual([
      ['B1', '69.5 cases'],
      ['B2', '5 cases'],
    ]);
    expect(floor!.name).toBe('Floor');
    expect(floor!.children![0]!.quantity).toBe('69.5');
    expect(frozen!.lastMovementAt > floor!.lastMovementAt).toBe(true);
  });
});

describe('provinceChart', () => {
  it('draws warehouses and stock per province named in the language, a missing province named', () => {
    const rows = [
      { province: '310000', code: '310000', warehouses: 2, quantity: 120 },
      { province: 'Atlantis', code: null, warehouses: 1, quantity: 0 },
      { province: '', code: null, warehouses: 1, quantity: 0 },
    ];
    const words = { warehouses: 'Warehouses', stock: 'Stock', noProvince: 'None' };
    const option = provinceChart(rows, words, 'en');
    expect((option.xAxis as { data: string[] }).data).toEqual(['Shanghai', 'Atlantis', 'None']);
    expect((provinceChart(rows, words, 'zh').xAxis as { data: string[] }).data).toEqual(['上海', 'Atlantis', 'None']);
    const series = option.series as { data: number[]; yAxisIndex?: number }[];
    expect(series.map((s) => s.data)).toEqual([
      [2, 1, 1],
      [120, 0, 0],
    ]);
    expect(series[1]!.yAxisIndex).toBe(1);
  });
});
