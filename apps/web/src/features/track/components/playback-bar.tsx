// The playback controls: play/pause, the speed, a slider over the track's span, the playhead's time
// and the follow switch. It listens to the player itself, so only this bar re-renders while
// playing (about ten times a second), never the page.
import { useEffect, useState } from 'react';
import { Button, Select, Slider, Switch, Tooltip } from 'antd';
import { CaretRightOutlined, PauseOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { PLAYBACK_SPEEDS, type PlaybackSpeed } from './playback-clock.ts';
import type { Player, PlayerSnapshot } from './player.ts';

interface PlaybackBarProps {
  player: Player;
  follow: boolean;
  onFollow: (follow: boolean) => void;
}

export function PlaybackBar({ player, follow, onFollow }: PlaybackBarProps) {
  const { t } = useTranslation();
  const [snap, setSnap] = useState<PlayerSnapshot>(player.state);
  useEffect(() => {
    setSnap(player.state);
    return player.subscribe(setSnap);
  }, [player]);
  const [start, end] = snap.domain;

  return (
    <div className="track-playback" data-testid="playback-bar">
      <Button
        type="primary"
        shape="circle"
        icon={snap.playing ? <PauseOutlined /> : <CaretRightOutlined />}
        aria-label={snap.playing ? t('track.pause') : t('track.play')}
        title={snap.playing ? t('track.pause') : t('track.play')}
        data-testid="playback-play"
        data-playing={String(snap.playing)}
        disabled={end <= start}
        onClick={() => player.toggle()}
      />
      <Tooltip title={t('track.speedHint')}>
        <Select<PlaybackSpeed>
          className="track-speed"
          data-testid="playback-speed"
          aria-label={t('track.speed')}
          value={snap.speed}
          popupMatchSelectWidth={false}
          options={PLAYBACK_SPEEDS.map((s) => ({ value: s, label: `${s}x` }))}
          onChange={(s) => player.setSpeed(s)}
        />
      </Tooltip>
      <div className="track-slider" data-testid="playback-slider" data-min={start} data-max={end} data-value={snap.t}>
        <Slider
          min={start}
          max={Math.max(end, start + 1)}
          step={1000}
          value={snap.t}
          disabled={end <= start}
          tooltip={{ formatter: (v) => (v === undefined ? '' : dayjs(v).format(DATETIME_FORMAT)) }}
          onChange={(v) => player.seek(v)}
        />
      </div>
      <span className="track-time" data-testid="playback-time">
        {dayjs(snap.t).format(DATETIME_FORMAT)}
      </span>
      <span className="track-follow">
        <Switch size="small" checked={follow} onChange={onFollow} data-testid="playback-follow" id="track-follow" />
        <label htmlFor="track-follow">{t('track.follow')}</label>
      </span>
      <span className="track-speed-note">{t('track.speedNote')}</span>
    </div>
  );
}
