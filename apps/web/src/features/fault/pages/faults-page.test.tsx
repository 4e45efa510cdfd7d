import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { App } from 'antd';
import dayjs from 'dayjs';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { FAULT_API } from '@iotc/shared/fault';
import { click, render, setEnglish, showColumns, type Rendered } from '../../../test/dom.tsx';
import { byTestId, errorOf, settle, settleUntil, type } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, requestFile } from '../../../api/client.ts';
import { fakeApi, fault, newWorld, STATS, writes, type FakeWorld } from '../test-fixtures.ts';
import FaultsPage from './faults-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
const requestMock = vi.mocked(request);
const requestFileMock = vi.mocked(requestFile);

const SENSOR = fault(1, { detail: { reason: 'temperature sensor gives no reading', temperature: null, reports: 4 } });
const GPS = fault(2, { kind: 'gps_failure', status: 'repairing', detail: { reason: 'gps fix without position', reports: 3 }, repairCount: 1 });
const BATTERY = fault(3, { kind: 'low_battery', asset: null, detail: { reason: 'battery low', value: 12 } });
const FIXED = fault(4, {
  kind: 'offline_repeatedly',
  status: 'resolved',
  detail: { reason: 'offline 3 times', times: 3 },
  resolvedAt: '2026-03-01T10:00:00.000Z',
  resolvedBy: 'fixer',
  repairCount: 1,
  repairs: [{ id: 1, at: '2026-03-01T10:00:00.000Z', by: 'fixer', action: 'Replaced the SIM card', result: 'replaced', note: 'Old card worn' }],
});

let world: FakeWorld;
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  sessionStorage.clear();
  requestMock.mockReset();
  requestFileMock.mockReset();
  world = newWorld([SENSOR, GPS, BATTERY, FIXED]);
  fakeApi(requestMock, world);
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  await setEnglish();
});

function Where() {
  const loc = useLocation();
  return <div data-testid="where">{loc.search}</div>;
}

async function mount(search = ''): Promise<HTMLElement> {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[`/view/fault/list${search}`]}>
        <Routes>
          <Route
            path="/view/fault/list"
            element={
              <>
                <FaultsPage />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle(10);
  return mounted.container;
}

const listCalls = () => world.calls.filter((c) => c.path === FAULT_API.faults);
const statsCalls = () => world.calls.filter((c) => c.path === `${FAULT_API.faults}/stats`);
const rowEl = (id: string) => document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`);
const shownRows = () => [...document.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')].map((tr) => tr.dataset.rowKey);
const cell = (id: string, testId: string) => rowEl(id)!.querySelector<HTMLElement>(`[data-testid=${testId}]`)!.textContent;
const text = (testId: string) => byTestId(document, testId)?.textContent ?? null;
const drawer = () => byTestId(document, 'fault-detail')!;

function typeArea(el: HTMLTextAreaElement, value: string) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
  act(() => {
    el.focus();
    setValue.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function pick(testId: string, label: string) {
  const select = byTestId(document, testId)!.closest('.ant-select') ?? byTestId(document, testId)!;
  act(() => {
    select.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  });
  await settle();
  const option = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((o) => o.textContent === label);
  if (!option) throw new Error(`no option ${label}`);
  click(option);
  await settle();
}

function confirmButton(label: string): HTMLButtonElement {
  const dialog = document.body.querySelector('.confirm-dialog');
  if (!dialog) throw new Error('no confirmation dialog');
  const button = [...dialog.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.replace(/\s/g, '') === label.replace(/\s/g, ''));
  if (!button) throw new Error(`no ${label} button`);
  return button;
}

async function openDrawer(id: string) {
  await mount(`?id=${id}`);
  await settleUntil(() => !!byTestId(drawer(), 'fault-detail-fields'));
}

async function submitRepair() {
  await act(async () => byTestId(drawer(), 'fault-repair-submit')!.click());
  await settle(10);
}

// Rendering antd's table, selects, drawer and dialogs in jsdom takes seconds per test, many more on a
// machine shared with other test runs.
describe('faults', { timeout: 120_000 }, () => {
  it('lists the faults with what was seen in words, and counts them by kind and status', async () => {
    await mount();
    // The asset and the first occurrence do not fit 1280 px: custom columns shows them.
    showColumns(document, ['asset', 'firstAt']);
    expect(text('screen-title')).toBe('Device faults');
    expect(listCalls()[0]!.opts.query).toEqual({ page: 1, size: 10, sort: 'lastAt,desc' });
    expect(shownRows()).toEqual([SENSOR.id, GPS.id, BATTERY.id, FIXED.id]);
    expect(cell(SENSOR.id, 'fault-cell-device-id')).toBe('86000000000001');
    expect(cell(SENSOR.id, 'fault-cell-device-name')).toBe('Probe 1');
    expect(rowEl(SENSOR.id)!.textContent).toContain('Reefer 1 (沪A00001)');
    expect(cell(SENSOR.id, 'fault-cell-kind')).toBe('Sensor failure');
    expect(cell(GPS.id, 'fault-cell-status')).toBe('Repairing');
    expect(cell(FIXED.id, 'fault-cell-status')).toBe('Resolved');
    expect(cell(SENSOR.id, 'fault-cell-seen')).toBe('The temperature sensor gave no reading in 4 reports running');
    expect(cell(GPS.id, 'fault-cell-seen')).toBe('No usable GPS position in 3 reports running');
    expect(cell(BATTERY.id, 'fault-cell-seen')).toBe('Battery at 12%, below 20%');
    expect(cell(FIXED.id, 'fault-cell-seen')).toBe('Offline 3 times within 24 hours');
    expect(cell(GPS.id, 'fault-cell-repairs')).toBe('1');
    expect(cell(GPS.id, 'fault-cell-count')).toBe('2');
    expect(cell(SENSOR.id, 'fault-cell-last')).toBe(dayjs(SENSOR.lastAt).format('YYYY-MM-DD HH:mm:ss'));
    const headers = [...document.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headers).toEqual(['No.', 'Device ID', 'Device name', 'Asset', 'Fault type', 'Status', 'First seen', 'Last seen', 'Occurrences', 'What was seen', 'Repairs', 'Actions']);
    // Counters: all, each kind (none seen: 0), each status.
    expect(text('fault-counter-all-count')).toBe('7');
    expect(text('fault-counter-sensor_failure-count')).toBe('4');
    expect(text('fault-counter-gps_failure-count')).toBe('2');
    expect(text('fault-counter-bad_reports-count')).toBe('0');
    expect(text('fault-status-repairing-count')).toBe(String(STATS.byStatus[1]!.count));
    expect(byTestId(document, 'fault-counter-all')!.getAttribute('aria-pressed')).toBe('true');
    expect(statsCalls()[0]!.opts.query).toEqual({});
  });

  it('filters by kind from a counter (pressed again, it lifts the filter) and from the bar', async () => {
    await mount('?f.keyword=probe&f.lastSeenFrom=2026-03-01T00%3A00%3A00.000Z&page=3');
    expect(listCalls().at(-1)!.opts.query).toMatchObject({ keyword: 'probe', from: '2026-03-01T00:00:00.000Z', page: 3 });
    // The counters count under the keyword and the time.
    expect(statsCalls().at(-1)!.opts.query).toEqual({ keyword: 'probe', from: '2026-03-01T00:00:00.000Z' });
    click(byTestId(document, 'fault-counter-gps_failure'));
    await settle(10);
    expect(listCalls().at(-1)!.opts.query).toEqual({ keyword: 'probe', from: '2026-03-01T00:00:00.000Z', kind: 'gps_failure', page: 1, size: 10, sort: 'lastAt,desc' });
    expect(shownRows()).toEqual([GPS.id]);
    expect(text('where')).toContain('f.kind=gps_failure');
    expect(byTestId(document, 'fault-counter-gps_failure')!.getAttribute('aria-pressed')).toBe('true');
    expect(statsCalls().at(-1)!.opts.query).toEqual({ keyword: 'probe', from: '2026-03-01T00:00:00.000Z' });

    click(byTestId(document, 'fault-counter-gps_failure'));
    await settle(10);
    expect(listCalls().at(-1)!.opts.query).not.toHaveProperty('kind');

    await pick('filter-kind', 'Low battery');
    await pick('filter-kind', 'Sensor failure');
    click(byTestId(document, 'filter-search'));
    await settle(10);
    expect(listCalls().at(-1)!.opts.query).toMatchObject({ kind: 'low_battery,sensor_failure', page: 1 });
    expect(shownRows()).toEqual([SENSOR.id, BATTERY.id]);
  });

  it('filters by status from a status counter', async () => {
    await mount();
    click(byTestId(document, 'fault-status-open'));
    await settle(10);
    expect(listCalls().at(-1)!.opts.query).toMatchObject({ status: 'open', page: 1 });
  });

  it('records a repair: the action is required, "in progress" posts at once and keeps the fault repairing', async () => {
    await openDrawer(SENSOR.id);
    expect(byTestId(drawer(), 'fault-detail-seen')!.textContent).toBe('The temperature sensor gave no reading in 4 reports running');
    expect(drawer().textContent).toContain('No repairs recorded yet');
    await submitRepair();
    expect(errorOf(drawer(), 'repair_action')).toBe('Please describe the repair');
    expect(writes(world)).toEqual([]);

    type(drawer(), 'repair_action', ' Cleaned the probe contacts ');
    await pick('fault-repair-result', 'In progress');
    typeArea(drawer().querySelector<HTMLTextAreaElement>('#repair_note')!, 'Waiting for a new probe');
    await submitRepair();
    expect(document.body.querySelector('.confirm-dialog')).toBeNull();
    expect(writes(world).map((c) => [c.path, c.opts.body])).toEqual([
      [`${FAULT_API.faults}/${SENSOR.id}/repairs`, { action: 'Cleaned the probe contacts', result: 'in_progress', note: 'Waiting for a new probe' }],
    ]);
    // The answer replaces the details: the record shows, the fault is repairing, the form is empty again.
    await settleUntil(() => drawer().querySelectorAll('[data-testid=fault-repair]').length === 1);
    const line = byTestId(drawer(), 'fault-repair')!;
    expect(line.textContent).toContain('Cleaned the probe contacts');
    expect(line.textContent).toContain('In progress');
    expect(line.textContent).toContain('By fixer');
    expect(line.textContent).toContain('Waiting for a new probe');
    expect(byTestId(byTestId(drawer(), 'fault-detail-fields')!, 'fault-status-tag')!.textContent).toBe('Repairing');
    expect((document.getElementById('repair_action') as HTMLInputElement).value).toBe('');
    expect(byTestId(drawer(), 'fault-repair-form')).not.toBeNull();
  });

  it('asks before a result that resolves the fault, then shows it resolved without the form', async () => {
    await openDrawer(SENSOR.id);
    type(drawer(), 'repair_action', 'Replaced the probe');
    await submitRepair();
    // The default result (repaired) resolves: nothing is sent before the confirmation.
    expect(byTestId(document.body, 'fault-resolve-content')!.textContent).toContain('Repaired');
    expect(writes(world)).toEqual([]);
    click(confirmButton('Record'));
    await settle(10);
    expect(writes(world).map((c) => c.opts.body)).toEqual([{ action: 'Replaced the probe', result: 'repaired', note: '' }]);
    await settleUntil(() => byTestId(drawer(), 'fault-repair-form') === null);
    expect(byTestId(drawer(), 'fault-resolved-note')).not.toBeNull();
    // The list and the counters are read again.
    expect(listCalls().length).toBeGreaterThan(1);
    expect(statsCalls().length).toBeGreaterThan(1);
  });

  it('shows a resolved fault with its repairs and no form', async () => {
    await openDrawer(FIXED.id);
    const line = byTestId(drawer(), 'fault-repair')!;
    expect(line.dataset.result).toBe('replaced');
    expect(line.textContent).toContain('Replaced the SIM card');
    expect(line.textContent).toContain('Replaced');
    expect(line.textContent).toContain('Old card worn');
    expect(line.textContent).toContain(dayjs(FIXED.repairs[0]!.at).format('YYYY-MM-DD HH:mm:ss'));
    expect(byTestId(drawer(), 'fault-detail-fields')!.textContent).toContain('fixer');
    expect(byTestId(drawer(), 'fault-repair-form')).toBeNull();
    expect(byTestId(drawer(), 'fault-resolved-note')).not.toBeNull();
  });

  it('offers no repair form without fault:handle, and nothing without device:read', async () => {
    world.permissions = ['device:read'];
    await openDrawer(SENSOR.id);
    expect(byTestId(drawer(), 'fault-repair-form')).toBeNull();
    mounted!.unmount();
    mounted = undefined;
    world.permissions = ['fault:handle'];
    await mount();
    // The 403 page fetches antd's Result when shown (components/lazy-result.tsx).
    await settleUntil(() => byTestId(document, 'forbidden-page') !== null);
    expect(byTestId(document, 'forbidden-title')!.textContent).toBe('No permission');
  });

  it('exports the filters as Excel', async () => {
    requestFileMock.mockResolvedValue({ blob: new Blob(['x']), disposition: 'attachment; filename="faults.xlsx"' });
    const url = URL as unknown as { createObjectURL?: unknown; revokeObjectURL?: unknown };
    const before = { create: url.createObjectURL, revoke: url.revokeObjectURL };
    url.createObjectURL = () => 'blob:x';
    url.revokeObjectURL = () => {};
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    try {
      await mount('?f.kind=low_battery&f.status=open');
      click(byTestId(document, 'fault-export-xlsx'));
      await settle();
      expect(requestFileMock.mock.calls[0]![0]).toBe(`${FAULT_API.faults}/export`);
      expect(requestFileMock.mock.calls[0]![1]?.query).toEqual({ kind: 'low_battery', status: 'open', sort: 'lastAt,desc', format: 'xlsx' });
    } finally {
      saved.mockRestore();
      url.createObjectURL = before.create;
      url.revokeObjectURL = before.revoke;
    }
  });

  it('speaks Chinese', async () => {
    await i18next.changeLanguage('zh');
    await mount();
    showColumns(document, ['firstAt']);
    expect(text('screen-title')).toBe('设备故障');
    expect(cell(SENSOR.id, 'fault-cell-kind')).toBe('传感器故障');
    expect(cell(GPS.id, 'fault-cell-status')).toBe('维修中');
    expect(cell(SENSOR.id, 'fault-cell-seen')).toBe('连续 4 次上报温度传感器无读数');
    expect(cell(BATTERY.id, 'fault-cell-seen')).toBe('电量 12%，低于 20%');
    expect(text('fault-counter-all')).toBe('全部故障7');
    const headers = [...document.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headers).toEqual(expect.arrayContaining(['设备编号', '故障类型', '首次发现', '最近发生', '故障现象']));
  });
});
