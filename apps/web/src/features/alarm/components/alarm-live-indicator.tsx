// The live channel's state in a word, as on the device monitoring screen: Live, (Re)connecting…,
// or why live alarms stopped.
import { memo } from 'react';
import { Badge, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORISED, type LiveChannel } from '../../../lib/live.ts';

function AlarmLiveIndicatorInner({ channel, everOpen }: { channel: LiveChannel; everOpen: boolean }) {
  const { t } = useTranslation();
  const { status, closeCode } = channel;
  const text =
    status === 'open' ? t('alarm.live.open') : status === 'connecting' ? (everOpen ? t('alarm.live.reconnecting') : t('alarm.live.connecting')) : t('alarm.live.closed');
  const hint =
    status === 'open'
      ? t('alarm.live.hint')
      : status === 'closed'
        ? closeCode === CLOSE_FORBIDDEN
          ? t('alarm.live.noPermission')
          : closeCode === CLOSE_UNAUTHORISED
            ? t('alarm.live.sessionEnded')
            : t('alarm.live.closed')
        : t('alarm.live.waiting');
  return (
    <Tooltip title={hint}>
      <span className="alarm-live" data-testid="alarm-live" data-state={status}>
        <Badge status={status === 'open' ? 'success' : status === 'connecting' ? (everOpen ? 'warning' : 'processing') : 'error'} text={text} />
      </span>
    </Tooltip>
  );
}

/** Drawn again only when its own props change, not on every live update of the list. */
export const AlarmLiveIndicator = memo(AlarmLiveIndicatorInner);
