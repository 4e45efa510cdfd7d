import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Dict } from '@iotc/shared/auth';
import { click, render, setEnglish, type Rendered } from '../../test/dom.tsx';
import { Cell, isCellOutOfRange, isOutOfRange, limitBounds, loadCellSanitizer, type CellContext } from './column-render.tsx';
import type { TableColumn } from './types.ts';

type R = Record<string, unknown>;

let mounted: Rendered | undefined;
function cell(column: TableColumn<R>, row: R, ctx: CellContext<R> = {}): HTMLElement {
  mounted = render(<Cell row={row} column={column} ctx={ctx} />);
  return mounted.container;
}

beforeAll(setEnglish);
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  (window as { __pwned?: boolean }).__pwned = undefined;
});

describe('column types as the user sees them', { timeout: 20_000 }, () => {
  it('text: the value, a dash when empty', () => {
    expect(cell({ key: 'Name', value: 'name' }, { name: 'Truck 7' }).textContent).toBe('Truck 7');
    mounted?.unmount();
    expect(cell({ key: 'Name', value: 'name' }, { name: null }).textContent).toBe('-');
  });

  it('source: the lookup text first, else the dictionary value', () => {
    const lookup = [{ key: 1, text: 'Online' }];
    expect(cell({ key: 'State', value: 's', type: 'source', lookup }, { s: 1 }).textContent).toBe('Online');
    mounted?.unmount();
    const dicts: Dict[] = [{ dictCode: 'door', dictName: 'Door', children: [{ dictKey: '1', dictVal: 'Open' }] }];
    expect(cell({ key: 'Door', value: 'd', type: 'source', source: 'door' }, { d: 1 }, { dicts }).textContent).toBe('Open');
    mounted?.unmount();
    // Unknown keys show as they are rather than disappearing.
    expect(cell({ key: 'Door', value: 'd', type: 'source', source: 'door' }, { d: 9 }, { dicts }).textContent).toBe('9');
  });

  it('map: the local text map, its texts through i18n', () => {
    const textMap = { '0': 'common.cancel', '1': 'Opened' };
    expect(cell({ key: 'Door', value: 'd', type: 'map', textMap }, { d: 0 }).textContent).toBe('Cancel');
    mounted?.unmount();
    expect(cell({ key: 'Door', value: 'd', type: 'map', textMap }, { d: 1 }).textContent).toBe('Opened');
    mounted?.unmount();
    expect(cell({ key: 'Door', value: 'd', type: 'map', textMap }, { d: 5 }).textContent).toBe('5');
  });

  it('button: the looked-up text with its background colour; a click reports the row', () => {
    const onCellButton = vi.fn();
    const buttons = [
      { key: 'Y', text: 'Enabled', background: 'rgb(82, 196, 26)', color: 'rgb(255, 255, 255)' },
      { key: 'N', text: 'Disabled', background: 'rgb(255, 77, 79)', butType: 'tag' as const },
    ];
    const column: TableColumn<R> = { key: 'State', value: 'state', type: 'button', buttons };
    const el = cell(column, { state: 'Y', id: 3 }, { onCellButton });
    const button = el.querySelector('button')!;
    expect(button.textContent).toBe('Enabled');
    expect(button.style.background).toBe('rgb(82, 196, 26)');
    expect(button.style.color).toBe('rgb(255, 255, 255)');
    click(button);
    expect(onCellButton).toHaveBeenCalledWith({ state: 'Y', id: 3 }, column, buttons[0]);
    mounted?.unmount();
    const tag = cell(column, { state: 'N' }).querySelector('.iotc-cell-tag') as HTMLElement;
    expect(tag.textContent).toBe('Disabled');
    expect(tag.style.background).toBe('rgb(255, 77, 79)');
  });

  it('switch: on for a true value, and a toggle reports row, column and new state', () => {
    const onSwitch = vi.fn();
    const column: TableColumn<R> = { key: 'Enabled', value: 'on', type: 'switch' };
    const el = cell(column, { on: 1 }, { onSwitch });
    const sw = el.querySelector('[role="switch"]')!;
    expect(sw.getAttribute('aria-checked')).toBe('true');
    click(sw);
    expect(onSwitch).toHaveBeenCalledWith({ on: 1 }, column, false);
    mounted?.unmount();
    expect(cell(column, { on: 0 }).querySelector('[role="switch"]')!.getAttribute('aria-checked')).toBe('false');
  });

  it('link: a button-like link that reports the row', () => {
    const onLink = vi.fn();
    const column: TableColumn<R> = { key: 'Device', value: 'dev', type: 'link' };
    const el = cell(column, { dev: 'D-1' }, { onLink });
    const link = el.querySelector('button.iotc-cell-link')!;
    expect(link.textContent).toBe('D-1');
    click(link);
    expect(onLink).toHaveBeenCalledWith({ dev: 'D-1' }, column);
  });

  it('unit: the value with its unit as a suffix', () => {
    const el = cell({ key: 'Humidity', value: 'h', type: 'unit', unit: '%' }, { h: 55.5 });
    expect(el.textContent).toBe('55.5%');
    expect(el.querySelector('.iotc-cell-unit')!.textContent).toBe('%');
  });

  it('limit: red outside min/max, not red inside or on a bound', () => {
    const column: TableColumn<R> = { key: 'Temp', value: 't', type: 'limit', minValue: -20, maxValue: 8, unit: '℃' };
    for (const [t, red] of [
      [9, true],
      [-21, true],
      [8.01, true],
      [8, false],
      [-20, false],
      [0, false],
    ] as const) {
      const span = cell(column, { t }).querySelector('.iotc-cell-limit') as HTMLElement;
      expect(span.textContent, String(t)).toBe(`${t}℃`);
      expect(span.classList.contains('iotc-cell-out-of-range'), String(t)).toBe(red);
      // antd's error colour token (#ff4d4f by default) paints it.
      expect(span.style.color, String(t)).toBe(red ? 'rgb(255, 77, 79)' : '');
      mounted?.unmount();
    }
    expect(isOutOfRange('abc', 0, 1)).toBe(false);
    expect(isOutOfRange(5, undefined, 4)).toBe(true);
  });

  it('html: safe markup kept, scripts and handlers never survive or run', async () => {
    // The sanitiser is fetched by the first html cell; a cell before it shows nothing.
    const early = cell({ key: 'Note', value: 'n', type: 'html' }, { n: '<b>soon</b>' });
    await expect.poll(() => early.querySelector('.iotc-cell-html b')?.textContent).toBe('soon');
    mounted?.unmount();
    const html = '<b>bold</b> <img src=x onerror="window.__pwned=true"><script>window.__pwned=true</script><a href="javascript:window.__pwned=true">x</a>';
    const el = cell({ key: 'Note', value: 'n', type: 'html' }, { n: html });
    const box = el.querySelector('.iotc-cell-html')!;
    expect(box.querySelector('b')!.textContent).toBe('bold');
    expect(box.querySelector('img')).not.toBeNull();
    expect(box.querySelector('img')!.hasAttribute('onerror')).toBe(false);
    expect(box.querySelector('script')).toBeNull();
    expect(box.querySelector('a')!.getAttribute('href')).toBeNull();
    expect(box.innerHTML).not.toMatch(/onerror|<script|javascript:/i);
    await new Promise((r) => setTimeout(r, 20));
    expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
    expect((await loadCellSanitizer())('<svg onload="x()"><circle/></svg><i>ok</i>')).toBe('<i>ok</i>');
  });

  it('battery: a percentage badge, low below 20 in the danger colour', () => {
    const column: TableColumn<R> = { key: 'Battery', value: 'b', battery: true };
    const low = cell(column, { b: 19 }).querySelector('.iotc-battery') as HTMLElement;
    expect(low.textContent).toBe('19%');
    expect(low.classList.contains('iotc-battery-low')).toBe(true);
    expect(low.style.color).toBe('rgb(255, 77, 79)');
    mounted?.unmount();
    const ok = cell(column, { b: 20 }).querySelector('.iotc-battery') as HTMLElement;
    expect(ok.textContent).toBe('20%');
    expect(ok.classList.contains('iotc-battery-low')).toBe(false);
    mounted?.unmount();
    expect(cell({ key: 'Battery', value: 'b', type: 'battery' }, { b: '' }).textContent).toBe('-');
  });

  it('place: a location icon before the text', () => {
    const el = cell({ key: 'Place', value: 'p', place: true }, { p: '上海市浦东新区' });
    const place = el.querySelector('.iotc-cell-place')!;
    expect(place.textContent).toBe('上海市浦东新区');
    expect(place.querySelector('.anticon-environment')).not.toBeNull();
  });

  it('tags: one tag per list entry, a dash for an empty list', () => {
    const el = cell({ key: 'Roles', value: 'r', type: 'tags' }, { r: ['Operator', '运营人员'] });
    expect([...el.querySelectorAll('.ant-tag')].map((t) => t.textContent)).toEqual(['Operator', '运营人员']);
    mounted?.unmount();
    expect(cell({ key: 'Roles', value: 'r', type: 'tags' }, { r: [] }).textContent).toBe('-');
    mounted?.unmount();
    expect(cell({ key: 'Roles', value: 'r', type: 'tags' }, { r: 'Single' }).querySelectorAll('.ant-tag')).toHaveLength(1);
  });
});

describe('limit bounds of each row', { timeout: 20_000 }, () => {
  const column: TableColumn<R> = { key: 'Temp', value: 't', type: 'limit', unit: '°C', minValue: 0, maxValue: 100, minValueField: 'lo', maxValueField: 'hi' };

  it('takes the row fields over the column bounds, and the column bounds where the row has none', () => {
    expect(limitBounds({ t: 5, lo: 2, hi: 8 }, column)).toEqual({ minValue: 2, maxValue: 8 });
    expect(limitBounds({ t: 5, lo: null, hi: '8' }, column)).toEqual({ minValue: 0, maxValue: 8 });
    expect(isCellOutOfRange({ t: 9, lo: 2, hi: 8 }, column)).toBe(true);
    expect(isCellOutOfRange({ t: 8, lo: 2, hi: 8 }, column)).toBe(false);
    expect(isCellOutOfRange({ t: 9, lo: null, hi: null }, column)).toBe(false);
    expect(isCellOutOfRange<R>({ t: 9, lo: 2, hi: 8 }, { ...column, type: 'unit' })).toBe(false);
  });

  it('shows a value outside its own row bounds in red', () => {
    const out = cell(column, { t: 9.5, lo: 2, hi: 8 });
    expect(out.querySelector('.iotc-cell-out-of-range')!.textContent).toBe('9.5°C');
    mounted?.unmount();
    expect(cell(column, { t: 9.5, lo: 2, hi: 10 }).querySelector('.iotc-cell-out-of-range')).toBeNull();
  });
});
