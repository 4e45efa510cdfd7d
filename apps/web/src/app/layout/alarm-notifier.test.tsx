import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ALARM_API, type AlarmRow } from '@iotc/shared/alarm';
import { API, type UserInfo } from '@iotc/shared/auth';
import { click, render, setEnglish, type Rendered } from '../../test/dom.tsx';
import { settle } from '../../test/form.ts';
import type * as client from '../../api/client.ts';
import { request, type RequestOptions } from '../../api/client.ts';
import type * as liveModule from '../../lib/live.ts';
import { AlarmNotifier, isNewAlarm, MAX_NOTIFICATIONS } from './alarm-notifier.tsx';
import { AlarmSound, BEEP_GAP_MS } from './alarm-sound.ts';

vi.mock('../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

const live = vi.hoisted(() => ({ onAlarms: undefined as ((rows: AlarmRow[]) => void) | undefined }));
vi.mock('../../lib/live.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof liveModule>()),
  useLiveAlarms: (onAlarms: (rows: AlarmRow[]) => void) => {
    live.onAlarms = onAlarms;
    return { status: 'open' };
  },
}));

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const URGENT = { id: uuid(901), code: 'urgent', nameZh: '紧急', nameEn: 'Urgent', color: '#f5222d', priority: 1, sound: true };
const MINOR = { id: uuid(903), code: 'minor', nameZh: '次要', nameEn: 'Minor', color: '#fadb14', priority: 3, sound: false };

function alarm(n: number, over: Partial<AlarmRow> = {}): AlarmRow {
  return {
    id: uuid(n),
    orgId: 'o',
    orgName: 'Demo Logistics',
    type: 'temp_high',
    status: 'active',
    level: URGENT,
    policyId: null,
    policyName: 'Cold chain',
    ruleId: 'r1',
    device: { id: uuid(100 + n), deviceId: `86000000000${String(n).padStart(4, '0')}`, name: `Truck ${n}` },
    asset: null,
    taskId: null,
    task: null,
    startedAt: '2026-03-01T01:00:00.000Z',
    lastAt: '2026-03-01T01:00:00.000Z',
    endedAt: null,
    lat: null,
    lon: null,
    threshold: 8,
    unit: '°C',
    value: 9.3,
    peak: 9.3,
    count: 1,
    acknowledgedAt: null,
    acknowledgedBy: null,
    closedBy: null,
    closeReason: null,
    assignee: null,
    workOrder: null,
    sources: [],
    ...over,
  };
}

function user(permissions: string[]): UserInfo {
  return { id: 'u1', account: 'op', name: 'Op', orgId: 'o', orgName: 'Org', email: null, phone: null, roles: [], permissions, isPlatformAdmin: false, mustChangePassword: false };
}

/** A Web Audio context that records the tones it was asked to play. */
class FakeAudio {
  static made = 0;
  static tones = 0;
  state: AudioContextState = 'running';
  currentTime = 0;
  destination = {};
  constructor() {
    FakeAudio.made += 1;
  }
  resume() {
    this.state = 'running';
    return Promise.resolve();
  }
  close() {
    return Promise.resolve();
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect() {} };
  }
  createOscillator() {
    return {
      type: 'sine',
      frequency: { setValueAtTime() {} },
      connect() {},
      start: () => {
        FakeAudio.tones += 1;
      },
      stop() {},
    };
  }
}

let permissions: string[];
let calls: { path: string; opts: RequestOptions | undefined }[];
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  live.onAlarms = undefined;
  FakeAudio.made = 0;
  FakeAudio.tones = 0;
  vi.stubGlobal('AudioContext', FakeAudio);
  permissions = ['alarm:read', 'alarm:handle'];
  calls = [];
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    if (path === API.info) return user(permissions);
    if (path.endsWith('/acknowledge')) return alarm(1, { acknowledgedAt: '2026-03-01T01:05:00.000Z', acknowledgedBy: 'op' });
    throw new Error(`unexpected call ${path}`);
  });
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  await setEnglish();
});

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

async function mount() {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={['/view/deviceManage/devices']}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                <AlarmNotifier />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle(5);
}

async function push(...rows: AlarmRow[]) {
  act(() => live.onAlarms!(rows));
  await settle();
}

/** The alarm notifications on screen (ones closing are still in the document while they fade). */
function notices(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('.ant-notification-notice')].filter(
    (n) => n.querySelector('[data-testid=alarm-notification]') && !n.closest('.ant-notification-fade-leave, [class*=-leave]'),
  );
}
const ids = () => notices().map((n) => n.querySelector<HTMLElement>('[data-testid=alarm-notification]')!.dataset.alarmId);

async function waitGone() {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 400));
  });
  await settle();
}

describe('alarm notifications', { timeout: 30_000 }, () => {
  it('announces a new alarm at the bottom right with level, type, device, value and time', async () => {
    await mount();
    await push(alarm(1));
    const [notice] = notices();
    expect(notice).toBeDefined();
    expect(notice!.closest('.ant-notification-bottomRight')).not.toBeNull();
    expect(notice!.textContent).toContain('Urgent');
    expect(notice!.textContent).toContain('Temperature high');
    expect(notice!.textContent).toContain('Truck 1 (860000000000001)');
    expect(notice!.textContent).toContain('Value: 9.3 °C');
    expect(notice!.textContent).toMatch(/Time: 2026-03-01 \d\d:00:00/);
    expect(notice!.style.borderInlineStart).toContain('4px solid');
    expect(notice!.querySelector<HTMLElement>('.ant-tag')!.style.background).toBe('rgb(220, 31, 40)');
  });

  it('says nothing for a repeat of a known alarm, a changed one or one that opened earlier', async () => {
    await mount();
    await push(alarm(1));
    await push(alarm(1), alarm(1, { count: 2 }));
    // Seen before the notifier started: already past its first report.
    await push(alarm(2, { count: 7 }));
    await push(alarm(3, { status: 'cleared' }));
    expect(ids()).toEqual([uuid(1)]);
    expect(isNewAlarm(alarm(4), new Set())).toBe(true);
    expect(isNewAlarm(alarm(4), new Set([uuid(4)]))).toBe(false);
  });

  it('acknowledges from the notification, which then closes', async () => {
    await mount();
    await push(alarm(1));
    click(notices()[0]!.querySelector('[data-testid=alarm-notification-acknowledge]'));
    await settle(5);
    expect(calls.find((c) => c.path.endsWith('/acknowledge'))).toMatchObject({ path: `${ALARM_API.alarms}/${uuid(1)}/acknowledge`, opts: { method: 'POST' } });
    await waitGone();
    expect(ids()).toEqual([]);
  });

  it('opens the real-time alarms from View', async () => {
    await mount();
    await push(alarm(1));
    click(notices()[0]!.querySelector('[data-testid=alarm-notification-view]'));
    await settle();
    expect(document.querySelector('[data-testid=where]')!.textContent).toBe('/view/alarm/realtime');
  });

  it('offers no Acknowledge to a user who may not handle alarms', async () => {
    permissions = ['alarm:read'];
    await mount();
    await push(alarm(1));
    expect(notices()[0]!.querySelector('[data-testid=alarm-notification-acknowledge]')).toBeNull();
    expect(notices()[0]!.querySelector('[data-testid=alarm-notification-view]')).not.toBeNull();
  });

  it('keeps at most five on screen, closing the oldest, and closes one handled elsewhere', async () => {
    await mount();
    for (let n = 1; n <= 7; n += 1) await push(alarm(n, { level: MINOR }));
    await waitGone();
    expect(ids()).toEqual([3, 4, 5, 6, 7].map(uuid).slice(-MAX_NOTIFICATIONS));
    await push(alarm(5, { level: MINOR, status: 'cleared' }));
    await waitGone();
    expect(ids()).toEqual([3, 4, 6, 7].map(uuid));
  });

  it('beeps for levels with sound, at most once a second', async () => {
    await mount();
    await push(alarm(1, { level: MINOR }));
    expect(FakeAudio.tones).toBe(0);
    await push(alarm(2), alarm(3));
    expect(FakeAudio.tones).toBe(1);
  });

  it('speaks Chinese', async () => {
    await i18next.changeLanguage('zh');
    await mount();
    await push(alarm(1));
    // Without the app's ConfigProvider antd spaces out two-character button texts.
    const text = notices()[0]!.textContent!.replace(/\s+/g, '');
    expect(text).toContain('紧急');
    expect(text).toContain('温度过高');
    expect(text).toContain('确认');
    expect(text).toContain('查看');
  });
});

describe('alarm sound', () => {
  it('plays one beep a second, and none while audio is blocked, without an error', () => {
    let now = 0;
    let state: AudioContextState = 'suspended';
    const ctx = Object.assign(new FakeAudio(), {});
    Object.defineProperty(ctx, 'state', { get: () => state });
    const resume = vi.spyOn(ctx, 'resume').mockImplementation(() => Promise.reject(new Error('not allowed')));
    const sound = new AlarmSound(
      () => ctx as unknown as AudioContext,
      () => now,
    );
    FakeAudio.tones = 0;
    expect(sound.beep()).toBe(false);
    expect(resume).toHaveBeenCalled();
    state = 'running';
    expect(sound.beep()).toBe(true);
    now += BEEP_GAP_MS - 1;
    expect(sound.beep()).toBe(false);
    now += 1;
    expect(sound.beep()).toBe(true);
    expect(FakeAudio.tones).toBe(2);
    expect(new AlarmSound(() => null).beep()).toBe(false);
  });
});
