import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { act } from 'react';
import type { PlatformAlarm } from '@iotc/shared/platform-alarms';
import { render, setEnglish, type Rendered } from '../../test/dom.tsx';

const state = vi.hoisted(() => ({ admin: true, alarms: [] as unknown[], asked: [] as boolean[] }));
vi.mock('../../api/info.ts', () => ({ useInfo: () => ({ data: { isPlatformAdmin: state.admin } }) }));
vi.mock('../../api/platform-alarms.ts', () => ({
  usePlatformAlarms: (enabled: boolean) => {
    state.asked.push(enabled);
    return { data: enabled ? state.alarms : undefined };
  },
}));
const { PlatformAlarmBanner } = await import('./platform-alarm-banner.tsx');

const alarm = (status: PlatformAlarm['status']): PlatformAlarm => ({
  code: 'DATABASE_NOT_WRITABLE',
  level: 'important',
  status,
  titleZh: '数据库无法写入，设备上报暂停接收',
  titleEn: 'The database cannot write: device reports are being refused',
  bodyZh: '请释放磁盘空间。',
  bodyEn: 'Free disk space.',
  startedAt: '2026-11-27T06:00:00.000Z',
  endedAt: status === 'active' ? null : '2026-11-27T06:01:00.000Z',
  details: {},
});

let mounted: Rendered | undefined;
const banner = () => document.querySelector('[data-testid=platform-alarm-banner]');

beforeEach(async () => {
  await setEnglish();
  state.admin = true;
  state.alarms = [];
  state.asked = [];
});
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

describe('platform alarm banner', () => {
  it('shows a platform administrator the active alarm in the interface language, as an alert', async () => {
    state.alarms = [alarm('active')];
    mounted = render(<PlatformAlarmBanner />);
    expect(banner()?.tagName).toBe('SECTION');
    expect(banner()?.querySelector('[role=alert]')).not.toBeNull();
    expect(banner()?.getAttribute('aria-label')).toBe('Platform alarm');
    expect(banner()?.textContent).toContain('The database cannot write');
    expect(banner()?.textContent).toContain('Free disk space.');
    await act(() => i18next.changeLanguage('zh'));
    mounted.rerender(<PlatformAlarmBanner />);
    expect(banner()?.getAttribute('aria-label')).toBe('平台告警');
    expect(banner()?.textContent).toContain('数据库无法写入');
    expect(banner()?.textContent).toContain('开始于');
  });

  it('shows nothing once the alarm has ended, and never asks for a user who is not a platform administrator', () => {
    state.alarms = [alarm('cleared')];
    mounted = render(<PlatformAlarmBanner />);
    expect(banner()).toBeNull();
    mounted.unmount();
    state.admin = false;
    state.alarms = [alarm('active')];
    state.asked = [];
    mounted = render(<PlatformAlarmBanner />);
    expect(banner()).toBeNull();
    expect(state.asked.every((e) => !e)).toBe(true);
  });
});
