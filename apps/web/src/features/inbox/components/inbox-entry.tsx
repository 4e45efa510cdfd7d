// One inbox item: a button with its kind's icon, the title (bold while unread, with a dot and
// "Unread" for screen readers), the time; a notice opened shows its text below. An alarm of a
// transport task has a second way out, to the task. On the full inbox page an unread item also
// has its own "Mark as read" button.
import { Button, Tag } from 'antd';
import { AlertOutlined, NotificationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { InboxItem } from '@iotc/shared/inbox';

const LEVEL_COLOR = { info: 'blue', warning: 'orange', important: 'red' } as const;

export function InboxEntry({
  item,
  expanded,
  onOpen,
  onOpenTask,
  onMarkRead,
}: {
  item: InboxItem;
  expanded: boolean;
  onOpen: (item: InboxItem) => void;
  onOpenTask: (item: InboxItem) => void;
  onMarkRead?: (item: InboxItem) => void;
}) {
  const { t } = useTranslation();
  const body = item.body.trim();
  return (
    <li className="inbox-entry" data-read={item.read} data-kind={item.kind} data-testid="inbox-item">
      <button type="button" className="inbox-entry-button" aria-expanded={item.kind === 'notice' ? expanded : undefined} onClick={() => onOpen(item)}>
        <span className={`inbox-entry-icon inbox-entry-icon-${item.kind}`} aria-hidden>
          {item.kind === 'alarm' ? <AlertOutlined /> : <NotificationOutlined />}
        </span>
        <span className="inbox-entry-main">
          <span className="inbox-entry-title">
            {item.read ? null : <span className="inbox-entry-dot" aria-label={t('inbox.unread')} role="img" />}
            {item.title}
          </span>
          <span className="inbox-entry-meta">
            <Tag color={item.kind === 'alarm' ? 'red' : LEVEL_COLOR[item.level ?? 'info']} variant="filled">
              {item.kind === 'alarm' ? t('inbox.kindAlarm') : t(`inbox.noticeLevel.${item.level ?? 'info'}`)}
            </Tag>
            <time dateTime={item.at}>{dayjs(item.at).format(DATETIME_FORMAT)}</time>
            {item.kind === 'alarm' ? <span className="inbox-entry-action">{t('inbox.viewAlarm')}</span> : null}
          </span>
        </span>
      </button>
      {item.taskId && item.taskCode ? (
        <Button type="link" size="small" className="inbox-entry-task" onClick={() => onOpenTask(item)} data-testid="inbox-item-task">
          {t('inbox.viewTask', { code: item.taskCode })}
        </Button>
      ) : null}
      {onMarkRead && !item.read ? (
        <Button type="link" size="small" className="inbox-entry-mark" onClick={() => onMarkRead(item)} data-testid="inbox-item-mark">
          {t('inbox.markRead')}
        </Button>
      ) : null}
      {expanded ? (
        <div className="inbox-entry-body" data-testid="inbox-item-body">
          {body || t('inbox.noDetails')}
        </div>
      ) : null}
    </li>
  );
}
