// A list screen's state in the address: page, size, sort and filters live in the URL's search
// params, so a filtered, sorted, paged view can be shared and survives a reload. Also the list
// call (`{ rows, total, page, size }`), its TanStack Query options and the export download.
//
// Address names: `page`, `size`, `sort` (`field,asc|desc`) and one `f.<name>` per filter value
// (a range filter `<key>` gives `f.<key>From` and `f.<key>To`, ISO 8601 UTC). Values equal to
// the defaults are left out. A screen with two lists passes `scoped: true` for the second, whose
// names then start with `<tableId>.`. Other params (the menu's `pid`) are left as they are.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Page } from '@iotc/shared/envelope';
import { PAGE_SIZE_DEFAULT } from '@iotc/shared/constants';
import { request, requestFile, type QueryValue } from '../api/client.ts';

/** Filter values as the list endpoints take them: API names to text values. */
export type FilterValues = Record<string, string>;

export interface ListState {
  page: number;
  size: number;
  /** `field,asc|desc`, or undefined for the server's own order. */
  sort?: string;
  filters: FilterValues;
}

export interface ListDefaults {
  size?: number;
  sort?: string;
  /** Prefix this list's params with `<tableId>.` (a second list on the same screen). */
  scoped?: boolean;
}

const FILTER_PREFIX = 'f.';
const SORT_RE = /^[A-Za-z_][\w.]*,(asc|desc)$/;
// Filter names are API field names; anything else in an address (`f.__proto__`) is ignored.
const FILTER_NAME_RE = /^[A-Za-z][\w.-]{0,63}$/;
/** Larger pages than this are not asked for, whatever the address says. */
const MAX_SIZE = 1000;

function prefixOf(tableId: string, defaults: ListDefaults): string {
  return defaults.scoped ? `${tableId}.` : '';
}

/** Drops a scoped list's params (its page, size, sort and filters) from an address. */
export function clearScopedListParams(params: URLSearchParams, tableId: string): void {
  const prefix = prefixOf(tableId, { scoped: true });
  for (const name of [...params.keys()]) if (name.startsWith(prefix)) params.delete(name);
}

function positiveInt(text: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(text);
  return text && Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
}

/** Reads the list state out of the address; anything malformed falls back to the defaults. */
export function parseListParams(params: URLSearchParams, defaults: ListDefaults = {}, prefix = ''): ListState {
  const defaultSize = defaults.size ?? PAGE_SIZE_DEFAULT;
  const sort = params.get(`${prefix}sort`);
  const filters: FilterValues = {};
  const fp = `${prefix}${FILTER_PREFIX}`;
  for (const [name, value] of params) {
    const key = name.slice(fp.length);
    if (name.startsWith(fp) && FILTER_NAME_RE.test(key) && value !== '') filters[key] = value;
  }
  return {
    page: positiveInt(params.get(`${prefix}page`), 1),
    size: positiveInt(params.get(`${prefix}size`), defaultSize, MAX_SIZE),
    sort: sort && SORT_RE.test(sort) ? sort : defaults.sort,
    filters,
  };
}

/** A copy of `params` holding `state`; other params are kept, values equal to the defaults are left out. */
export function writeListParams(params: URLSearchParams, state: ListState, defaults: ListDefaults = {}, prefix = ''): URLSearchParams {
  const next = new URLSearchParams(params);
  const fp = `${prefix}${FILTER_PREFIX}`;
  for (const name of [...next.keys()]) if (name.startsWith(fp)) next.delete(name);
  const put = (name: string, value: string | undefined, fallback: string | undefined) => {
    if (value === undefined || value === fallback) next.delete(`${prefix}${name}`);
    else next.set(`${prefix}${name}`, value);
  };
  put('page', String(state.page), '1');
  put('size', String(state.size), String(defaults.size ?? PAGE_SIZE_DEFAULT));
  put('sort', state.sort, defaults.sort);
  for (const [key, value] of Object.entries(state.filters).sort(([a], [b]) => a.localeCompare(b))) {
    if (value !== '' && FILTER_NAME_RE.test(key)) next.set(`${fp}${key}`, value);
  }
  return next;
}

/** The query values of a list call. */
export function listQuery(state: ListState): Record<string, QueryValue> {
  return { ...state.filters, page: state.page, size: state.size, sort: state.sort };
}

export interface ListParams extends ListState {
  /** DataTable's onChange: a page, page size or sort change. */
  setTable: (page: number, size: number, sort: string | undefined) => void;
  /** FilterBar's onSearch: new filters start again at page 1. */
  setFilters: (filters: FilterValues) => void;
}

export function useListParams(tableId: string, defaults: ListDefaults = {}): ListParams {
  const [params, setParams] = useSearchParams();
  const prefix = prefixOf(tableId, defaults);
  const { size: defaultSize, sort: defaultSort } = defaults;
  const stable = useMemo(() => ({ size: defaultSize, sort: defaultSort }), [defaultSize, defaultSort]);
  const state = useMemo(() => parseListParams(params, stable, prefix), [params, stable, prefix]);

  const setTable = useCallback(
    (page: number, size: number, sort: string | undefined) =>
      // Paging is not worth a history entry each; Back leaves the list.
      setParams((prev) => writeListParams(prev, { ...parseListParams(prev, stable, prefix), page, size, sort }, stable, prefix), { replace: true }),
    [setParams, stable, prefix],
  );
  const setFilters = useCallback(
    (filters: FilterValues) =>
      // A search is an entry of its own, so Back returns to the previous filters.
      setParams((prev) => writeListParams(prev, { ...parseListParams(prev, stable, prefix), page: 1, filters }, stable, prefix)),
    [setParams, stable, prefix],
  );

  return { ...state, setTable, setFilters };
}

/** GET `path` with the list's query values; answers `{ rows, total, page, size }`. */
export function fetchList<T>(path: string, state: ListState, signal?: AbortSignal): Promise<Page<T>> {
  return request<Page<T>>(path, { query: listQuery(state), signal });
}

/** Query options of a list call; mutations invalidate `['list', path]`. */
export function listQueryOptions<T>(path: string, state: ListState) {
  return queryOptions({
    queryKey: ['list', path, listQuery(state)],
    queryFn: ({ signal }) => fetchList<T>(path, state, signal),
    // The previous page stays on screen while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}

/** The file name a Content-Disposition header gives (RFC 6266: filename* first), else the fallback. */
export function filenameFromDisposition(header: string | null | undefined, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star?.[2]) {
    try {
      return decodeURIComponent(star[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed encoded name falls through to the plain one.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(header);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name || fallback;
}

export type ExportFormat = 'csv' | 'xlsx';

/** An export may take far longer than the spec's 20 s for form and JSON calls. */
const EXPORT_TIMEOUT_MS = 120_000;

/**
 * Downloads GET `path` (a file answer) with the client's headers and hands it to the browser as
 * a download; answers the file name the server gave, else `fallback`.
 */
export async function downloadFile(path: string, query: Record<string, QueryValue>, fallback: string, timeoutMs = EXPORT_TIMEOUT_MS): Promise<string> {
  const { blob, disposition } = await requestFile(path, { query, timeoutMs });
  const filename = filenameFromDisposition(disposition, fallback);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked a moment later: some browsers start reading the URL only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return filename;
}

/**
 * Downloads GET `<path>/export?format=<format>&<filters>&sort=` with the client's headers. The
 * export covers every row the filters match, so page and size are not sent.
 */
export function exportList(path: string, format: ExportFormat, state: Pick<ListState, 'filters' | 'sort'>): Promise<string> {
  return downloadFile(`${path}/export`, { ...state.filters, sort: state.sort, format }, `export.${format}`);
}
