// The header's inbox: a bell with the unread count (a button named with it), opening a drawer
// of the user's in-app alarm messages and platform notices (inbox-drawer.tsx, fetched when the
// bell is first pointed at, focused or opened, so the console's first load does not carry the
// drawer and its list). The count follows the live channel's inbox news and reads again after
// each reconnection.
import { lazy, Suspense, useState } from 'react';
import { Badge, Button, Tooltip } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLiveInbox } from '../../../lib/live.ts';
import { invalidateInbox, useUnreadCount } from '../api/inbox.ts';
import './inbox.css';

const loadDrawer = () => import('./inbox-drawer.tsx');
const InboxDrawer = lazy(loadDrawer);

/** The badge's text past 99. */
const OVERFLOW = 99;

export function InboxBell() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  /** Once opened, the drawer stays mounted (it animates out and keeps its filter and page). */
  const [opened, setOpened] = useState(false);
  /** The bell's tooltip; never over the open drawer (which may take a moment to arrive). */
  const [tip, setTip] = useState(false);
  const count = useUnreadCount().data ?? 0;
  useLiveInbox(
    () => void invalidateInbox(client),
    () => void invalidateInbox(client),
  );

  const label = count > 0 ? t('inbox.bellUnread', { count }) : t('inbox.bell');
  const prefetch = () => void loadDrawer();

  return (
    <>
      <Tooltip title={t('inbox.title')} open={tip && !open} onOpenChange={setTip}>
        <Button
          type="text"
          className="inbox-bell"
          data-testid="inbox-bell"
          aria-label={label}
          aria-haspopup="dialog"
          onPointerEnter={prefetch}
          onFocus={prefetch}
          onClick={() => {
            setOpened(true);
            setOpen(true);
          }}
        >
          <Badge count={count} overflowCount={OVERFLOW} size="small" data-testid="inbox-count">
            <BellOutlined className="inbox-bell-icon" />
          </Badge>
        </Button>
      </Tooltip>
      {opened ? (
        <Suspense fallback={null}>
          <InboxDrawer open={open} onClose={() => setOpen(false)} count={count} />
        </Suspense>
      ) : null}
    </>
  );
}
