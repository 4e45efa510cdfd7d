import { describe, expect, it } from 'vitest';
import { columnWidth, DATE_TIME_WIDTH, formatSort, pageSizeOptions, parseSort, serialNumber } from './table-layout.ts';

describe('table layout rules (spec section 9)', () => {
  it('serial numbers continue across pages', () => {
    expect(serialNumber(1, 10, 0)).toBe(1);
    expect(serialNumber(3, 10, 0)).toBe(21);
    expect(serialNumber(3, 10, 9)).toBe(30);
    expect(serialNumber(2, 50, 4)).toBe(55);
  });

  it('fewer than 10 visible columns lay themselves out; 10 and more get 100 or 120', () => {
    expect(columnWidth({ type: 'unit' }, 9)).toBeUndefined();
    expect(columnWidth({ width: 300 }, 9)).toBeUndefined();
    expect(columnWidth({}, 10)).toBe(120);
    expect(columnWidth({ type: 'place' }, 10)).toBe(120);
    for (const type of ['unit', 'limit', 'battery', 'switch'] as const) expect(columnWidth({ type }, 10)).toBe(100);
    expect(columnWidth({ battery: true }, 12)).toBe(100);
    expect(columnWidth({ width: 300, type: 'unit' }, 10)).toBe(300);
  });

  it('a one-line table of fewer than 10 columns keeps its declared widths; its fixed layout would share the width out evenly', () => {
    expect(columnWidth({ width: 300 }, 9, true)).toBe(300);
    expect(columnWidth({}, 9, true)).toBeUndefined();
  });

  it('date-time columns keep a width that holds YYYY-MM-DD HH:mm:ss in every layout', () => {
    expect(columnWidth({ type: 'datetime' }, 3)).toBe(DATE_TIME_WIDTH);
    expect(columnWidth({ type: 'datetime' }, 12)).toBe(DATE_TIME_WIDTH);
    expect(columnWidth({ type: 'datetime', width: 120 }, 12)).toBe(DATE_TIME_WIDTH);
    expect(columnWidth({ type: 'datetime', width: 200 }, 5, true)).toBe(200);
  });

  it('page sizes of the main and the smaller tables', () => {
    expect(pageSizeOptions()).toEqual([10, 50, 100]);
    expect(pageSizeOptions('main')).toEqual([10, 50, 100]);
    expect(pageSizeOptions('small')).toEqual([10, 20, 30, 50]);
  });

  it('reads and writes the field,asc|desc sort notation', () => {
    expect(parseSort('createdAt,desc')).toEqual({ field: 'createdAt', order: 'desc' });
    expect(parseSort('name,up')).toBeUndefined();
    expect(parseSort('')).toBeUndefined();
    expect(parseSort('x;drop,asc')).toBeUndefined();
    expect(formatSort({ field: 'name', order: 'asc' })).toBe('name,asc');
  });
});
