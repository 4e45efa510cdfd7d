import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ALARM_API, type AlarmRow } from '@iotc/shared/alarm';
import { API } from '@iotc/shared/auth';
import type { Page } from '@iotc/shared/envelope';
import { WORK_ORDER_API, type AssigneeRow } from '@iotc/shared/work-order';
import i18next from 'i18next';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, type RequestOptions } from '../../../api/client.ts';
import { alarm, LEVELS, user, uuid } from '../alarm-fixtures.ts';
import type { AlarmEvent } from '../api/alarm-detail.ts';
import { priorityOfLevel } from '../components/open-work-order-modal.tsx';
import AlarmFlowPage from './alarm-flow-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

const OPEN = alarm(1);
const IN_ORDER = alarm(2, { acknowledgedAt: '2026-03-01T02:10:00.000Z', acknowledgedBy: 'admin', workOrder: { id: uuid(700), code: 'WO-20260301-0001', status: 'in_progress' } });
const EVENTS: AlarmEvent[] = [
  { id: 1, at: '2026-03-01T01:00:00.000Z', kind: 'created', actor: null, detail: { value: 9.3 } },
  { id: 2, at: '2026-03-01T01:20:00.000Z', kind: 'work_order_opened', actor: 'admin', detail: { workOrderId: uuid(700), code: 'WO-20260301-0001' } },
];
const ASSIGNEES: AssigneeRow[] = [
  { id: uuid(801), account: 'li.lei', name: 'Li Lei', orgId: 'o', orgName: 'Demo Logistics' },
  { id: uuid(802), account: 'han.mei', name: 'Han Meimei', orgId: 'o', orgName: 'Demo Logistics' },
];

let rows: AlarmRow[];
let calls: { path: string; opts: RequestOptions | undefined }[];
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  rows = [OPEN, IN_ORDER];
  calls = [];
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    if (path === API.info) return user(['alarm:read', 'alarm:handle']);
    if (path === ALARM_API.levels) return { rows: LEVELS, total: 2, page: 1, size: 100 };
    if (path === ALARM_API.alarms) return { rows, total: rows.length, page: 1, size: 10 } satisfies Page<AlarmRow>;
    if (path === `${ALARM_API.alarms}/${OPEN.id}`) return OPEN;
    if (path === `${ALARM_API.alarms}/${IN_ORDER.id}`) return IN_ORDER;
    if (path.endsWith('/events')) return EVENTS;
    if (path === WORK_ORDER_API.assignees) return ASSIGNEES;
    if (path === `${ALARM_API.alarms}/${OPEN.id}/assign`) {
      const who = ASSIGNEES.find((a) => a.id === (opts?.body as { userId: string }).userId)!;
      return { ...OPEN, assignee: { id: who.id, account: who.account, name: who.name } };
    }
    if (path === WORK_ORDER_API.workOrders && opts?.method === 'POST') return { id: uuid(701), code: 'WO-20260301-0002' };
    throw new Error(`unexpected call ${path}`);
  });
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
      <MemoryRouter initialEntries={[`/view/alarm/flow${search}`]}>
        <Routes>
          <Route
            path="/view/alarm/flow"
            element={
              <>
                <AlarmFlowPage />
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

const listCalls = () => calls.filter((c) => c.path === ALARM_API.alarms);
const row = (id: string) => document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`);

/** Opens the antd select inside `id`'s form item, types `text` and picks the option starting with `label`. */
async function pickRemote(id: string, text: string, label: string) {
  const input = document.getElementById(id) as HTMLInputElement;
  const select = input.closest('.ant-select')!;
  act(() => {
    select.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  });
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setValue.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await settleUntil(() => [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].some((o) => o.textContent?.startsWith(label)), 5000);
  click([...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((o) => o.textContent?.startsWith(label))!);
  await settle();
}

describe('alarm flow', { timeout: 40_000 }, () => {
  it('starts with the alarms waiting to be acknowledged, and each stage asks for its own alarms', async () => {
    await mount();
    expect(listCalls()[0]!.opts!.query).toMatchObject({ status: 'active', acknowledged: 'false', sort: 'startedAt,desc' });
    const stages: [string, Record<string, string>][] = [
      ['mine', { mine: 'true', status: 'active,cleared' }],
      ['workOrders', { inWorkOrder: 'true' }],
      ['closed', { status: 'closed' }],
    ];
    for (const [stage, expected] of stages) {
      click(byTestId(document, `alarm-flow-stage-${stage}`));
      await settle(10);
      const query = listCalls().at(-1)!.opts!.query!;
      expect(query).toMatchObject(expected);
      expect(byTestId(document, 'where')!.textContent).toContain(`stage=${stage}`);
    }
    click(byTestId(document, 'alarm-flow-stage-all'));
    await settle(10);
    const all = listCalls().at(-1)!.opts!.query!;
    expect(all.status).toBeUndefined();
    expect(all.mine).toBeUndefined();
    expect(all.inWorkOrder).toBeUndefined();
    // The window stays: the last 7 days.
    expect(Date.parse(String(all.to)) - Date.parse(String(all.from))).toBe(7 * 86_400_000);
  });

  it('shows who handles each alarm and its work order, with the handling buttons of each row', async () => {
    await mount('?stage=all');
    expect(row(IN_ORDER.id)!.querySelector('[data-testid=alarm-cell-work-order]')!.textContent).toBe('WO-20260301-0001');
    expect(row(OPEN.id)!.querySelector('[data-testid=alarm-row-work-order]')).not.toBeNull();
    // An alarm in a work order is not put in another.
    expect(row(IN_ORDER.id)!.querySelector('[data-testid=alarm-row-work-order]')).toBeNull();
    expect(row(OPEN.id)!.querySelector('[data-testid=alarm-row-assign]')).not.toBeNull();
  });

  it('assigns an alarm to a user picked from the assignees', async () => {
    await mount(`?stage=all&alarm=${OPEN.id}`);
    await settleUntil(() => byTestId(document, 'alarm-detail-assign') !== null);
    click(byTestId(document, 'alarm-detail-assign'));
    // The dialog's code comes when it first opens.
    await settleUntil(() => document.getElementById('alarm-assign-submit') !== null);
    // Nobody picked: nothing is sent.
    click(document.getElementById('alarm-assign-submit'));
    await settle(10);
    expect(document.body.textContent).toContain('Please pick the user who handles the alarm');
    expect(calls.some((c) => c.path.endsWith('/assign'))).toBe(false);

    await pickRemote('alarm-assign-user', 'han', 'Han Meimei');
    expect(calls.find((c) => c.path === WORK_ORDER_API.assignees)!.opts!.query).toEqual({ keyword: 'han' });
    click(document.getElementById('alarm-assign-submit'));
    await settle(10);
    expect(calls.find((c) => c.path.endsWith('/assign'))).toMatchObject({ path: `${ALARM_API.alarms}/${OPEN.id}/assign`, opts: { method: 'POST', body: { userId: uuid(802) } } });
    expect(document.body.textContent).toContain('Assigned to Han Meimei');
  });

  it('opens a work order for the alarm with a title and priority taken from it', async () => {
    await mount(`?stage=all&alarm=${OPEN.id}`);
    await settleUntil(() => byTestId(document, 'alarm-detail-work-order-open') !== null);
    click(byTestId(document, 'alarm-detail-work-order-open'));
    await settleUntil(() => document.getElementById('alarm-work-order-title') !== null);
    expect((document.getElementById('alarm-work-order-title') as HTMLInputElement).value).toBe('Temperature high · Truck 1');
    click(document.getElementById('alarm-work-order-submit'));
    await settle(10);
    const posted = calls.find((c) => c.path === WORK_ORDER_API.workOrders)!;
    expect(posted.opts).toMatchObject({ method: 'POST', body: { title: 'Temperature high · Truck 1', priority: 'urgent', alarmIds: [OPEN.id], assigneeId: null, dueAt: null } });
    expect(document.body.textContent).toContain('Work order WO-20260301-0002 opened');
  });

  it('links the alarm to its work order and shows the work order in the timeline, in Chinese too', async () => {
    await i18next.changeLanguage('zh');
    await mount(`?stage=workOrders&alarm=${IN_ORDER.id}`);
    const drawer = byTestId(document, 'alarm-detail')!;
    await settleUntil(() => drawer.querySelectorAll('[data-testid=alarm-event]').length === 2);
    const link = byTestId(drawer, 'alarm-detail-work-order') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe(`/view/alarm/workOrders?id=${uuid(700)}`);
    expect(link.textContent).toBe('WO-20260301-0001 · 处理中');
    const opened = [...drawer.querySelectorAll<HTMLElement>('[data-testid=alarm-event]')].at(-1)!;
    expect(opened.textContent).toContain('创建工单');
    expect(opened.textContent).toContain('工单 WO-20260301-0001');
    expect(byTestId(document, 'alarm-detail-work-order-open')).toBeNull();
    expect(byTestId(document, 'screen-title')!.textContent).toBe('告警流转');
  });

  it('maps level priorities to work order priorities', () => {
    expect([1, 2, 3, 4, 9, 0].map(priorityOfLevel)).toEqual(['urgent', 'high', 'medium', 'low', 'low', 'urgent']);
  });
});
