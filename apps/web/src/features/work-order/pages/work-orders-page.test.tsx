import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { App } from 'antd';
import dayjs from 'dayjs';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { errorText } from '@iotc/shared/errors';
import { WORK_ORDER_API, type WorkOrderEventRow } from '@iotc/shared/work-order';
import { click, render, setEnglish, showColumns, type Rendered } from '../../../test/dom.tsx';
import { byTestId, errorOf, settle, settleUntil, type } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request } from '../../../api/client.ts';
import { alarm, ASSIGNEES, detail, fakeApi, newWorld, order, TOTALS, uuid, writes, type FakeWorld } from '../test-fixtures.ts';
import WorkOrdersPage from './work-orders-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
const requestMock = vi.mocked(request);

const LI = ASSIGNEES[0]!;
const OVERDUE = order(1, {
  priority: 'urgent',
  assignee: { id: LI.id, account: LI.account, name: LI.name },
  dueAt: '2026-03-01T12:00:00.000Z',
  overdue: true,
  alarmCount: 2,
  source: 'alarm',
});
const WORKING = order(2, { status: 'in_progress', priority: 'low', dueAt: '2099-01-01T08:00:00.000Z' });
const DONE = order(3, { status: 'resolved', resolvedAt: '2026-03-01T05:00:00.000Z' });
const CLOSED = order(4, { status: 'closed', closedAt: '2026-03-01T06:00:00.000Z' });
const CREATED = order(9, { id: uuid(109), code: 'WO-20260301-0009', title: 'Replace the door sensor' });
const EVENTS: WorkOrderEventRow[] = [
  { id: 1, at: '2026-03-01T01:00:00.000Z', kind: 'created', actor: 'admin', detail: { source: 'alarm', alarmIds: [uuid(501), uuid(502)] } },
  { id: 2, at: '2026-03-01T01:05:00.000Z', kind: 'assigned', actor: 'admin', detail: { userId: LI.id, account: LI.account, name: LI.name } },
  { id: 3, at: '2026-03-01T01:10:00.000Z', kind: 'updated', actor: 'admin', detail: { changed: ['title', 'dueAt'] } },
  { id: 4, at: '2026-03-01T01:20:00.000Z', kind: 'status_changed', actor: 'li.wei', detail: { from: 'open', to: 'in_progress', note: 'On my way' } },
];

let world: FakeWorld;
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  // The user info a previous test saved would stand in for this test's until its own arrives.
  sessionStorage.clear();
  requestMock.mockReset();
  world = newWorld(
    [OVERDUE, WORKING, DONE],
    [detail(OVERDUE, [alarm(1), alarm(2, { status: 'cleared', type: 'humidity_low' })]), detail(WORKING), detail(DONE), detail(CLOSED), detail(CREATED)],
    [[OVERDUE.id, EVENTS]],
  );
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
      <MemoryRouter initialEntries={[`/view/alarm/workOrders${search}`]}>
        <Routes>
          <Route
            path="/view/alarm/workOrders"
            element={
              <>
                <WorkOrdersPage />
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

/** The page calls (not the one-row calls of the tab totals). */
const listCalls = () => world.calls.filter((c) => c.path === WORK_ORDER_API.workOrders && (c.opts.method ?? 'GET') === 'GET' && c.opts.query?.size !== 1);
const totalCalls = () => world.calls.filter((c) => c.path === WORK_ORDER_API.workOrders && c.opts.query?.size === 1);
const row = (id: string) => document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`);
const shownRows = () => [...document.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')].map((tr) => tr.dataset.rowKey);
const cell = (id: string, testId: string) => row(id)!.querySelector<HTMLElement>(`[data-testid=${testId}]`)!;
const text = (testId: string) => byTestId(document, testId)?.textContent ?? null;
const drawer = () => byTestId(document, 'wo-detail')!;
const actionIds = () => [...(byTestId(document, 'wo-detail-actions')?.querySelectorAll<HTMLElement>('button[data-testid]') ?? [])].map((b) => b.dataset.testid);
const time = (iso: string) => dayjs(iso).format('YYYY-MM-DD HH:mm:ss');

/** Types into a textarea as a user does. */
function typeArea(el: HTMLTextAreaElement, value: string) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
  act(() => {
    el.focus();
    setValue.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Opens an antd select and picks the option shown as `label`. */
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

async function openDrawer(id: string, events = 0) {
  await mount(`?id=${id}`);
  await settleUntil(() => !!byTestId(drawer(), 'wo-detail-fields') && drawer().querySelectorAll('[data-testid=wo-event]').length === events);
}

// The first render loads antd's table, select, picker, drawer and modal code: slow on a busy machine
// (the form tests pick options and submit several times; under load they took over 40 s).
describe('work orders', { timeout: 120_000 }, () => {
  it('lists the orders with priority and status tags, an overdue due time in red, and the totals of each status', async () => {
    await mount();
    expect(text('screen-title')).toBe('Work orders');
    expect(listCalls()[0]!.opts.query).toEqual({ page: 1, size: 10, sort: 'createdAt,desc' });
    expect(shownRows()).toEqual([OVERDUE.id, WORKING.id, DONE.id]);
    expect(cell(OVERDUE.id, 'wo-cell-code').textContent).toBe('WO-20260301-0001');
    expect(cell(OVERDUE.id, 'wo-cell-title').textContent).toBe('Check reefer 1');
    expect(cell(OVERDUE.id, 'wo-cell-priority').textContent).toBe('Urgent');
    expect(cell(WORKING.id, 'wo-cell-priority').textContent).toBe('Low');
    expect(cell(OVERDUE.id, 'wo-cell-status').textContent).toBe('Open');
    expect(cell(WORKING.id, 'wo-cell-status').textContent).toBe('In progress');
    expect(cell(OVERDUE.id, 'wo-cell-assignee').textContent).toBe('Li Wei (li.wei)');
    expect(cell(WORKING.id, 'wo-cell-assignee').textContent).toBe('-');
    const overdue = cell(OVERDUE.id, 'wo-cell-due').querySelector<HTMLElement>('.ant-tag')!;
    expect(overdue.textContent).toBe(`${dayjs(OVERDUE.dueAt!).format('YYYY-MM-DD HH:mm:ss')} · Overdue`);
    expect(overdue.style.color).toBe('rgb(207, 19, 34)');
    // Not overdue: the plain time, no tag.
    expect(cell(WORKING.id, 'wo-cell-due').querySelector('.ant-tag')).toBeNull();
    expect(cell(WORKING.id, 'wo-cell-due').textContent).toBe(time(WORKING.dueAt!));
    expect(cell(OVERDUE.id, 'wo-cell-alarms').textContent).toBe('2');
    const headers = () => [...document.querySelectorAll('thead th')].map((th) => th.textContent);
    // Who created it and when do not fit 1280 px: custom columns shows them.
    expect(headers()).toEqual(['No.', 'Code', 'Title', 'Priority', 'Status', 'Assignee', 'Due', 'Alarms', 'Actions']);
    showColumns(document, ['createdBy', 'createdAt']);
    expect(headers()).toEqual(['No.', 'Code', 'Title', 'Priority', 'Status', 'Assignee', 'Due', 'Alarms', 'Created by', 'Created', 'Actions']);
    // One small call per status gives the tab totals, with the same filters.
    expect(totalCalls().map((c) => c.opts.query?.status).sort()).toEqual(['closed', 'in_progress', 'open', 'resolved']);
    for (const [status, n] of Object.entries(TOTALS)) expect(text(`wo-tab-${status}-count`)).toBe(String(n));
    expect(text('wo-tab-all-count')).toBe('10');
    expect(document.querySelector('.ant-tabs-tab-active')!.textContent).toContain('All');
  });

  it('asks for the status of the tab picked, keeps it in the address, and All asks for every status', async () => {
    await mount('?f.keyword=reefer&page=2');
    expect(listCalls().at(-1)!.opts.query).toMatchObject({ keyword: 'reefer', page: 2 });
    click(byTestId(document, 'wo-tab-in_progress'));
    await settle(10);
    expect(listCalls().at(-1)!.opts.query).toEqual({ keyword: 'reefer', status: 'in_progress', page: 1, size: 10, sort: 'createdAt,desc' });
    expect(shownRows()).toEqual([WORKING.id]);
    expect(text('where')).toContain('f.status=in_progress');
    expect(document.querySelector('.ant-tabs-tab-active')!.textContent).toContain('In progress');
    // The totals do not follow the tab: each still counts its own status.
    expect(text('wo-tab-open-count')).toBe('3');

    click(byTestId(document, 'wo-tab-all'));
    await settle(10);
    expect(listCalls().at(-1)!.opts.query).toEqual({ keyword: 'reefer', page: 1, size: 10, sort: 'createdAt,desc' });
    expect(text('where')).not.toContain('f.status');
  });

  it('sends the filters of the bar with the tab of the address', async () => {
    await mount('?f.status=open');
    expect(document.querySelector('.ant-tabs-tab-active')!.textContent).toContain('Open');
    await pick('filter-priority', 'Urgent');
    await pick('filter-assigneeId', 'Li Wei (li.wei)');
    await pick('filter-overdue', 'Overdue');
    await pick('filter-mine', 'Only mine');
    type(document.body, 'filter-keyword', ' WO-2026 ');
    click(byTestId(document, 'filter-search'));
    await settle(10);
    expect(listCalls().at(-1)!.opts.query).toEqual({
      status: 'open',
      priority: 'urgent',
      assigneeId: LI.id,
      overdue: 'true',
      mine: 'true',
      keyword: 'WO-2026',
      page: 1,
      size: 10,
      sort: 'createdAt,desc',
    });
  });

  it('creates an order: an empty title gets the schema text, then the body is sent and the new order opens', async () => {
    await mount();
    click(byTestId(document, 'wo-new'));
    await settle();
    const modal = document.querySelector<HTMLElement>('.wo-form-modal')!;
    await act(async () => byTestId(document, 'wo-form-submit')!.click());
    await settle(10);
    expect(errorOf(modal, 'woNew_title')).toBe('Please enter the title of the work order');
    expect(writes(world)).toEqual([]);
    // Blanks are no title either.
    type(modal, 'woNew_title', '   ');
    await act(async () => byTestId(document, 'wo-form-submit')!.click());
    await settle(10);
    expect(errorOf(modal, 'woNew_title')).toBe('Please enter the title of the work order');
    expect(writes(world)).toEqual([]);

    type(modal, 'woNew_title', '  Replace the door sensor ');
    await pick('wo-field-priority', 'High');
    typeArea(modal.querySelector<HTMLTextAreaElement>('#woNew_description')!, 'Door 2 reports open when closed');
    await act(async () => byTestId(document, 'wo-form-submit')!.click());
    await settle(10);
    const posts = writes(world);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.path).toBe(WORK_ORDER_API.workOrders);
    expect(posts[0]!.opts).toMatchObject({ method: 'POST' });
    expect(posts[0]!.opts.body).toEqual({
      orgId: null,
      title: 'Replace the door sensor',
      description: 'Door 2 reports open when closed',
      priority: 'high',
      assigneeId: null,
      dueAt: null,
      alarmIds: [],
    });
    await settleUntil(() => document.body.textContent!.includes('Work order WO-20260301-0009 created'));
    expect(text('where')).toContain(`id=${CREATED.id}`);
    // The list is read again.
    expect(listCalls().length).toBeGreaterThan(1);
  });

  it('shows an order from the address with its alarms and story, and only the moves its status allows', async () => {
    await openDrawer(OVERDUE.id, 4);
    const fields = byTestId(drawer(), 'wo-detail-fields')!;
    expect(fields.textContent).toContain('WO-20260301-0001');
    expect(fields.textContent).toContain('Li Wei (li.wei)');
    expect(fields.textContent).toContain('From alarms');
    expect(byTestId(fields, 'wo-detail-overdue')!.textContent).toContain('Overdue');
    const alarms = [...drawer().querySelectorAll<HTMLElement>('[data-testid=wo-alarm]')];
    expect(alarms.map((a) => a.textContent)).toEqual([
      `UrgentTemperature highTruck 1 (86000000000001)${time(alarm(1).startedAt)}Active`,
      `UrgentHumidity lowTruck 2 (86000000000002)${time(alarm(2).startedAt)}Cleared`,
    ]);
    const events = [...drawer().querySelectorAll<HTMLElement>('[data-testid=wo-event]')];
    expect(events.map((e) => e.dataset.kind)).toEqual(['created', 'assigned', 'updated', 'status_changed']);
    expect(events[0]!.textContent).toContain('From 2 alarms');
    expect(events[0]!.textContent).toContain('By admin');
    expect(events[1]!.textContent).toContain('To Li Wei (li.wei)');
    expect(events[2]!.textContent).toContain('Changed: Title, Due');
    expect(byTestId(events[3]!, 'wo-event-move')!.textContent).toBe('Open → In progress');
    expect(byTestId(events[3]!, 'wo-event-note')!.textContent).toBe('Note: On my way');
    // Open: start, resolve, close.
    expect(actionIds()).toEqual(['wo-detail-edit', 'wo-move-in_progress', 'wo-move-resolved', 'wo-move-closed']);
    expect(text('wo-move-in_progress')).toBe('Start work');
    mounted!.unmount();
    mounted = undefined;

    // Resolved: back to work (reopen) or close; closed: nothing at all.
    await openDrawer(DONE.id);
    expect(actionIds()).toEqual(['wo-detail-edit', 'wo-move-in_progress', 'wo-move-closed']);
    expect(text('wo-move-in_progress')).toBe('Reopen');
    mounted!.unmount();
    mounted = undefined;
    await openDrawer(CLOSED.id);
    expect(byTestId(document, 'wo-detail-actions')).toBeNull();
    expect(byTestId(document, 'wo-comment')).toBeNull();
  });

  it('resolves only with a note of what was done', async () => {
    await openDrawer(WORKING.id);
    expect(actionIds()).toEqual(['wo-detail-edit', 'wo-move-resolved', 'wo-move-closed']);
    click(byTestId(document, 'wo-move-resolved'));
    await settle();
    const modal = document.querySelector<HTMLElement>('.wo-resolve-modal')!;
    expect(modal.textContent).toContain('Resolve work order WO-20260301-0002');
    await act(async () => byTestId(document, 'wo-resolve-submit')!.click());
    await settle(10);
    expect(modal.textContent).toContain('Please describe what was done before resolving');
    typeArea(document.getElementById('wo-resolve-note') as HTMLTextAreaElement, '   ');
    await act(async () => byTestId(document, 'wo-resolve-submit')!.click());
    await settle(10);
    expect(writes(world)).toEqual([]);

    typeArea(document.getElementById('wo-resolve-note') as HTMLTextAreaElement, ' Replaced the probe ');
    await act(async () => byTestId(document, 'wo-resolve-submit')!.click());
    await settle(10);
    expect(writes(world).map((c) => [c.path, c.opts.body])).toEqual([[`${WORK_ORDER_API.workOrders}/${WORKING.id}/transition`, { to: 'resolved', note: 'Replaced the probe' }]]);
    // Read again: now resolved, it offers reopen and close.
    await settleUntil(() => actionIds().length === 3 && text('wo-move-in_progress') === 'Reopen');
    expect(actionIds()).toEqual(['wo-detail-edit', 'wo-move-in_progress', 'wo-move-closed']);
    expect(document.body.textContent).toContain('Status changed to Resolved');
  });

  it('closes an order only when signed with the password, and a closed order offers nothing more', async () => {
    await openDrawer(WORKING.id);
    click(byTestId(document, 'wo-move-closed'));
    await settle();
    expect(byTestId(document.body, 'wo-close-content')!.textContent).toContain('final');
    expect(writes(world)).toEqual([]);
    click(byTestId(document, 'wo-close-submit'));
    await settle(5);
    expect(writes(world)).toEqual([]);
    const password = document.querySelector<HTMLInputElement>('#wo-close-password')!;
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(password, 'Secret#2026');
      password.dispatchEvent(new Event('input', { bubbles: true }));
    });
    click(byTestId(document, 'wo-close-submit'));
    await settle(10);
    expect(writes(world).map((c) => [c.path, c.opts.body])).toEqual([
      [`${WORK_ORDER_API.workOrders}/${WORKING.id}/transition`, { to: 'closed', note: '', password: 'Secret#2026', meaning: 'responsible' }],
    ]);
    await settleUntil(() => byTestId(document, 'wo-detail-actions') === null);
    expect(byTestId(document, 'wo-comment')).toBeNull();
  });

  it('starts work at once, without a dialog', async () => {
    await openDrawer(OVERDUE.id, 4);
    click(byTestId(document, 'wo-move-in_progress'));
    await settle(10);
    expect(writes(world).map((c) => c.opts.body)).toEqual([{ to: 'in_progress', note: '' }]);
  });

  it('edits an order: a refusal naming the assignee shows on its field, then the fields are sent', async () => {
    let refuse = true;
    world.own = (path, opts) => {
      if (opts.method !== 'PUT') return undefined;
      if (refuse) throw new ApiError(400, 'ASSIGNEE_UNKNOWN', errorText('ASSIGNEE_UNKNOWN', 'en'));
      return undefined;
    };
    await openDrawer(OVERDUE.id, 4);
    click(byTestId(document, 'wo-detail-edit'));
    await settle();
    const modal = document.getElementById('woEdit_title')!.closest<HTMLElement>('.wo-form-modal')!;
    expect(modal.textContent).toContain('Edit work order');
    expect((document.getElementById('woEdit_title') as HTMLInputElement).value).toBe('Check reefer 1');
    // The current assignee shows by name before any search.
    expect(modal.textContent).toContain('Li Wei (li.wei)');
    type(modal, 'woEdit_title', 'Check reefer 1 and its door');
    await act(async () => modal.querySelector<HTMLElement>('[data-testid=wo-form-submit]')!.click());
    await settle(10);
    await settleUntil(() => modal.textContent!.includes('The user does not exist in this organisation'));
    expect(modal.querySelector('.ant-form-item-explain-error')!.closest('.ant-form-item')!.textContent).toContain('Assignee');

    refuse = false;
    await act(async () => modal.querySelector<HTMLElement>('[data-testid=wo-form-submit]')!.click());
    await settle(10);
    const puts = writes(world);
    expect(puts).toHaveLength(2);
    expect(puts[1]!.path).toBe(`${WORK_ORDER_API.workOrders}/${OVERDUE.id}`);
    expect(puts[1]!.opts.body).toEqual({ title: 'Check reefer 1 and its door', description: '', priority: 'urgent', assigneeId: LI.id, dueAt: OVERDUE.dueAt });
    await settleUntil(() => document.body.textContent!.includes('Work order saved'));
  });

  it('posts a comment and reads the story again', async () => {
    await openDrawer(OVERDUE.id, 4);
    const send = byTestId<HTMLButtonElement>(drawer(), 'wo-comment-send')!;
    expect(send.disabled).toBe(true);
    typeArea(byTestId<HTMLTextAreaElement>(drawer(), 'wo-comment-text')!, '  Parts ordered  ');
    click(byTestId(drawer(), 'wo-comment-send'));
    await settleUntil(() => drawer().querySelectorAll('[data-testid=wo-event]').length === 5);
    expect(writes(world).map((c) => [c.path, c.opts.body])).toEqual([[`${WORK_ORDER_API.workOrders}/${OVERDUE.id}/comments`, { text: 'Parts ordered' }]]);
    const last = [...drawer().querySelectorAll<HTMLElement>('[data-testid=wo-event]')].at(-1)!;
    expect(last.dataset.kind).toBe('commented');
    expect(last.textContent).toContain('Parts ordered');
    expect(world.calls.filter((c) => c.path.endsWith('/events'))).toHaveLength(2);
    expect(byTestId<HTMLTextAreaElement>(drawer(), 'wo-comment-text')!.value).toBe('');
  });

  it('lets a reader look but not change anything', async () => {
    world.permissions = ['alarm:read'];
    await openDrawer(OVERDUE.id, 4);
    expect(byTestId(document, 'wo-new')).toBeNull();
    expect(byTestId(document, 'filter-assigneeId')).toBeNull();
    expect(byTestId(document, 'wo-detail-actions')).toBeNull();
    expect(byTestId(document, 'wo-comment')).toBeNull();
    expect(world.calls.some((c) => c.path.startsWith(WORK_ORDER_API.assignees))).toBe(false);
    mounted!.unmount();
    mounted = undefined;
    world.permissions = [];
    await mount();
    // The 403 page fetches antd's Result when shown (components/lazy-result.tsx).
    await settleUntil(() => byTestId(document, 'forbidden-page') !== null);
    expect(byTestId(document, 'forbidden-title')!.textContent).toBe('No permission');
  });

  it('speaks Chinese', async () => {
    await i18next.changeLanguage('zh');
    await mount();
    expect(text('screen-title')).toBe('工单管理');
    expect([...document.querySelectorAll('.ant-tabs-tab')].map((tab) => tab.textContent)).toEqual(['全部10', '待处理3', '处理中2', '已解决1', '已关闭4']);
    expect(cell(OVERDUE.id, 'wo-cell-priority').textContent).toBe('紧急');
    expect(cell(OVERDUE.id, 'wo-cell-due').textContent).toContain('已逾期');
    const headers = [...document.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headers).toEqual(expect.arrayContaining(['工单编号', '标题', '优先级', '状态', '处理人', '截止时间']));
    click(byTestId(document, 'wo-new'));
    await settle();
    await act(async () => byTestId(document, 'wo-form-submit')!.click());
    await settle(10);
    expect(errorOf(document.querySelector<HTMLElement>('.wo-form-modal')!, 'woNew_title')).toBe('请输入工单标题');
  });
});
