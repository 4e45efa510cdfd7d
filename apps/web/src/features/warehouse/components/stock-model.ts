// The stock rows grouped for the tree table (warehouse → room, or the warehouse floor → goods /
// batch) and the province amounts as a bar chart's option.
import type { Lang } from '@iotc/shared/i18n';
import { provinceName } from '@iotc/shared/region';
import type { ProvinceAmount, StockRow } from '@iotc/shared/warehouse';
import type { EChartOption } from '../../../components/chart/echart.tsx';
import { formatTime, quantityText } from './record-model.ts';

export interface StockNode {
  key: string;
  level: 'warehouse' | 'room' | 'goods';
  name: string;
  batchNo: string;
  quantity: string;
  inQuantity: string;
  outQuantity: string;
  lastMovementAt: string;
  /** Goods lines under a warehouse or room. */
  lines: number;
  children?: StockNode[];
}

/** Warehouses in the server's order, their rooms (the floor, `atWarehouse`, first), their goods. */
export function stockTree(rows: StockRow[], atWarehouse: string): StockNode[] {
  const warehouses = new Map<string, StockNode>();
  const rooms = new Map<string, StockNode>();
  const later = (a: string, b: string) => (a > b ? a : b);
  for (const r of rows) {
    const wKey = `w:${r.warehouseId ?? r.warehouseCode}`;
    let w = warehouses.get(wKey);
    if (!w) {
      w = { key: wKey, level: 'warehouse', name: `${r.warehouseName} (${r.warehouseCode})`, batchNo: '', quantity: '', inQuantity: '', outQuantity: '', lastMovementAt: '', lines: 0, children: [] };
      warehouses.set(wKey, w);
    }
    const rKey = `${wKey}/r:${r.roomId ?? r.roomCode ?? '-'}`;
    let room = rooms.get(rKey);
    if (!room) {
      room = { key: rKey, level: 'room', name: r.roomName ? `${r.roomName} (${r.roomCode})` : atWarehouse, batchNo: '', quantity: '', inQuantity: '', outQuantity: '', lastMovementAt: '', lines: 0, children: [] };
      rooms.set(rKey, room);
      w.children!.push(room);
    }
    const moved = formatTime(r.lastMovementAt);
    room.children!.push({
      key: `${rKey}/g:${r.goodsName}/${r.batchNo}/${r.unit}`,
      level: 'goods',
      name: r.goodsName,
      batchNo: r.batchNo,
      quantity: quantityText(r.quantity, r.unit),
      inQuantity: quantityText(r.inQuantity, r.unit),
      outQuantity: quantityText(r.outQuantity, r.unit),
      lastMovementAt: moved,
      lines: 1,
    });
    room.lines++;
    w.lines++;
    room.lastMovementAt = later(room.lastMovementAt, moved);
    w.lastMovementAt = later(w.lastMovementAt, moved);
  }
  return [...warehouses.values()];
}

/** A province of the amounts as the reader reads it: the dictionary's name in `lang`, else as written. */
export function provinceText(p: ProvinceAmount, lang: Lang, noProvince: string): string {
  return (p.code ? provinceName(p.code, lang) : p.province) || noProvince;
}

/** Warehouses (left axis) and stock (right axis) per province as bars, provinces named in `lang`. */
export function provinceChart(rows: ProvinceAmount[], words: { warehouses: string; stock: string; noProvince: string }, lang: Lang): EChartOption {
  const names = rows.map((r) => provinceText(r, lang, words.noProvince));
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: [words.warehouses, words.stock], top: 0 },
    grid: { left: 48, right: 56, top: 40, bottom: 48 },
    xAxis: { type: 'category', data: names, axisLabel: { interval: 0, rotate: names.length > 8 ? 30 : 0 } },
    yAxis: [
      { type: 'value', name: words.warehouses, minInterval: 1 },
      { type: 'value', name: words.stock },
    ],
    series: [
      { name: words.warehouses, type: 'bar', data: rows.map((r) => r.warehouses), barMaxWidth: 28 },
      { name: words.stock, type: 'bar', yAxisIndex: 1, data: rows.map((r) => r.quantity), barMaxWidth: 28 },
    ],
  };
}
