// The full inbox page: the filter and the page live in the address and go to the server
// (alarms, notices), each filter has its own empty text in both languages, an unread item's own
// "Mark as read" marks that one, and a notice opened shows its text.
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
import InboxPage from './inbox-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
let items: InboxItem[];
let listCalls: Record<string, unknown>[];
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  items = [
    { id: uuid(1), kind: 'alarm', title: '[Urgent] Temperature high: Truck 1', body: 'value 9.3 °C', level: null, alarmId: uuid(101), taskId: null, taskCode: null, at: '2026-03-01T02:00:00.000Z', read: false },
    { id: uuid(2), kind: 'notice', title: 'Routine maintenance', body: 'Sunday night', level: 'warning', alarmId: null, taskId: null, taskCode: null, at: '2026-03-01T01:00:00.000Z', read: false },
  ];
  listCalls = [];
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    if (path === INBOX_API.unreadCount) return { unread: items.filter((i) => !i.read).length };
    if (path === INBOX_API.list) {
      const q = opts?.query ?? {};
      listCalls.push(q);
      const rows = items.filter((i) => (q.filter === 'unread' ? !i.read : q.filter === 'alarms' ? i.kind === 'alarm' : q.filter === 'notices' ? i.kind === 'notice' : true));
      return { rows, total: rows.length, page: Number(q.page), size: Number(q.size) };
    }
    if (path === INBOX_API.read) {
      const ids = (opts?.body as { ids: string[] }).ids;
      for (const i of items) if (ids.includes(i.id)) i.read = true;
      return { marked: ids.length };
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
  const l = useLocation();
  return <div data-testid="where">{l.pathname + l.search}</div>;
}

async function mount(at = '/view/inbox') {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                <InboxPage />
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

const entries = () => [...document.querySelectorAll<HTMLElement>('[data-testid=inbox-item]')];
const segment = (label: string) => [...document.querySelectorAll<HTMLElement>('.ant-segmented-item')].find((e) => e.textContent === label)!;

describe('InboxPage', () => {
  it('reads the filter from the address and asks the server for that kind; choosing another puts it in the address', async () => {
    await mount('/view/inbox?filter=notices');
    await settleUntil(() => entries().length === 1);
    expect(listCalls.at(-1)).toMatchObject({ filter: 'notices', page: 1, size: 20 });
    expect(entries()[0]!.textContent).toContain('Routine maintenance');
    click(segment('Alarms'));
    await settleUntil(() => byTestId(document, 'where')!.textContent === '/view/inbox?filter=alarms');
    await settleUntil(() => entries().length === 1 && entries()[0]!.dataset.kind === 'alarm');
    expect(listCalls.at(-1)).toMatchObject({ filter: 'alarms' });
  });

  it('marks one unread item read by its own button, and opens a notice to its text', async () => {
    await mount();
    await settleUntil(() => entries().length === 2);
    click(entries()[0]!.querySelector('[data-testid=inbox-item-mark]'));
    await settleUntil(() => entries()[0]!.dataset.read === 'true');
    expect(items[0]!.read).toBe(true);
    expect(entries()[0]!.querySelector('[data-testid=inbox-item-mark]')).toBeNull();
    click(entries()[1]!.querySelector('button'));
    await settleUntil(() => byTestId(document, 'inbox-item-body')?.textContent === 'Sunday night');
    await settleUntil(() => entries()[1]!.dataset.read === 'true');
  });

  it("shows each filter's own empty text, in both languages", async () => {
    items = items.filter((i) => i.kind === 'notice');
    await mount('/view/inbox?filter=alarms');
    await settleUntil(() => byTestId(document, 'inbox-empty')?.textContent === 'No alarm messages');
    await act(() => i18next.changeLanguage('zh'));
    await settleUntil(() => byTestId(document, 'inbox-empty')?.textContent === '暂无告警消息');
  });
});
