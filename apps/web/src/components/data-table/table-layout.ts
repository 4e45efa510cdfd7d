// Layout rules of DataTable from the spec's section 9: serial numbers across pages, automatic
// column widths for narrow tables, page-size options and the server's sort notation.
import { AUTO_WIDTH_MAX_COLUMNS, PAGE_SIZES_MAIN, PAGE_SIZES_SMALL } from '@iotc/shared/constants';
import { effectiveType } from './column-render.tsx';
import type { TableColumn } from './types.ts';

/** Width of cells that hold a short number or a switch. */
export const COMPACT_WIDTH = 100;
export const DEFAULT_WIDTH = 120;
/** A date-time column: `YYYY-MM-DD HH:mm:ss` and the cell's padding, with room for a sort arrow in its header. */
export const DATE_TIME_WIDTH = 170;
const COMPACT_TYPES = new Set(['unit', 'limit', 'battery', 'switch']);

/** The serial number of the row at `index` of page `page` (1-based) of size `size`. */
export function serialNumber(page: number, size: number, index: number): number {
  return (page - 1) * size + index + 1;
}

/**
 * A table with fewer than AUTO_WIDTH_MAX_COLUMNS visible columns lays itself out (undefined), but
 * for its date-time columns, which keep DATE_TIME_WIDTH so their seconds are never cut, and, in a
 * one-line (`ellipsis`) table, whose fixed layout would share the width out evenly, the declared
 * widths; a wider table gives every column its declared width, else 100 (compact types) or 120.
 */
export function columnWidth(
  column: Pick<TableColumn, 'width' | 'type' | 'battery' | 'place'>,
  visibleCount: number,
  oneLine = false,
): number | undefined {
  if (column.type === 'datetime') return Math.max(column.width ?? 0, DATE_TIME_WIDTH);
  if (visibleCount < AUTO_WIDTH_MAX_COLUMNS) return oneLine ? column.width : undefined;
  if (column.width) return column.width;
  return COMPACT_TYPES.has(effectiveType(column)) ? COMPACT_WIDTH : DEFAULT_WIDTH;
}

export function pageSizeOptions(kind: 'main' | 'small' = 'main'): number[] {
  return [...(kind === 'small' ? PAGE_SIZES_SMALL : PAGE_SIZES_MAIN)];
}

export interface SortState {
  field: string;
  order: 'asc' | 'desc';
}

/** Parses the `field,asc|desc` notation the list endpoints take. */
export function parseSort(sort: string | undefined | null): SortState | undefined {
  const m = sort ? /^([A-Za-z_][\w.]*),(asc|desc)$/.exec(sort) : null;
  return m ? { field: m[1]!, order: m[2] as 'asc' | 'desc' } : undefined;
}

export function formatSort(state: SortState | undefined): string | undefined {
  return state ? `${state.field},${state.order}` : undefined;
}
