import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ALARM_API } from '@iotc/shared/alarm';
import { errorText } from '@iotc/shared/errors';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { blur, byTestId, errorOf, settle, type } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request } from '../../../api/client.ts';
import { fakeApi, LEVEL_IDS, LEVELS, until, writes } from '../test-fixtures.ts';
import AlarmLevelsPage from './alarm-levels-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
const requestMock = vi.mocked(request);

let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  requestMock.mockReset();
  fakeApi(requestMock);
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
      <MemoryRouter initialEntries={['/view/alarm/levels']}>
        <Routes>
          <Route path="/view/alarm/levels" element={<AlarmLevelsPage />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle(8);
  await until(() => expect(rows(mounted!.container)).toHaveLength(4), () => settle(1));
  return mounted.container;
}

function rows(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')];
}
const headers = (root: ParentNode) => [...root.querySelectorAll('thead th')].map((th) => th.textContent);
const cells = (tr: HTMLElement) => [...tr.querySelectorAll('td')].map((td) => td.textContent);

function confirmButton(text: string): HTMLButtonElement {
  const dialog = document.body.querySelector('.confirm-dialog');
  if (!dialog) throw new Error('no confirmation dialog');
  const button = [...dialog.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.replace(/\s/g, '') === text.replace(/\s/g, ''));
  if (!button) throw new Error(`no ${text} button`);
  return button;
}

describe('alarm levels screen', () => {
  it('lists the levels by priority with their colours, in English', async () => {
    const root = await mount();
    expect(byTestId(root, 'screen-title')?.textContent).toBe('Alarm levels');
    const list = requestMock.mock.calls.find(([p, o]) => p === ALARM_API.levels && o?.query);
    expect(list?.[1]?.query).toMatchObject({ page: 1, size: 10, sort: 'priority,asc' });
    expect(headers(root)).toEqual(['No.', 'Code', 'Name (Chinese)', 'Name (English)', 'Priority', 'Sound', 'Organisation', 'Rules using it', 'Updated', 'Actions']);
    const first = cells(rows(root)[0]!);
    expect(first.slice(0, 9)).toEqual(['1', 'urgent', '紧急', 'Urgent', '1', 'Sound on', 'Cold Chain Co', '2', expect.stringMatching(/^2026-03-01 \d\d:30:00$/)]);
    expect(cells(rows(root)[2]!)[5]).toBe('Silent');
    const swatch = rows(root)[0]!.querySelector<HTMLElement>('[data-testid=level-code] .ant-tag')!;
    // The level's #f5222d, darkened until its white code reads at 4.5:1 (lib/color tagColoursOn).
    expect(swatch.style.background).toBe('rgb(220, 31, 40)');
    expect(byTestId(root, 'level-new')).not.toBeNull();
  });

  it('speaks Chinese', async () => {
    await i18next.changeLanguage('zh');
    const root = await mount();
    expect(byTestId(root, 'screen-title')?.textContent).toBe('告警等级');
    expect(headers(root)).toEqual(['序号', '等级编码', '中文名称', '英文名称', '优先级', '声音提醒', '所属组织', '使用该等级的规则数', '更新时间', '操作']);
    expect(cells(rows(root)[0]!)[5]).toBe('有声');
    expect(byTestId(root, 'level-new')?.textContent?.replace(/\s/g, '')).toBe('新增等级');
  });

  it('deletes a level only after the confirmation naming it', async () => {
    fakeApi(requestMock, (path, opts) => (opts.method === 'DELETE' ? null : undefined));
    const root = await mount();
    click(rows(root)[2]!.querySelector('[data-testid=level-action-delete]'));
    await settle();
    expect(document.body.querySelector('[data-testid=level-delete-content]')?.textContent).toContain('The level "Minor / 次要" (minor) of Cold Chain Co will be deleted.');
    expect(writes(requestMock)).toEqual([]);
    click(confirmButton('Delete'));
    await settle();
    expect(writes(requestMock)).toEqual([[`${ALARM_API.levels}/${LEVEL_IDS[2]}`, expect.objectContaining({ method: 'DELETE' })]]);
    await until(() => expect(document.body.textContent).toContain('Deleted'), () => settle(1));
  });

  it('shows why a level in use cannot be deleted', async () => {
    await i18next.changeLanguage('zh');
    fakeApi(requestMock, (path, opts) => {
      if (opts.method === 'DELETE') throw new ApiError(409, 'LEVEL_IN_USE', errorText('LEVEL_IN_USE', 'zh'));
      return undefined;
    });
    const root = await mount();
    click(rows(root)[0]!.querySelector('[data-testid=level-action-delete]'));
    await settle();
    expect(document.body.querySelector('[data-testid=level-delete-content]')?.textContent).toContain('目前仍有 2 条规则使用该等级');
    click(confirmButton('删除'));
    await until(() => expect(document.body.querySelector('.action-error')?.textContent).toBe('仍有告警策略的规则使用该等级，无法删除'), () => settle(1));
    expect(writes(requestMock)).toHaveLength(1);
  });

  it('creates a level checked with the shared rules, and shows a taken code on its field', async () => {
    let taken = true;
    fakeApi(requestMock, (path, opts) => {
      if (opts.method !== 'POST' || path !== ALARM_API.levels) return undefined;
      if (taken) throw new ApiError(409, 'LEVEL_CODE_TAKEN', errorText('LEVEL_CODE_TAKEN', 'en'));
      return { ...LEVELS[0]!, id: 'new' };
    });
    const root = await mount();
    click(byTestId(root, 'level-new'));
    await settle();
    const modal = document.body.querySelector<HTMLElement>('.alarm-level-modal')!;
    type(modal, 'level_code', 'Bad Code');
    await blur(modal, 'level_code');
    expect(errorOf(modal, 'level_code')).toBe(errorText('LEVEL_CODE_FORMAT', 'en'));
    type(modal, 'level_code', 'urgent');
    type(modal, 'level_nameZh', '致命');
    type(modal, 'level_nameEn', 'Critical');
    await settle();
    await act(async () => byTestId(document.body, 'level-form-submit')!.click());
    await settle();
    await until(() => expect(errorOf(modal, 'level_code')).toBe('This level code already exists in the organisation'), () => settle(1));

    taken = false;
    type(modal, 'level_code', 'critical');
    await settle();
    await act(async () => byTestId(document.body, 'level-form-submit')!.click());
    await settle();
    const posts = writes(requestMock);
    expect(posts).toHaveLength(2);
    expect(posts[1]![1].body).toEqual({ code: 'critical', nameZh: '致命', nameEn: 'Critical', color: '#1677ff', priority: 5, sound: false, orgId: undefined });
  });

  it('hides the write actions from a reader', async () => {
    fakeApi(requestMock, (path) => (path.includes('/auth/v1/info') ? { ...LEVELS_READER } : undefined));
    const root = await mount();
    expect(byTestId(root, 'level-new')).toBeNull();
    expect(root.querySelector('[data-testid=level-action-delete]')).toBeNull();
  });
});

const LEVELS_READER = { id: 'u2', account: 'viewer', name: 'Viewer', orgId: LEVELS[0]!.orgId, orgName: 'Cold Chain Co', email: null, phone: null, roles: [], permissions: ['alarm:read'], isPlatformAdmin: false, mustChangePassword: false };
