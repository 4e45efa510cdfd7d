// The live channel's state in a word: Live, (Re)connecting…, or why live updates stopped.
import { memo } from 'react';
import { Badge, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORISED, type LiveChannel } from '../../../lib/live.ts';

function LiveIndicatorInner({ channel, everOpen }: { channel: LiveChannel; everOpen: boolean }) {
  const { t } = useTranslation();
  const { status, closeCode } = channel;
  const text =
    status === 'open' ? t('monitor.live.open') : status === 'connecting' ? (everOpen ? t('monitor.live.reconnecting') : t('monitor.live.connecting')) : t('monitor.live.closed');
  const hint =
    status === 'open'
      ? t('monitor.live.hint')
      : status === 'closed'
        ? closeCode === CLOSE_FORBIDDEN
          ? t('monitor.live.noPermission')
          : closeCode === CLOSE_UNAUTHORISED
            ? t('monitor.live.sessionEnded')
            : t('monitor.live.closed')
        : t('monitor.live.waiting');
  return (
    <Tooltip title={hint}>
      <span className="monitor-live" data-testid="monitor-live" data-state={status}>
        <Badge status={status === 'open' ? 'success' : status === 'connecting' ? (everOpen ? 'warning' : 'processing') : 'error'} text={text} />
      </span>
    </Tooltip>
  );
}

/** Drawn again only when its own props change, not on every live update of the table. */
export const LiveIndicator = memo(LiveIndicatorInner);
