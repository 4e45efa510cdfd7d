import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { Page } from '@iotc/shared/envelope';
import { HOME_API, LIVE_API, type HomeAlert, type Notice, type StatusCounts } from '@iotc/shared/live';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request, type RequestOptions } from '../../../api/client.ts';
import { alertSentence } from '../components/alert-item.tsx';
import { nextFeedPage } from '../api/feed.ts';
import HomePage from './home-page.tsx';

// The api modules run as they are; only the one HTTP client under them answers from the test.
vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

const COUNTS: StatusCounts = { all: 42, unused: 3, shutdown: 5, offline: 7, parked: 11, driving: 16 };

function alert(i: number, over: Partial<HomeAlert> = {}): HomeAlert {
  return {
    device: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    deviceId: `86000000000${String(i).padStart(4, '0')}`,
    name: `Truck ${i}`,
    kind: 'tempHigh',
    value: 9.3,
    limit: 8,
    time: '2026-03-01T04:05:06Z',
    ...over,
  };
}

function notice(id: string, body: string): Notice {
  return { id, title: `Notice ${id}`, body, level: 'info', publishedAt: '2026-03-01T00:00:00Z' };
}

function page<T>(all: T[], opts: RequestOptions | undefined): Page<T> {
  const p = Number(opts?.query?.page ?? 1);
  const size = Number(opts?.query?.size ?? 10);
  return { rows: all.slice((p - 1) * size, p * size), total: all.length, page: p, size };
}

let alerts: HomeAlert[] = [];
let notices: Notice[] = [];
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  alerts = [];
  notices = [];
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    if (path === LIVE_API.summary) return COUNTS;
    if (path === HOME_API.alerts) return page(alerts, opts);
    if (path === HOME_API.notices) return page(notices, opts);
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
  return <div data-testid="where">{`${loc.pathname}${loc.search}`}</div>;
}

async function mount(): Promise<HTMLElement> {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={['/view/home/home']}>
        <Routes>
          <Route path="/view/home/home" element={<HomePage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle();
  return mounted.container;
}

function text(root: ParentNode, id: string): string | null | undefined {
  return byTestId(root as HTMLElement, id)?.textContent;
}

// The first render loads antd's list, card and modal code: slow on a busy machine.
describe('home screen', { timeout: 30_000 }, () => {
  it('shows the title and the device counts by status', async () => {
    const root = await mount();
    expect(text(root, 'screen-title')).toBe('High-value product transport scenario');
    for (const [key, n] of Object.entries(COUNTS)) expect(text(root, `home-status-${key}-count`)).toBe(String(n));
    expect(text(root, 'home-status-driving')).toContain('Driving');
    expect(text(root, 'home-status-offline')).toContain('16.7% of all');
  });

  it("opens the vehicle scenario's real-time monitoring filtered by the clicked status", async () => {
    const root = await mount();
    click(byTestId(root, 'home-status-parked'));
    await settle();
    expect(text(root, 'where')).toBe('/view/scenario_vehicle/deviceManage/realTimeMonitoring?status=parked');
  });

  it('reads alerts page by page and says All loaded after the last one', async () => {
    alerts = Array.from({ length: 12 }, (_, i) => alert(i + 1));
    const root = await mount();
    expect(root.querySelectorAll('[data-testid=home-alerts-item]')).toHaveLength(10);
    expect(text(root, 'home-alert-text')).toBe('Temperature 9.3 °C above the upper limit 8 °C');
    expect(byTestId(root, 'home-alerts-all-loaded')).toBeNull();

    click(byTestId(root, 'home-alerts-more'));
    await settle();
    expect(root.querySelectorAll('[data-testid=home-alerts-item]')).toHaveLength(12);
    expect(text(root, 'home-alerts-all-loaded')).toBe('All loaded');
    expect(byTestId(root, 'home-alerts-more')).toBeNull();
    const pages = requestMock.mock.calls.filter(([p]) => p === HOME_API.alerts).map(([, o]) => o?.query);
    expect(pages).toEqual([
      { page: 1, size: 10 },
      { page: 2, size: 10 },
    ]);
  });

  it("opens an alert's device on the monitoring screen", async () => {
    alerts = [alert(1, { kind: 'doorOpen', value: null, limit: null })];
    const root = await mount();
    expect(text(root, 'home-alert-text')).toBe('Door open');
    expect(text(root, 'home-alerts-item')).toContain('Truck 1 (860000000000001)');
    expect(text(root, 'home-alerts-item')).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    click(byTestId(root, 'home-alert-details'));
    await settle();
    expect(text(root, 'where')).toBe(`/view/deviceManage/realTimeMonitoring?device=${alerts[0]!.device}`);
  });

  it('shows empty states when there is nothing to list', async () => {
    const root = await mount();
    expect(byTestId(root, 'home-alerts-empty')).not.toBeNull();
    expect(byTestId(root, 'home-notices-empty')).not.toBeNull();
  });

  it("shows a notice's body, and 'No details!' when it has none", async () => {
    notices = [notice('a', 'Maintenance on Sunday 02:00-04:00.'), notice('b', '')];
    const root = await mount();
    expect(text(root, 'home-notices-all-loaded')).toBe('All loaded');
    const links = root.querySelectorAll('[data-testid=home-notice-details]');
    expect(links).toHaveLength(2);

    click(links[0]);
    await settle();
    expect(document.querySelector('[data-testid=home-notice-body]')?.textContent).toBe('Maintenance on Sunday 02:00-04:00.');
    expect(document.querySelector('[data-testid=home-notice-no-details]')).toBeNull();

    click(links[1]);
    await settle();
    expect(document.querySelector('[data-testid=home-notice-no-details]')?.textContent).toBe('No details!');
  });

  it('offers a retry when a feed fails to load', async () => {
    let fail = true;
    requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
      if (path === LIVE_API.summary) return COUNTS;
      if (path === HOME_API.alerts) {
        if (fail) throw new ApiError(500, 'INTERNAL', 'boom');
        return page([alert(1)], opts);
      }
      if (path === HOME_API.notices) return page([], opts);
      throw new Error(`unexpected call ${path}`);
    });
    const root = await mount();
    expect(byTestId(root, 'home-alerts-error')).not.toBeNull();
    fail = false;
    click(byTestId(root, 'home-alerts-retry'));
    await settle();
    expect(root.querySelectorAll('[data-testid=home-alerts-item]')).toHaveLength(1);
  });

  it('speaks Chinese', async () => {
    await i18next.changeLanguage('zh');
    notices = [notice('b', '  ')];
    alerts = [alert(1)];
    const root = await mount();
    expect(text(root, 'screen-title')).toBe('高价值商品运输场景');
    expect(text(root, 'home-alert-text')).toBe('温度 9.3 °C 高于上限 8 °C');
    expect(text(root, 'home-alerts-all-loaded')).toBe('已全部加载');
    click(byTestId(root, 'home-notice-details'));
    await settle();
    expect(document.querySelector('[data-testid=home-notice-no-details]')?.textContent).toBe('暂无详情！');
  });
});

describe('alert sentences and paging', () => {
  it('words every kind with its numbers', () => {
    const t = i18next.getFixedT('en');
    expect(alertSentence(alert(1, { kind: 'tempLow', value: -2.25, limit: 2 }), t)).toBe('Temperature -2.3 °C below the lower limit 2 °C');
    expect(alertSentence(alert(1, { kind: 'humidityHigh', value: 91.04, limit: 85 }), t)).toBe('Humidity 91% above the upper limit 85%');
    expect(alertSentence(alert(1, { kind: 'lowBattery', value: 12.5, limit: 20 }), t)).toBe('Battery 12.5% below the low-battery threshold 20%');
    expect(alertSentence(alert(1, { kind: 'offline', value: null, limit: null }), t)).toBe('Device offline');
    // A reading without its numbers still says what is wrong.
    expect(alertSentence(alert(1, { kind: 'tempHigh', value: null, limit: null }), t)).toBe('Temperature too high');
  });

  it('asks for another page only while rows remain', () => {
    const p = (page: number, n: number, total: number) => ({ rows: Array.from({ length: n }, (_, i) => i), total, page, size: 10 });
    expect(nextFeedPage(p(1, 10, 25), [p(1, 10, 25)])).toBe(2);
    expect(nextFeedPage(p(3, 5, 25), [p(1, 10, 25), p(2, 10, 25), p(3, 5, 25)])).toBeUndefined();
    expect(nextFeedPage(p(2, 0, 25), [p(1, 10, 25), p(2, 0, 25)])).toBeUndefined();
  });
});
