import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import fc from 'fast-check';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { render, type Rendered } from '../test/dom.tsx';
import { clearScopedListParams, filenameFromDisposition, listQuery, parseListParams, useListParams, writeListParams, type ListParams, type ListState } from './list-query.ts';

let mounted: Rendered | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  vi.restoreAllMocks();
});

describe('list state in the address', () => {
  it('parses page, size, sort and f.* filters; bad values fall back to defaults', () => {
    const p = new URLSearchParams('pid=m-1&page=3&size=50&sort=createdAt,desc&f.name=truck&f.createdFrom=2025-06-01T00:00:00.000Z');
    expect(parseListParams(p)).toEqual({
      page: 3,
      size: 50,
      sort: 'createdAt,desc',
      filters: { name: 'truck', createdFrom: '2025-06-01T00:00:00.000Z' },
    });
    expect(parseListParams(new URLSearchParams('page=-1&size=abc&sort=x;y'), { size: 20, sort: 'id,asc' })).toEqual({
      page: 1,
      size: 20,
      sort: 'id,asc',
      filters: {},
    });
  });

  it('ignores filter names that are no field names', () => {
    const state = parseListParams(new URLSearchParams('f.__proto__=x&f.constructor=y&f.a%20b=z&f.=w&f.level=1'));
    expect(state.filters).toEqual({ constructor: 'y', level: '1' });
    expect(Object.getPrototypeOf(state.filters)).toBe(Object.prototype);
  });

  it('writes only what differs from the defaults and keeps other params', () => {
    const out = writeListParams(new URLSearchParams('pid=m-1&f.old=1'), { page: 1, size: 10, filters: { level: '2' } });
    expect(out.toString()).toBe('pid=m-1&f.level=2');
    const full = writeListParams(new URLSearchParams(), { page: 2, size: 50, sort: 'name,asc', filters: { b: '2', a: '温度' } });
    expect(full.get('page')).toBe('2');
    expect(full.get('f.a')).toBe('温度');
    expect([...full.keys()]).toEqual(['page', 'size', 'sort', 'f.a', 'f.b']);
  });

  it('round trips any state (property), also with a table prefix', () => {
    const state = fc.record({
      page: fc.integer({ min: 1, max: 10_000 }),
      size: fc.constantFrom(10, 20, 30, 50, 100),
      sort: fc.option(fc.constantFrom('name,asc', 'createdAt,desc', 'a.b,asc'), { nil: undefined }),
      filters: fc.dictionary(fc.stringMatching(/^[A-Za-z][\w.-]{0,11}$/), fc.string({ minLength: 1, maxLength: 20 })),
    });
    fc.assert(
      fc.property(state, fc.constantFrom('', 'alarms.'), (s: ListState, prefix) => {
        const written = writeListParams(new URLSearchParams('pid=x'), s, {}, prefix);
        // Through the address text, as a shared link would carry it.
        const back = parseListParams(new URLSearchParams(written.toString()), {}, prefix);
        expect(back).toEqual({ ...s, sort: s.sort });
        expect(written.get('pid')).toBe('x');
      }),
      { numRuns: 200 },
    );
  });

  it('gives the list call its query values', () => {
    expect(listQuery({ page: 2, size: 10, sort: 'name,asc', filters: { level: '1' } })).toEqual({ level: '1', page: 2, size: 10, sort: 'name,asc' });
  });

  it('useListParams: table changes keep filters, a filter change goes back to page 1', async () => {
    let api: ListParams | undefined;
    function Probe() {
      api = useListParams('devices');
      return null;
    }
    const router = createMemoryRouter([{ path: '/list', element: <Probe /> }], { initialEntries: ['/list?pid=7&page=4&f.name=a'] });
    mounted = render(<RouterProvider router={router} />);
    expect(api).toMatchObject({ page: 4, size: 10, filters: { name: 'a' } });
    await act(async () => api!.setTable(5, 50, 'name,desc'));
    expect(router.state.location.search).toBe('?pid=7&page=5&size=50&sort=name%2Cdesc&f.name=a');
    await act(async () => api!.setFilters({ level: '2' }));
    expect(api).toMatchObject({ page: 1, size: 50, sort: 'name,desc', filters: { level: '2' } });
    expect(new URLSearchParams(router.state.location.search).get('page')).toBeNull();
  });
});

describe('clearing a scoped list', () => {
  it("drops that list's params only", () => {
    const params = new URLSearchParams('warehouse=w1&page=3&cold-rooms.page=2&cold-rooms.f.keyword=x&refrigerators.size=50');
    clearScopedListParams(params, 'cold-rooms');
    expect(params.toString()).toBe('warehouse=w1&page=3&refrigerators.size=50');
  });
});

describe('export file name', () => {
  it('prefers filename*, falls back to filename and then to the default', () => {
    expect(filenameFromDisposition("attachment; filename=\"devices.csv\"; filename*=UTF-8''%E8%AE%BE%E5%A4%87.csv", 'x.csv')).toBe('设备.csv');
    expect(filenameFromDisposition('attachment; filename="alarms.xlsx"', 'x.xlsx')).toBe('alarms.xlsx');
    expect(filenameFromDisposition('attachment; filename=plain.csv', 'x.csv')).toBe('plain.csv');
    expect(filenameFromDisposition(null, 'export.csv')).toBe('export.csv');
    expect(filenameFromDisposition('attachment', 'export.csv')).toBe('export.csv');
  });
});
