import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { INBOX_API, type InboxItem } from '@iotc/shared/inbox';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, type RequestOptions } from '../../../api/client.ts';
import type * as liveModule from '../../../lib/live.ts';
import { InboxBell } from './inbox-bell.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

const live = vi.hoisted(() => ({ onInbox: undefined as (() => void) | undefined }));
vi.mock('../../../lib/live.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof liveModule>()),
  useLiveInbox: (onInbox: () => void) => {
    live.onInbox = onInbox;
    return { status: 'open' };
  },
}));

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
let items: InboxItem[];
let calls: { path: string; opts: RequestOptions | undefined }[];
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  items = [
    { id: uuid(1), kind: 'alarm', title: '[Urgent] Temperature high: Truck 1', body: 'value 9.3 °C', level: null, alarmId: uuid(101), taskId: null, taskCode: null, at: '2026-03-01T02:00:00.000Z', read: false },
    { id: uuid(2), kind: 'notice', title: 'Routine maintenance', body: 'Sunday night', level: 'info', alarmId: null, taskId: null, taskCode: null, at: '2026-03-01T01:00:00.000Z', read: false },
  ];
  calls = [];
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    if (path === INBOX_API.unreadCount) return { unread: items.filter((i) => !i.read).length };
    if (path === INBOX_API.list) {
      const rows = opts?.query?.filter === 'unread' ? items.filter((i) => !i.read) : items;
      return { rows, total: rows.length, page: 1, size: 10 };
    }
    if (path === INBOX_API.read) {
      const ids = (opts?.body as { ids: string[] }).ids;
      for (const i of items) if (ids.includes(i.id)) i.read = true;
      return { marked: ids.length };
    }
    if (path === INBOX_API.readAll) {
      for (const i of items) i.read = true;
      return { marked: 2 };
    }
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
  return <div data-testid="where">{useLocation().pathname + useLocation().search}</div>;
}

async function mount() {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={['/view/home']}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                <InboxBell />
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

const bell = () => byTestId<HTMLButtonElement>(document, 'inbox-bell')!;
const entries = () => [...document.querySelectorAll<HTMLElement>('[data-testid=inbox-item]')];

describe('InboxBell', () => {
  it('is a button named with the unread count, in both languages, and follows the live news', async () => {
    await mount();
    expect(bell().tagName).toBe('BUTTON');
    expect(bell().getAttribute('aria-label')).toBe('Inbox, 2 unread');
    expect(bell().textContent).toContain('2');
    await act(() => i18next.changeLanguage('zh'));
    expect(bell().getAttribute('aria-label')).toBe('消息中心，2 条未读');
    await act(() => i18next.changeLanguage('en'));
    items.push({ ...items[1]!, id: uuid(3), title: 'New' });
    act(() => live.onInbox!());
    await settleUntil(() => bell().getAttribute('aria-label') === 'Inbox, 3 unread');
  });

  it('lists the items with unread marked; a notice opens its text and is marked read; an alarm leads to its details', async () => {
    await mount();
    click(bell());
    await settleUntil(() => entries().length === 2);
    expect(entries().map((e) => e.dataset.read)).toEqual(['false', 'false']);
    click(entries()[1]!.querySelector('button'));
    await settleUntil(() => bell().getAttribute('aria-label') === 'Inbox, 1 unread');
    expect(calls.find((c) => c.path === INBOX_API.read)?.opts?.body).toEqual({ ids: [uuid(2)] });
    expect(byTestId(document, 'inbox-item-body')!.textContent).toBe('Sunday night');
    await settleUntil(() => entries()[1]!.dataset.read === 'true');
    click(entries()[0]!.querySelector('button'));
    await settleUntil(() => byTestId(document, 'where')!.textContent === `/view/alarm/query?alarm=${uuid(101)}`);
    await settleUntil(() => bell().getAttribute('aria-label') === 'Inbox, no unread messages');
  });

  it("a transport task's alarm also leads to the task, named by its code", async () => {
    items[0] = { ...items[0]!, taskId: uuid(201), taskCode: 'TT-20260301-0001' };
    await mount();
    click(bell());
    await settleUntil(() => entries().length === 2);
    expect(entries()[1]!.querySelector('[data-testid=inbox-item-task]')).toBeNull();
    const task = entries()[0]!.querySelector<HTMLElement>('[data-testid=inbox-item-task]')!;
    expect(task.textContent).toBe('Task TT-20260301-0001');
    click(task);
    await settleUntil(() => byTestId(document, 'where')!.textContent === `/view/transport/tasks?id=${uuid(201)}`);
    expect(calls.find((c) => c.path === INBOX_API.read)?.opts?.body).toEqual({ ids: [uuid(1)] });
  });

  it('marks all read, and shows the empty state of the unread filter', async () => {
    await mount();
    click(bell());
    await settleUntil(() => entries().length === 2);
    click(byTestId(document, 'inbox-mark-all'));
    await settleUntil(() => bell().getAttribute('aria-label') === 'Inbox, no unread messages');
    expect(calls.some((c) => c.path === INBOX_API.readAll && c.opts?.method === 'POST')).toBe(true);
    click([...document.querySelectorAll<HTMLElement>('.ant-segmented-item')][1]!);
    await settleUntil(() => byTestId(document, 'inbox-empty')?.textContent === 'No unread messages');
  });
});
