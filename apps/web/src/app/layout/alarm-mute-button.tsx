// The header's switch for the alarm beep: a toggle button (pressed = muted) with a fixed name,
// its icon and tooltip following the state; the choice is remembered in local storage.
import { Button, Tooltip } from 'antd';
import { MutedOutlined, SoundOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { setAlarmSoundMuted, useAlarmSoundMuted } from './alarm-sound.ts';

export function AlarmMuteButton() {
  const { t } = useTranslation();
  const muted = useAlarmSoundMuted();
  return (
    <Tooltip title={muted ? t('layout.alarmSoundOff') : t('layout.alarmSoundOn')}>
      <Button
        type="text"
        className="alarm-mute"
        data-testid="alarm-mute"
        aria-label={t('layout.muteAlarmSound')}
        aria-pressed={muted}
        icon={muted ? <MutedOutlined /> : <SoundOutlined />}
        onClick={() => setAlarmSoundMuted(!muted)}
      />
    </Tooltip>
  );
}
