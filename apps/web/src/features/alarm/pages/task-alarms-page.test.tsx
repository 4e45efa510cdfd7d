import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ALARM_API, type AlarmRow, type AlarmStats } from '@iotc/shared/alarm';
import { API } from '@iotc/shared/auth';
import { LIVE_API } from '@iotc/shared/live';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, type RequestOptions } from '../../../api/client.ts';
import type * as liveModule from '../../../lib/live.ts';
import type { LiveMapProps } from '../../../components/map/live-map.tsx';
import { alarm, LEVELS, user, uuid } from '../alarm-fixtures.ts';
import type { AlarmEvent } from '../api/alarm-detail.ts';
import { LIVE_FLUSH_MS } from './alarm-realtime-page.tsx';
import TaskAlarmsPage from './task-alarms-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

const live = vi.hoisted(() => ({ onAlarms: undefined as ((rows: AlarmRow[]) => void) | undefined }));
vi.mock('../../../lib/live.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof liveModule>()),
  useLiveAlarms: (onAlarms: (rows: AlarmRow[]) => void) => {
    live.onAlarms = onAlarms;
    return { status: 'open' };
  },
}));
vi.mock('../../../components/map/live-map.tsx', () => ({
  LiveMap: ({ points }: LiveMapProps<string>) => <div data-testid="live-map">{points.length}</div>,
}));

const TASK = { id: uuid(950), code: 'TT-20260301-0001' };
const ON_TASK = alarm(2, { taskId: TASK.id, task: TASK, policyName: TASK.code });
const EVENTS: AlarmEvent[] = [{ id: 1, at: '2026-03-01T02:00:00.000Z', kind: 'created', actor: null, detail: { value: 9.3 } }];
const STATS: AlarmStats = { byType: [], byLevel: [], overTime: [] };

let calls: { path: string; opts: RequestOptions | undefined }[];
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  live.onAlarms = undefined;
  calls = [];
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    if (path === API.info) return user(['alarm:read', 'alarm:handle']);
    if (path === ALARM_API.levels) return { rows: LEVELS, total: 2, page: 1, size: 100 };
    if (path === ALARM_API.alarms) return { rows: [ON_TASK], total: 1, page: 1, size: 10 };
    if (path === `${ALARM_API.alarms}/stats`) return STATS;
    if (path === `${ALARM_API.alarms}/${ON_TASK.id}`) return ON_TASK;
    if (path === `${ALARM_API.alarms}/${ON_TASK.id}/events`) return EVENTS;
    if (path === LIVE_API.mapConfig) return { tileUrl: null, tileSubdomains: null, tileAttribution: null, tileCrs: 'wgs84', tileMaxZoom: 18 };
    throw new Error(`unexpected call ${path}`);
  });
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  await setEnglish();
});

async function mount(): Promise<HTMLElement> {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={['/view/transport/alarms']}>
        <Routes>
          <Route path="/view/transport/alarms" element={<TaskAlarmsPage />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle(10);
  return mounted.container;
}

const tableRows = () => [...document.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')].map((r) => r.getAttribute('data-row-key'));
const row = (a: AlarmRow) => document.querySelector<HTMLElement>(`tr[data-row-key="${a.id}"]`);

describe('the transport tasks alarms screen', { timeout: 40_000 }, () => {
  it('asks for the active alarms of tasks only, with the task column, under the menu name', async () => {
    await mount();
    expect(byTestId(document, 'screen-title')!.textContent).toBe('Abnormal-alarm monitoring and push');
    expect(calls.find((c) => c.path === ALARM_API.alarms)!.opts!.query).toEqual({ status: 'active', inTask: 'true', page: 1, size: 10, sort: 'startedAt,desc' });
    expect(calls.find((c) => c.path === `${ALARM_API.alarms}/stats`)!.opts!.query).toMatchObject({ status: 'active', inTask: 'true' });
    expect(tableRows()).toEqual([ON_TASK.id]);
    expect(row(ON_TASK)!.querySelector('[data-testid=alarm-cell-task]')!.textContent).toBe(TASK.code);
  });

  it('takes in pushed alarms of tasks only', async () => {
    await mount();
    act(() => live.onAlarms!([alarm(4), alarm(5, { taskId: TASK.id, task: TASK })]));
    await act(async () => {
      await new Promise((r) => setTimeout(r, LIVE_FLUSH_MS + 100));
    });
    await settle();
    expect(tableRows()).toEqual([alarm(5).id, ON_TASK.id]);
  });

  it('links the alarm in its details to its task, in Chinese too', async () => {
    await i18next.changeLanguage('zh');
    await mount();
    expect(byTestId(document, 'screen-title')!.textContent).toBe('异常告警监控与推送');
    expect(document.querySelector('thead')!.textContent).toContain('所属任务');
    click(row(ON_TASK)!.querySelector('[data-testid=alarm-row-details]'));
    await settleUntil(() => byTestId(document, 'alarm-detail-task') !== null);
    const link = byTestId(document, 'alarm-detail-task') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe(`/view/transport/tasks?taskId=${TASK.id}`);
    expect(link.textContent).toBe(TASK.code);
    expect(byTestId(document, 'alarm-detail-fields')!.textContent).toContain('所属任务');
  });
});
