import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { click, render, setEnglish, type Rendered } from '../../test/dom.tsx';
import { DataTable, type DataTableProps } from './data-table.tsx';
import { chunkName, documentCookieJar, loadPreference } from './column-cookie.ts';
import type { TableColumn, TableDescriptor } from './types.ts';

type R = Record<string, unknown> & { id: number };

let mounted: Rendered | undefined;
beforeAll(setEnglish);
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  for (const c of document.cookie.split('; ')) {
    const name = c.split('=')[0];
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }
});

function columns(n: number): TableColumn<R>[] {
  return Array.from({ length: n }, (_, i) => ({ key: `Col ${i}`, value: `c${i}`, type: i === 0 ? 'unit' : undefined }));
}

const rows: R[] = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, c0: i, c1: `row ${i}` }));

function table(descriptor: Partial<TableDescriptor<R>>, props: Partial<DataTableProps<R>> = {}): HTMLElement {
  const d: TableDescriptor<R> = { id: 'test', columns: columns(3), rowKey: 'id', ...descriptor };
  mounted = render(<DataTable descriptor={d} rows={rows} total={95} {...props} />);
  return mounted.container;
}

async function settle() {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 30));
  });
}

// antd's first render in jsdom (style generation) takes seconds on a busy two-core machine.
describe('DataTable', { timeout: 20_000 }, () => {
  it('numbers rows across pages: page 3 of size 10 starts at 21', () => {
    const el = table({}, { page: 3, size: 10 });
    expect(el.querySelector('[data-testid="data-table"]')!.getAttribute('data-table-id')).toBe('test');
    const serials = [...el.querySelectorAll('td.iotc-serial-cell')].map((td) => td.textContent);
    expect(serials[0]).toBe('21');
    expect(serials.at(-1)).toBe('30');
    expect(el.querySelector('th.iotc-serial-cell')!.textContent).toBe('No.');
  });

  it('9 visible columns get automatic widths, 10 get 100/120', () => {
    const widths = (el: HTMLElement) => [...el.querySelectorAll('colgroup col')].map((c) => (c as HTMLElement).style.width);
    const nine = table({ columns: columns(9), serial: false });
    expect(nine.querySelectorAll('thead th')).toHaveLength(9);
    expect(widths(nine).every((w) => w === '')).toBe(true);
    mounted?.unmount();
    const ten = widths(table({ columns: columns(10), serial: false }));
    expect(ten).toEqual(['100px', ...Array(9).fill('120px')]);
    mounted?.unmount();
    // Hidden columns do not count.
    const hidden = columns(10);
    hidden[9]!.hidden = true;
    expect(widths(table({ columns: hidden, serial: false })).every((w) => w === '')).toBe(true);
  });

  it('an automatic-width table that may overflow scrolls sideways with its actions kept in view', () => {
    const rowButtons = [{ name: 'Edit', showtype: 't' as const, onClick: () => {} }];
    const plain = table({ rowButtons });
    expect(plain.querySelector('.ant-table-content')?.getAttribute('style') ?? '').not.toContain('overflow-x');
    expect(plain.querySelector('th.iotc-actions-cell.ant-table-cell-fix-right, th.iotc-actions-cell.ant-table-cell-fix-end')).toBeNull();
    mounted?.unmount();
    const wide = table({ rowButtons, overflowScroll: true });
    expect(wide.querySelector('.ant-table-content')?.getAttribute('style')).toContain('overflow-x: auto');
    expect(wide.querySelector('th.iotc-actions-cell')!.className).toMatch(/ant-table-cell-fix-(right|end)/);
    // Still automatic widths: only the serial column has one.
    expect([...wide.querySelectorAll('colgroup col')].map((c) => (c as HTMLElement).style.width).filter(Boolean)).toEqual(['70px']);
  });

  it('shows the total and the spec page sizes; a page click reports page, size and sort', async () => {
    const onChange = vi.fn();
    const el = table({ columns: [{ key: 'Name', value: 'c1', sortable: true }] }, { page: 1, size: 10, sort: 'c1,asc', onChange });
    expect(el.querySelector('.ant-pagination-total-text')!.textContent).toBe('Total 95 items');
    expect(el.querySelector('th[aria-sort="ascending"]')).not.toBeNull();
    click(el.querySelector('.ant-pagination-item-2'));
    expect(onChange).toHaveBeenLastCalledWith(2, 10, 'c1,asc');
    // Sorting again goes back to page 1 with the new order.
    click(el.querySelector('th.ant-table-column-has-sorters'));
    expect(onChange).toHaveBeenLastCalledWith(1, 10, 'c1,desc');
  });

  it('empty, loading and error states', () => {
    const d: TableDescriptor<R> = { id: 'e', columns: columns(2), rowKey: 'id' };
    mounted = render(<DataTable descriptor={d} rows={[]} total={0} />);
    expect(mounted.container.querySelector('.ant-empty-description')!.textContent).toBe('No data');
    mounted.unmount();

    mounted = render(<DataTable descriptor={d} rows={[]} loading />);
    expect(mounted.container.querySelector('.ant-spin')).not.toBeNull();
    mounted.unmount();

    const onRetry = vi.fn();
    mounted = render(<DataTable descriptor={d} rows={[]} error={new Error('Server error, please contact the administrator!')} onRetry={onRetry} />);
    const error = mounted.container.querySelector('[data-testid="table-error"]')!;
    expect(error.textContent).toContain('Server error, please contact the administrator!');
    click(mounted.container.querySelector('[data-testid="table-retry"]'));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('toolbar buttons and the more group toggling between 1 and 2', () => {
    const add = vi.fn();
    const el = table({
      topButtons: [{ name: 'Add', onClick: add }],
      moreButtons: [{ name: 'Export', onClick: () => {} }],
    });
    const toolbar = el.querySelector('[data-testid="toolbar"]')!;
    const names = () => [...toolbar.querySelectorAll('button[data-action]')].map((b) => b.textContent);
    expect(toolbar.getAttribute('data-more-state')).toBe('1');
    expect(names()).toEqual(['Add']);
    click(el.querySelector('[data-testid="more-toggle"]'));
    expect(toolbar.getAttribute('data-more-state')).toBe('2');
    expect(names()).toEqual(['Add', 'Export']);
    click(el.querySelector('[data-testid="more-toggle"]'));
    expect(toolbar.getAttribute('data-more-state')).toBe('1');
    click(toolbar.querySelector('button[data-action="Add"]'));
    expect(add).toHaveBeenCalledOnce();
  });

  it('selection checkboxes report the selected keys', () => {
    const onSelect = vi.fn();
    const el = table({ selection: true }, { onSelect });
    const boxes = el.querySelectorAll('tbody input[type="checkbox"]');
    click(boxes[1]);
    expect(onSelect).toHaveBeenLastCalledWith([2], [rows[1]]);
  });

  it('custom columns: hiding a column saves the cookie and survives a remount', async () => {
    const el = table({ id: 'devices', columns: [{ key: 'Name', value: 'c1' }, { key: '温度', value: 'c0' }] });
    const headers = () => [...document.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headers()).toEqual(['No.', 'Name', '温度']);
    click(el.querySelector('[data-testid="column-settings-open"]'));
    await settle();
    const dialog = document.querySelector('.ant-modal')!;
    expect(dialog.querySelector('.ant-modal-title')!.textContent).toBe('Custom columns');
    click(dialog.querySelector('[data-testid="column-switch-c0"]'));
    click(dialog.querySelector('[data-testid="column-settings-ok"]'));
    await settle();
    expect(headers()).toEqual(['No.', 'Name']);
    expect(loadPreference(documentCookieJar(), 'devices')).toEqual([
      { key: 'c1', hidden: false },
      { key: 'c0', hidden: true },
    ]);
    mounted?.unmount();
    table({ id: 'devices', columns: [{ key: 'Name', value: 'c1' }, { key: '温度', value: 'c0' }] });
    expect(headers()).toEqual(['No.', 'Name']);
  });

  it('custom columns: a preference too large for 10 cookies is refused with a message, old cookies intact', async () => {
    const jar = documentCookieJar();
    jar.set(chunkName('huge', 0), encodeURIComponent(JSON.stringify([{ key: 'old', hidden: true }])));
    // 12 columns whose names take ~4000 encoded characters each: over 10 chunks.
    const cols: TableColumn<R>[] = Array.from({ length: 12 }, (_, i) => ({ key: `Col ${i}`, value: `${i}`.padEnd(4000, 'x') }));
    const el = table({ id: 'huge', columns: cols });
    click(el.querySelector('[data-testid="column-settings-open"]'));
    await settle();
    click(document.querySelector('[data-testid="column-settings-ok"]'));
    await settle();
    expect(document.querySelector('[data-testid="column-settings-error"]')!.textContent).toBe('The column settings are too large to be saved');
    expect(document.querySelector('.ant-modal')).not.toBeNull();
    expect(loadPreference(jar, 'huge')).toEqual([{ key: 'old', hidden: true }]);
    expect(jar.get(chunkName('huge', 1))).toBeUndefined();
  });
});

describe('DataTable rows that open', { timeout: 20_000 }, () => {
  it('reports a row click, highlights the active row and marks cells for tests', () => {
    const onRowClick = vi.fn();
    const limitColumns: TableColumn<R>[] = [
      { key: 'Value', value: 'c0', type: 'limit', maxValueField: 'max', testId: 'cell-c0' },
      { key: 'Text', value: 'c1' },
    ];
    const data: R[] = [
      { id: 1, c0: 5, max: 8, c1: 'a' },
      { id: 2, c0: 9, max: 8, c1: 'b' },
    ];
    const d: TableDescriptor<R> = { id: 'open', columns: limitColumns, rowKey: 'id' };
    mounted = render(<DataTable descriptor={d} rows={data} total={2} onRowClick={onRowClick} activeRowKey={2} emptyText="Nothing" />);
    const el = mounted.container;
    const row = (key: number) => el.querySelector<HTMLElement>(`tr[data-row-key="${key}"]`)!;
    expect(row(2).classList.contains('iotc-row-active')).toBe(true);
    expect(row(1).classList.contains('iotc-row-active')).toBe(false);
    expect(row(1).querySelector('[data-testid="cell-c0"]')!.getAttribute('data-out-of-range')).toBeNull();
    expect(row(2).querySelector('[data-testid="cell-c0"]')!.getAttribute('data-out-of-range')).toBe('true');
    click(row(1).querySelector('td:last-child'));
    expect(onRowClick).toHaveBeenCalledWith(data[0]);
    mounted.unmount();
    mounted = render(<DataTable descriptor={d} rows={[]} total={0} emptyText="Nothing" />);
    expect(mounted.container.querySelector('.ant-empty')!.textContent).toContain('Nothing');
  });
});
