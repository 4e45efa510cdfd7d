// The header inbox's drawer (inbox-bell.tsx): the user's in-app alarm messages and platform
// notices, newest first, all or only unread, a page at a time. Opening an item marks it read: an
// alarm goes to its details (the alarm query screen), a notice shows its text; "View all" opens
// the full inbox page. Fetched when the bell is first pointed at or opened, not with the console.
import { useState } from 'react';
import { Button, Drawer, Empty, Pagination, Segmented, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { InboxFilter, InboxItem } from '@iotc/shared/inbox';
import { useLang } from '../../../lib/language.ts';
import { INBOX_PAGE_SIZE, useInboxPage, useMarkAllRead, useMarkRead } from '../api/inbox.ts';
import { alarmHref, INBOX_PAGE_HREF, taskHref } from './inbox-links.ts';
import { InboxEntry } from './inbox-entry.tsx';

export default function InboxDrawer({ open, onClose, count }: { open: boolean; onClose: () => void; count: number }) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const [filter, setFilter] = useState<InboxFilter>('all');
  const [page, setPage] = useState(1);
  const [expanded, setExpanded] = useState<string | null>(null);
  const list = useInboxPage(lang, filter, page, open);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();

  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;

  const openItem = (item: InboxItem) => {
    if (!item.read) markRead.mutate([item.id]);
    if (item.kind === 'alarm' && item.alarmId) {
      onClose();
      void navigate(alarmHref(item.alarmId));
    } else setExpanded((e) => (e === item.id ? null : item.id));
  };
  const openTask = (item: InboxItem) => {
    if (!item.taskId) return;
    if (!item.read) markRead.mutate([item.id]);
    onClose();
    void navigate(taskHref(item.taskId));
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('inbox.title')}
      size={440}
      className="inbox-drawer"
      data-testid="inbox-drawer"
      extra={
        <Button size="small" data-testid="inbox-mark-all" disabled={count === 0} loading={markAll.isPending} onClick={() => markAll.mutate()}>
          {t('inbox.markAllRead')}
        </Button>
      }
    >
      <Space orientation="vertical" size="middle" className="inbox-body">
        <Segmented<InboxFilter>
          value={filter}
          onChange={(v) => {
            setFilter(v);
            setPage(1);
          }}
          options={[
            { value: 'all', label: t('inbox.filterAll') },
            { value: 'unread', label: t('inbox.filterUnread', { count }) },
          ]}
          data-testid="inbox-filter"
        />
        <Spin spinning={open && list.isFetching} size="small">
          {rows.length === 0 && !list.isLoading ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span data-testid="inbox-empty">{filter === 'unread' ? t('inbox.emptyUnread') : t('inbox.empty')}</span>} />
          ) : (
            <ul className="inbox-list" aria-label={t('inbox.title')} data-testid="inbox-list">
              {rows.map((item) => (
                <InboxEntry key={item.id} item={item} expanded={expanded === item.id} onOpen={openItem} onOpenTask={openTask} />
              ))}
            </ul>
          )}
        </Spin>
        {total > INBOX_PAGE_SIZE ? (
          <Pagination size="small" current={page} pageSize={INBOX_PAGE_SIZE} total={total} showSizeChanger={false} onChange={setPage} data-testid="inbox-pages" />
        ) : null}
        <Button
          type="link"
          className="inbox-view-all"
          data-testid="inbox-view-all"
          onClick={() => {
            onClose();
            void navigate(INBOX_PAGE_HREF);
          }}
        >
          {t('inbox.viewAll')}
        </Button>
      </Space>
    </Drawer>
  );
}
