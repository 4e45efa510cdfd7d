// The header's inbox: a bell with the unread count (a button named with it), opening a drawer
// of the user's in-app alarm messages and platform notices, newest first, all or only unread,
// a page at a time. Opening an item marks it read: an alarm goes to its details (the alarm
// query screen), a notice shows its text; "View all" opens the full inbox page. The count follows the live channel's inbox news and
// reads again after each reconnection.
import { useState } from 'react';
import { Badge, Button, Drawer, Empty, Pagination, Segmented, Space, Spin, Tooltip } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { InboxFilter, InboxItem } from '@iotc/shared/inbox';
import { useLang } from '../../../lib/language.ts';
import { useLiveInbox } from '../../../lib/live.ts';
import { INBOX_PAGE_SIZE, invalidateInbox, useInboxPage, useMarkAllRead, useMarkRead, useUnreadCount } from '../api/inbox.ts';
import { InboxEntry } from './inbox-entry.tsx';
import './inbox.css';

/** Where an alarm message leads: the alarm query screen with the alarm's details open. */
export function alarmHref(alarmId: string): string {
  return `/view/alarm/query?alarm=${encodeURIComponent(alarmId)}`;
}

/** The full inbox page. */
export const INBOX_PAGE_HREF = '/view/inbox';

/** Where a task's alarm message also leads: the task's details. */
export function taskHref(taskId: string): string {
  return `/view/transport/tasks?id=${encodeURIComponent(taskId)}`;
}

/** The badge's text past 99. */
const OVERFLOW = 99;

export function InboxBell() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState<InboxFilter>('all');
  const [page, setPage] = useState(1);
  const [expanded, setExpanded] = useState<string | null>(null);
  const count = useUnreadCount().data ?? 0;
  const list = useInboxPage(lang, filter, page, open);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  useLiveInbox(
    () => void invalidateInbox(client),
    () => void invalidateInbox(client),
  );

  const label = count > 0 ? t('inbox.bellUnread', { count }) : t('inbox.bell');
  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;

  const openItem = (item: InboxItem) => {
    if (!item.read) markRead.mutate([item.id]);
    if (item.kind === 'alarm' && item.alarmId) {
      setOpen(false);
      void navigate(alarmHref(item.alarmId));
    } else setExpanded((e) => (e === item.id ? null : item.id));
  };
  const openTask = (item: InboxItem) => {
    if (!item.taskId) return;
    if (!item.read) markRead.mutate([item.id]);
    setOpen(false);
    void navigate(taskHref(item.taskId));
  };

  return (
    <>
      <Tooltip title={t('inbox.title')}>
        <Button type="text" className="inbox-bell" data-testid="inbox-bell" aria-label={label} aria-haspopup="dialog" onClick={() => setOpen(true)}>
          <Badge count={count} overflowCount={OVERFLOW} size="small" data-testid="inbox-count">
            <BellOutlined className="inbox-bell-icon" />
          </Badge>
        </Button>
      </Tooltip>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
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
              setOpen(false);
              void navigate(INBOX_PAGE_HREF);
            }}
          >
            {t('inbox.viewAll')}
          </Button>
        </Space>
      </Drawer>
    </>
  );
}
