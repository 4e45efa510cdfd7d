import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import dayjs from 'dayjs';
import { click, render, setEnglish, type Rendered } from '../test/dom.tsx';
import { FilterBar, lastWeekDisabledDate, toFieldValues, toFilterValues, type FilterItem } from './filter-bar.tsx';

let mounted: Rendered | undefined;
beforeAll(setEnglish);
afterEach(async () => {
  vi.useRealTimers();
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  await setEnglish();
});

const items: FilterItem[] = [
  { label: 'Name', key: 'name', type: 'input' },
  { label: 'Level', key: 'level', type: 'select', options: [{ value: '1', label: 'High' }] },
  { label: 'Time', key: 'created', type: 'datetimerange' },
  { label: 'Report time', key: 'reported', type: 'datetimerange-noclear' },
  { label: 'Recent', key: 'recent', type: 'lastweekdate' },
];

/** Types into a React-controlled input the way a user does. */
function type(input: HTMLInputElement, text: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** The range fields' picker is fetched with the first bar that has one: wait for `n` of them. */
async function pickersShown(root: ParentNode, n: number) {
  await vi.waitFor(() => expect(root.querySelectorAll('.ant-picker-range')).toHaveLength(n), { timeout: 10_000 });
}

describe('lastweekdate', () => {
  const now = dayjs('2025-06-15T10:30:00');
  it('allows seven days ago to today, nothing earlier or later', () => {
    expect(lastWeekDisabledDate(now.subtract(8, 'day'), now)).toBe(true);
    expect(lastWeekDisabledDate(now.subtract(7, 'day'), now)).toBe(false);
    expect(lastWeekDisabledDate(now.subtract(7, 'day').startOf('day'), now)).toBe(false);
    expect(lastWeekDisabledDate(now.subtract(3, 'day'), now)).toBe(false);
    expect(lastWeekDisabledDate(now, now)).toBe(false);
    expect(lastWeekDisabledDate(now.endOf('day'), now)).toBe(false);
    expect(lastWeekDisabledDate(now.add(1, 'day'), now)).toBe(true);
  });
});

describe('filter values', () => {
  it('ranges go to the API as <key>From/<key>To in ISO 8601 UTC and come back', () => {
    const from = dayjs('2025-06-01 08:00:00');
    const to = dayjs('2025-06-02 18:30:00');
    const values = toFilterValues(items, { name: '  truck ', level: '1', created: [from, to], reported: null, recent: [from, null] });
    expect(values).toEqual({
      name: 'truck',
      level: '1',
      createdFrom: from.toISOString(),
      createdTo: to.toISOString(),
      recentFrom: from.toISOString(),
    });
    expect(values.createdFrom).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const fields = toFieldValues(items, values);
    expect(fields.name).toBe('truck');
    const range = fields.created as [dayjs.Dayjs, dayjs.Dayjs];
    expect(range[0].format('YYYY-MM-DD HH:mm:ss')).toBe('2025-06-01 08:00:00');
    expect(range[1].valueOf()).toBe(to.valueOf());
    expect(fields.reported).toBeNull();
    expect(toFilterValues(items, {})).toEqual({});
  });

  it('a multiple select goes to the API as one comma-separated list and comes back', () => {
    const multi: FilterItem[] = [{ label: 'Type', key: 'type', type: 'multiselect', options: [] }];
    expect(toFilterValues(multi, { type: ['temp_high', 'offline'] })).toEqual({ type: 'temp_high,offline' });
    expect(toFilterValues(multi, { type: [] })).toEqual({});
    expect(toFieldValues(multi, { type: 'temp_high,offline' })).toEqual({ type: ['temp_high', 'offline'] });
    expect(toFieldValues(multi, {})).toEqual({ type: [] });
  });
});

describe('FilterBar', { timeout: 20_000 }, () => {
  it('shows the spec hints in English and Chinese', async () => {
    mounted = render(<FilterBar items={items} onSearch={() => {}} />);
    const bar = mounted.container.querySelector('[data-testid="filter-bar"]')!;
    await pickersShown(bar, 3);
    const placeholders = () => [...bar.querySelectorAll('input')].map((i) => i.getAttribute('placeholder'));
    expect(placeholders()).toContain('please enter content');
    expect(bar.textContent).toContain('please select');
    expect(placeholders()).toContain('start date');
    expect(placeholders()).toContain('end date');
    expect(bar.querySelector('.iotc-filter-separator')!.textContent).toBe('to');
    await act(() => i18next.changeLanguage('zh'));
    expect(placeholders()).toContain('请输入内容');
    expect(bar.textContent).toContain('请选择');
    expect(placeholders()).toContain('开始日期');
    expect(placeholders()).toContain('结束日期');
    expect(bar.querySelector('.iotc-filter-separator')!.textContent).toBe('至');
  });

  it('Enter in a text field searches; Search hands over the values', () => {
    const onSearch = vi.fn();
    mounted = render(<FilterBar items={items} onSearch={onSearch} />);
    const input = mounted.container.querySelector('input[data-testid="filter-name"]') as HTMLInputElement;
    type(input, 'cold truck');
    act(() => {
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', keyCode: 13, bubbles: true }));
    });
    expect(onSearch).toHaveBeenLastCalledWith({ name: 'cold truck' });
    click(mounted.container.querySelector('[data-testid="filter-search"]'));
    expect(onSearch).toHaveBeenCalledTimes(2);
  });

  it('the no-clear range has no clear button; the others do', async () => {
    mounted = render(<FilterBar items={items} value={{ createdFrom: '2025-06-01T00:00:00.000Z', reportedFrom: '2025-06-01T00:00:00.000Z' }} onSearch={() => {}} />);
    await pickersShown(mounted.container, 3);
    const created = mounted.container.querySelector('[data-testid="filter-created"]')!;
    const reported = mounted.container.querySelector('[data-testid="filter-reported"]')!;
    expect(created.querySelector('.ant-picker-clear')).not.toBeNull();
    expect(reported.querySelector('.ant-picker-clear')).toBeNull();
  });

  it('Reset clears the fields and holds data-reset="1" for 60 ms', () => {
    const onSearch = vi.fn();
    mounted = render(<FilterBar items={items} value={{ name: 'abc' }} onSearch={onSearch} />);
    const bar = mounted.container.querySelector('[data-testid="filter-bar"]')!;
    const input = mounted.container.querySelector('input[data-testid="filter-name"]') as HTMLInputElement;
    expect(input.value).toBe('abc');
    expect(bar.getAttribute('data-reset')).toBe('0');
    vi.useFakeTimers();
    click(mounted.container.querySelector('[data-testid="filter-reset"]'));
    expect(bar.getAttribute('data-reset')).toBe('1');
    expect(input.value).toBe('');
    expect(onSearch).toHaveBeenLastCalledWith({});
    act(() => vi.advanceTimersByTime(59));
    expect(bar.getAttribute('data-reset')).toBe('1');
    act(() => vi.advanceTimersByTime(1));
    expect(bar.getAttribute('data-reset')).toBe('0');
  });
});
