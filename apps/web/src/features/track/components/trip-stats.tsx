// The trip's statistics (distance, duration, moving time, speeds, stops, GPS jumps left out) and
// its stops, each of which seeks the playback to where it began; with a geocoder each stop gives
// its address under its time.
import { Descriptions, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { TrackSummary } from '@iotc/shared/track';
import { PositionText } from '../../../components/position-text.tsx';
import { formatDuration } from './format.ts';

interface TripStatsProps {
  summary: TrackSummary;
  onSeek: (t: number) => void;
}

export function TripStats({ summary, onSeek }: TripStatsProps) {
  const { t } = useTranslation();
  const s = summary.stats;
  const dur = (secs: number) => formatDuration(secs, t);
  return (
    <div className="track-stats" data-testid="track-stats">
      <Descriptions
        size="small"
        column={1}
        bordered
        items={[
          { key: 'distance', label: t('track.stats.distance'), children: <span data-testid="track-stat-distance">{(s.distanceM / 1000).toFixed(2)} km</span> },
          { key: 'duration', label: t('track.stats.duration'), children: <span data-testid="track-stat-duration">{dur(s.durationS)}</span> },
          { key: 'moving', label: t('track.stats.moving'), children: <span data-testid="track-stat-moving">{dur(s.movingS)}</span> },
          { key: 'max', label: t('track.stats.maxSpeed'), children: <span data-testid="track-stat-max">{s.maxSpeedKmh.toFixed(1)} km/h</span> },
          { key: 'avg', label: t('track.stats.avgSpeed'), children: <span data-testid="track-stat-avg">{s.avgSpeedKmh.toFixed(1)} km/h</span> },
          { key: 'stops', label: t('track.stats.stops'), children: <span data-testid="track-stat-stops">{s.stopCount}</span> },
          { key: 'jumps', label: t('track.stats.jumps'), children: <span data-testid="track-stat-jumps">{s.jumps}</span> },
        ]}
      />
      <Typography.Title level={5} className="track-stops-title">
        {t('track.stops')}
      </Typography.Title>
      {summary.stops.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('track.noStops')} />
      ) : (
        <ul className="track-stops">
          {summary.stops.map((stop, i) => (
            <li key={`${stop.startT}-${i}`} className="track-stop" data-testid="track-stop" role="button" tabIndex={0} onClick={() => onSeek(stop.startT)} onKeyDown={(e) => e.key === 'Enter' && onSeek(stop.startT)}>
              <PositionText lat={stop.lat} lon={stop.lon} text={dayjs(stop.startT).format(DATETIME_FORMAT)} data-testid="track-stop-address" />
              <span className="track-stop-duration">
                {dur(stop.durationS)}
                {stop.open ? ` (${t('track.stopOngoing')})` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
