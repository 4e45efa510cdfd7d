import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { TRANSPORT_API } from '@iotc/shared/transport';
import { click, render, setEnglish, showColumns, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil, type } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request } from '../../../api/client.ts';
import { COUNTS, DEVICES, fakeApi, LEVEL, newWorld, ORG, task, template, uuid, writes, type FakeWorld } from '../test-fixtures.ts';
import TasksPage from './tasks-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
// Leaflet is not drawn in jsdom: the map stands in as two buttons, each a click at a known point.
vi.mock('../components/place-map.tsx', () => ({
  PlaceMap: ({ onPick, testId }: { onPick?: (lat: number, lon: number) => void; testId?: string }) => (
    <div data-testid={testId}>
      <button type="button" data-testid={`${testId}-click-a`} onClick={() => onPick?.(30.5, 120.5)} />
      <button type="button" data-testid={`${testId}-click-b`} onClick={() => onPick?.(30.7, 120.9)} />
    </div>
  ),
}));
const requestMock = vi.mocked(request);

const PENDING = task(1, { highValue: true, goodsValue: 250000 });
const MOVING = task(2, {
  status: 'in_transit',
  abnormal: true,
  abnormalReasons: ['alarm', 'late'],
  activeAlarms: 2,
  startedAt: '2026-11-24T08:05:00.000Z',
  startMode: 'auto',
});
const DONE = task(3, { status: 'completed', onTime: true });
// A planned arrival before its start: the form must refuse it.
const BACKWARDS = task(4, { plannedStart: '2026-11-24T12:00:00.000Z', plannedArrival: '2026-11-24T09:00:00.000Z' });
// A template with a stop: a task made from it takes the stop with the rest of its settings.
const STOP = { placeId: uuid(950), name: 'Kunshan hub', address: '', lat: 31.38, lon: 120.95, radiusM: 300 };
const TEMPLATE = template(1, { stops: [STOP] });

let world: FakeWorld;
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  sessionStorage.clear();
  requestMock.mockReset();
  world = newWorld([PENDING, MOVING, DONE, BACKWARDS], [TEMPLATE]);
  fakeApi(requestMock, world);
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

function Where() {
  const loc = useLocation();
  return <div data-testid="where">{loc.search}</div>;
}

async function mount(search = '') {
  const { App } = await import('antd');
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[`/view/transport/tasks${search}`]}>
        <Routes>
          <Route
            path="/view/transport/tasks"
            element={
              <>
                <TasksPage />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settleUntil(() => document.querySelectorAll('tbody tr.ant-table-row').length > 0);
}

const listCalls = () => world.calls.filter((c) => c.path === TRANSPORT_API.tasks && (c.opts.method ?? 'GET') === 'GET');
const countCalls = () => world.calls.filter((c) => c.path === `${TRANSPORT_API.tasks}/counts`);
const row = (id: string) => document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`)!;
const cell = (id: string, testId: string) => row(id).querySelector<HTMLElement>(`[data-testid=${testId}]`)!;
const shownRows = () => [...document.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')].map((tr) => tr.dataset.rowKey);
const text = (testId: string) => byTestId(document, testId)?.textContent ?? null;

function typeArea(el: HTMLTextAreaElement, value: string) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
  act(() => {
    el.focus();
    setValue.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Opens an antd select and picks the option shown as `label`, waiting for a server search. */
async function pick(testId: string, label: string) {
  const el = byTestId(document, testId)!;
  const select = el.closest('.ant-select') ?? el;
  act(() => {
    select.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  });
  const find = () => [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((o) => o.textContent === label);
  await settleUntil(() => !!find(), 5000);
  const option = find();
  if (!option) throw new Error(`no option ${label}`);
  click(option);
  await settle();
}

describe('transport tasks', { timeout: 120_000 }, () => {
  it('shows the tabs with their counts and the rows with goods, high value and abnormal tags', async () => {
    await mount();
    expect(text('screen-title')).toBe('Transport tasks');
    expect(shownRows()).toEqual([PENDING.id, MOVING.id, DONE.id, BACKWARDS.id]);
    for (const [key, n] of Object.entries(COUNTS)) expect(text(`tt-tab-${key}-count`)).toBe(String(n));
    expect([...document.querySelectorAll('.ant-tabs-tab')].map((t) => t.textContent)).toEqual([
      'All12',
      'Pending4',
      'In transit3',
      'Arrived1',
      'Completed2',
      'Cancelled2',
      'Abnormal1',
    ]);
    expect(cell(PENDING.id, 'tt-cell-code').textContent).toBe('TT-20261124-0001');
    const goods = cell(PENDING.id, 'tt-cell-goods');
    // An html cell shows its markup once the sanitiser (fetched by the first such cell) is in.
    await settleUntil(() => goods.textContent !== '');
    expect(goods.textContent).toBe('Vaccines 1 × 20 boxesHigh value¥250,000');
    expect(goods.querySelector('[data-tag=high-value]')).not.toBeNull();
    expect(cell(MOVING.id, 'tt-cell-goods').querySelector('[data-tag=high-value]')).toBeNull();
    expect(cell(MOVING.id, 'tt-cell-status').textContent).toBe('In transitAbnormal: alarm, late, open alarms: 2');
    expect(cell(PENDING.id, 'tt-cell-status').querySelector('[data-tag=abnormal]')).toBeNull();
    // When it started and whether it was on time do not fit 1280 px: custom columns shows them.
    expect(document.querySelector('[data-testid=tt-cell-started]')).toBeNull();
    showColumns(document, ['startedAt', 'onTime']);
    expect(cell(MOVING.id, 'tt-cell-started').textContent).toContain('(auto)');
    expect(cell(PENDING.id, 'tt-cell-places').textContent).toBe('Depot → Hospital');
    expect(cell(DONE.id, 'tt-cell-on-time').textContent).toBe('Yes');
    // Row actions follow the status.
    const actions = (id: string) => [...row(id).querySelectorAll<HTMLElement>('button[data-testid]')].map((b) => b.dataset.testid);
    expect(actions(PENDING.id)).toEqual(['tt-row-details', 'tt-row-edit', 'tt-row-copy', 'tt-row-start', 'tt-row-cancelled']);
    expect(actions(MOVING.id)).toEqual(['tt-row-details', 'tt-row-edit', 'tt-row-copy', 'tt-row-arrived', 'tt-row-completed', 'tt-row-handover', 'tt-row-cancelled']);
    expect(actions(DONE.id)).toEqual(['tt-row-details', 'tt-row-copy']);
  });

  it('sends the status of the tab picked, while the counts keep every status', async () => {
    await mount('?f.keyword=vacc');
    expect(listCalls().at(-1)!.opts.query).toEqual({ keyword: 'vacc', page: 1, size: 10, sort: 'createdAt,desc' });
    click(byTestId(document, 'tt-tab-abnormal'));
    await settleUntil(() => shownRows().length === 1);
    expect(listCalls().at(-1)!.opts.query).toEqual({ keyword: 'vacc', status: 'abnormal', page: 1, size: 10, sort: 'createdAt,desc' });
    expect(shownRows()).toEqual([MOVING.id]);
    expect(text('where')).toContain('f.status=abnormal');
    expect(countCalls().every((c) => c.opts.query?.status === undefined)).toBe(true);
    expect(countCalls().at(-1)!.opts.query).toEqual({ keyword: 'vacc' });

    click(byTestId(document, 'tt-tab-in_transit'));
    await settle(10);
    expect(listCalls().at(-1)!.opts.query).toMatchObject({ status: 'in_transit' });
  });

  it('cancels only with a reason, and posts it', async () => {
    await mount();
    click(row(PENDING.id).querySelector('[data-testid=tt-row-cancelled]'));
    await settle();
    const modal = document.querySelector<HTMLElement>('.tt-cancel-modal')!;
    expect(modal.textContent).toContain('Cancel task TT-20261124-0001');
    await act(async () => byTestId(document, 'tt-cancel-submit')!.click());
    await settle(10);
    expect(modal.textContent).toContain('Please give the reason for cancelling');
    typeArea(document.getElementById('tt-cancel-note') as HTMLTextAreaElement, '   ');
    await act(async () => byTestId(document, 'tt-cancel-submit')!.click());
    await settle(10);
    expect(writes(world)).toEqual([]);

    typeArea(document.getElementById('tt-cancel-note') as HTMLTextAreaElement, ' Customer called it off ');
    await act(async () => byTestId(document, 'tt-cancel-submit')!.click());
    await settle(10);
    expect(writes(world).map((c) => [c.path, c.opts.method, c.opts.body])).toEqual([
      [`${TRANSPORT_API.tasks}/${PENDING.id}/transition`, 'POST', { to: 'cancelled', note: 'Customer called it off' }],
    ]);
    await settleUntil(() => document.body.textContent!.includes('Task TT-20261124-0001 is now Cancelled'));
  });

  it('hands a running task over from its row: the receiver is required, then the hand-over is posted', async () => {
    await mount();
    click(row(MOVING.id).querySelector('[data-testid=tt-row-handover]'));
    await settle();
    const modal = document.querySelector<HTMLElement>('.tt-handover-modal')!;
    expect(modal.textContent).toContain(`Hand over the goods of task ${MOVING.code}`);
    await act(async () => byTestId(document, 'tt-handover-submit')!.click());
    await settle(10);
    expect(modal.textContent).toContain('Please enter who hands over and who receives');
    expect(writes(world)).toEqual([]);
    type(document, 'tt-handover-from', 'Carrier Wang');
    type(document, 'tt-handover-to', 'Store receiving');
    await act(async () => byTestId(document, 'tt-handover-submit')!.click());
    await settle(10);
    expect(writes(world).map((c) => [c.path, c.opts.method, c.opts.body])).toEqual([
      [`${TRANSPORT_API.tasks}/${MOVING.id}/handover`, 'POST', { from: 'Carrier Wang', to: 'Store receiving', place: '', seals: [], temperature: null, signed: false, note: '' }],
    ]);
    await settleUntil(() => document.body.textContent!.includes(`The hand-over of task ${MOVING.code} is recorded`));
    expect(document.body.textContent).toContain(`The hand-over of task ${MOVING.code} is recorded`);
  });

  it('starts a task only after a confirmation', async () => {
    await mount();
    click(row(PENDING.id).querySelector('[data-testid=tt-row-start]'));
    await settle();
    expect(writes(world)).toEqual([]);
    const dialog = document.body.querySelector('.confirm-dialog')!;
    expect(dialog.textContent).toContain('Start task TT-20261124-0001 now?');
    const ok = [...dialog.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.replace(/\s/g, '') === 'Start')!;
    click(ok);
    await settle(10);
    expect(writes(world).map((c) => c.opts.body)).toEqual([{ to: 'in_transit', note: '' }]);
  });

  it('refuses a planned arrival before the planned start, and sends nothing', async () => {
    await mount();
    click(row(BACKWARDS.id).querySelector('[data-testid=tt-row-edit]'));
    // The drawer's code comes the first time one opens.
    await settleUntil(() => document.getElementById('ttNew_goodsName') !== null);
    await settle(10);
    const drawer = byTestId(document, 'ttNew-drawer')!;
    expect(drawer.textContent).toContain('Edit task TT-20261124-0004');
    expect((document.getElementById('ttNew_goodsName') as HTMLInputElement).value).toBe('Vaccines 4');
    await act(async () => byTestId(document, 'ttNew-submit')!.click());
    await settle(10);
    await settleUntil(() => drawer.textContent!.includes('The planned arrival must be later than the planned start'));
    const item = drawer.querySelector('.ant-form-item-explain-error')!.closest('.ant-form-item')!;
    expect(item.textContent).toContain('Planned arrival');
    expect(writes(world)).toEqual([]);
  });

  it('opens the new-task form filled from ?templateId=, draws the route and sends the body the API expects', async () => {
    await mount(`?templateId=${TEMPLATE.id}`);
    await settleUntil(() => (document.getElementById('ttNew_origin_name') as HTMLInputElement | null)?.value === 'Pudong depot');
    const drawer = byTestId(document, 'ttNew-drawer')!;
    expect(drawer.textContent).toContain('New transport task from template "Shanghai run 1"');
    expect(world.calls.some((c) => c.path === `${TRANSPORT_API.templates}/${TEMPLATE.id}`)).toBe(true);
    expect((document.getElementById('ttNew_destination_name') as HTMLInputElement).value).toBe('Suzhou DC');
    expect((document.getElementById('ttNew_alarm_stayTimeoutMin') as HTMLInputElement).value).toBe('30');
    expect(text('ttNew-route-count')).toBe('Points: 3');
    // The template's stop is listed, numbered, between the origin and the destination.
    expect([...drawer.querySelectorAll('[data-testid=ttNew-stops-name]')].map((x) => x.textContent)).toEqual(['Kunshan hub']);
    // The address no longer asks for the template: a reload does not open the form again.
    expect(text('where')).not.toContain('templateId');

    // Nothing goes out without goods and a device.
    await act(async () => byTestId(document, 'ttNew-submit')!.click());
    await settle(10);
    await settleUntil(() => drawer.textContent!.includes('Please enter the goods'));
    expect(drawer.textContent).toContain('Pick at least one device for the task');
    expect(writes(world)).toEqual([]);

    type(drawer, 'ttNew_goodsName', ' Insulin ');
    await pick('ttNew-devices', 'Tracker B (860000000000012)');
    await pick('ttNew-devices', 'Tracker A (860000000000011)');
    // The route: one more point, then one undone, then two new after clearing.
    const target = [...drawer.querySelectorAll<HTMLElement>('[data-testid=ttNew-pick-target] .ant-segmented-item')];
    click(target.find((x) => x.textContent === 'Route points')!.querySelector('input'));
    await settle();
    click(byTestId(drawer, 'ttNew-map-click-a'));
    await settle();
    expect(text('ttNew-route-count')).toBe('Points: 4');
    click(byTestId(drawer, 'ttNew-route-undo'));
    click(byTestId(drawer, 'ttNew-route-clear'));
    await settle();
    expect(text('ttNew-route-count')).toBe('Points: 0');
    click(byTestId(drawer, 'ttNew-map-click-a'));
    click(byTestId(drawer, 'ttNew-map-click-b'));
    await settle();
    // A click sets the origin too.
    click(target.find((x) => x.textContent === 'Origin')!.querySelector('input'));
    await settle();
    click(byTestId(drawer, 'ttNew-map-click-b'));
    await settle();

    await act(async () => byTestId(document, 'ttNew-submit')!.click());
    await settle(10);
    await settleUntil(() => writes(world).length > 0);
    const posts = writes(world);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.path).toBe(TRANSPORT_API.tasks);
    expect(posts[0]!.opts.method).toBe('POST');
    expect(posts[0]!.opts.body).toEqual({
      orgId: ORG,
      templateId: TEMPLATE.id,
      goodsName: 'Insulin',
      goodsQuantity: null,
      goodsUnit: '',
      goodsValue: null,
      highValue: false,
      customer: '',
      assetId: null,
      deviceIds: [DEVICES[1]!.id, DEVICES[0]!.id],
      plannedStart: null,
      plannedArrival: null,
      driverName: '',
      driverPhone: '',
      contacts: [],
      remark: '',
      profileId: null,
      origin: { name: 'Pudong depot', address: 'Pudong', lat: 30.7, lon: 120.9, radiusM: 400 },
      destination: { name: 'Suzhou DC', address: '', lat: 31.3, lon: 120.6, radiusM: 600 },
      stops: [STOP],
      routeSource: 'drawn',
      route: [
        [30.5, 120.5],
        [30.7, 120.9],
      ],
      tempMin: 2,
      tempMax: 8,
      humidityMin: 30,
      humidityMax: 70,
      alarm: { levelId: LEVEL, temperature: true, humidity: true, door: true, yawM: 500, stayTimeoutS: 1800, overspeedKmh: 90, durationS: 120 },
      recipients: [{ name: 'Li', phone: '13900000000', email: '' }],
      detection: { auto: true, moveM: 300, moveS: 240, dwellS: 900 },
    });
    await settleUntil(() => text('where')!.includes(`id=${uuid(109)}`));
  });

  it("fills in the picked vehicle's bound tracker and driver, and keeps what was typed", async () => {
    await mount(`?templateId=${TEMPLATE.id}`);
    await settleUntil(() => (document.getElementById('ttNew_origin_name') as HTMLInputElement | null)?.value === 'Pudong depot');
    const drawer = byTestId(document, 'ttNew-drawer')!;
    type(drawer, 'ttNew_driverPhone', '13900000009');
    await pick('tt-carrier', '沪A12345 · Reefer truck');
    await settleUntil(() => (document.getElementById('ttNew_driverName') as HTMLInputElement).value === 'Wang Wei');
    // The phone typed before stays; the tracker bound to the truck is the task's device.
    expect((document.getElementById('ttNew_driverPhone') as HTMLInputElement).value).toBe('13900000009');
    const devices = byTestId(drawer, 'ttNew-devices')!.closest('.ant-select')!;
    await settleUntil(() => devices.textContent!.includes('Tracker A (860000000000011)'));
    expect(devices.textContent).not.toContain('Tracker B');
  });

  it('opens the details of the task of ?taskId= (the alarm screens link here), kept in the address as id', async () => {
    await mount(`?taskId=${MOVING.id}`);
    await settleUntil(() => byTestId(document, 'tt-detail-fields')?.textContent?.includes(MOVING.code) ?? false);
    expect(text('tt-detail-fields')).toContain(MOVING.code);
    expect(world.calls.some((c) => c.path === `${TRANSPORT_API.tasks}/${MOVING.id}`)).toBe(true);
    await settleUntil(() => !text('where')!.includes('taskId'));
    expect(text('where')).toBe(`?id=${MOVING.id}`);
    expect(row(MOVING.id).classList.contains('iotc-row-active')).toBe(true);
  });

  it('lets a reader look but not change anything', async () => {
    world.permissions = ['transport:read'];
    await mount();
    expect(byTestId(document, 'tt-new')).toBeNull();
    expect(byTestId(document, 'tt-import')).toBeNull();
    expect(row(PENDING.id).querySelector('[data-testid=tt-row-cancelled]')).toBeNull();
    expect(byTestId(document, 'tt-export-xlsx')).not.toBeNull();
  });
});
