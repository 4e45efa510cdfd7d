// inbox (issue 26 item 5): the signed-in user's whole inbox, the bell's drawer in full: in-app
// alarm messages and platform notices, newest first, all, unread, alarms or notices, a page at a
// time (filter and page in the address). Opening an item marks it read: an alarm goes to its
// details, a task's alarm also to the task, a notice shows its text; an unread item can be marked
// read by itself, or all at once. New items arrive over the live channel (the header's bell reads
// the inbox again, this page with it).
import { useState } from 'react';
import { Button, Card, Empty, Pagination, Segmented, Skeleton, Spin } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { INBOX_FILTERS, type InboxFilter, type InboxItem } from '@iotc/shared/inbox';
import { useLang } from '../../../lib/language.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useInboxPage, useMarkAllRead, useMarkRead, useUnreadCount } from '../api/inbox.ts';
import { alarmHref, taskHref } from '../components/inbox-links.ts';
import { InboxEntry } from '../components/inbox-entry.tsx';
import '../components/inbox.css';

/** Items on a page of the full inbox. */
export const INBOX_FULL_PAGE_SIZE = 20;

const filterOf = (v: string | null): InboxFilter => (INBOX_FILTERS as readonly string[]).includes(v ?? '') ? (v as InboxFilter) : 'all';
const pageOf = (v: string | null) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : 1;
};

const EMPTY = { all: 'inbox.empty', unread: 'inbox.emptyUnread', alarms: 'inbox.emptyAlarms', notices: 'inbox.emptyNotices' } as const satisfies Record<InboxFilter, string>;

export default function InboxPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params.get('filter'));
  const page = pageOf(params.get('page'));
  const [expanded, setExpanded] = useState<string | null>(null);
  const count = useUnreadCount().data ?? 0;
  const list = useInboxPage(lang, filter, page, true, INBOX_FULL_PAGE_SIZE);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;

  const go = (next: { filter?: InboxFilter; page?: number }) =>
    setParams((prev) => {
      const out = new URLSearchParams(prev);
      const f = next.filter ?? filter;
      const p = next.page ?? 1;
      if (f === 'all') out.delete('filter');
      else out.set('filter', f);
      if (p === 1) out.delete('page');
      else out.set('page', String(p));
      return out;
    });

  const openItem = (item: InboxItem) => {
    if (!item.read) markRead.mutate([item.id]);
    if (item.kind === 'alarm' && item.alarmId) void navigate(alarmHref(item.alarmId));
    else setExpanded((e) => (e === item.id ? null : item.id));
  };
  const openTask = (item: InboxItem) => {
    if (!item.taskId) return;
    if (!item.read) markRead.mutate([item.id]);
    void navigate(taskHref(item.taskId));
  };

  return (
    <Card
      className="inbox-page"
      title={<span data-testid="screen-title">{t('inbox.title')}</span>}
      extra={
        <Button icon={<CheckOutlined />} data-testid="inbox-page-mark-all" disabled={count === 0} loading={markAll.isPending} onClick={() => markAll.mutate()}>
          {t('inbox.markAllRead')}
        </Button>
      }
      data-testid="inbox-page"
    >
      <div className="inbox-page-toolbar">
        <Segmented<InboxFilter>
          value={filter}
          onChange={(v) => go({ filter: v })}
          options={[
            { value: 'all', label: t('inbox.filterAll') },
            { value: 'unread', label: t('inbox.filterUnread', { count }) },
            { value: 'alarms', label: t('inbox.filterAlarms') },
            { value: 'notices', label: t('inbox.filterNotices') },
          ]}
          data-testid="inbox-page-filter"
        />
      </div>
      {list.isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} data-testid="inbox-page-loading" />
      ) : (
        <Spin spinning={list.isFetching} size="small">
          {rows.length === 0 ? (
            <Empty description={<span data-testid="inbox-empty">{t(EMPTY[filter])}</span>} />
          ) : (
            <ul className="inbox-list" aria-label={t('inbox.title')} data-testid="inbox-list">
              {rows.map((item) => (
                <InboxEntry key={item.id} item={item} expanded={expanded === item.id} onOpen={openItem} onOpenTask={openTask} onMarkRead={(i) => markRead.mutate([i.id])} />
              ))}
            </ul>
          )}
        </Spin>
      )}
      {total > INBOX_FULL_PAGE_SIZE ? (
        <Pagination
          className="inbox-page-pages"
          current={page}
          pageSize={INBOX_FULL_PAGE_SIZE}
          total={total}
          showSizeChanger={false}
          showTotal={(n) => t('inbox.total', { count: n })}
          onChange={(p) => go({ page: p })}
          data-testid="inbox-page-pages"
        />
      ) : null}
    </Card>
  );
}
