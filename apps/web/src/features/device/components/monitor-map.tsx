// The map half of real-time monitoring: every positioned device the filters match, read once
// per filter (and after a reconnect), then kept current from the live batches. It holds its own
// points, so a live flush re-renders the map only, not the table beside it.
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { Button, Spin } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { useTranslation } from 'react-i18next';
import type { DeviceStatus, MapPoint } from '@iotc/shared/live';
import { LiveMap } from '../../../components/map/live-map.tsx';
import { useMapConfig } from '../../../api/map-config.ts';
import { usePoints } from '../api/map-points.ts';
import { mergePoints, type StateBuffer, type MonitorFilter } from './monitor-model.ts';

interface MonitorMapProps {
  filter: MonitorFilter;
  buffer: StateBuffer;
  selectedId: string | null;
  onSelect: (id: string) => void;
  height: number;
}

function MonitorMapInner({ filter, buffer, selectedId, onSelect, height }: MonitorMapProps) {
  const { t } = useTranslation();
  const config = useMapConfig();
  const query = usePoints(filter);

  // The points read last, and the same points with the live batches since applied.
  const [shown, setShown] = useState<{ base: MapPoint[] | undefined; points: MapPoint[] }>({ base: undefined, points: [] });
  if (query.data !== shown.base) setShown({ base: query.data, points: query.data ?? [] });

  const latest = useRef({ filter, selectedId });
  useEffect(() => {
    latest.current = { filter, selectedId };
  }, [filter, selectedId]);

  useEffect(
    () =>
      buffer.subscribe((batch) => {
        setShown((s) => {
          const points = mergePoints(s.points, batch, latest.current.filter, latest.current.selectedId);
          return points === s.points ? s : { base: s.base, points };
        });
      }),
    [buffer],
  );

  const statusLabel = useCallback((s: DeviceStatus) => t(`monitor.status.${s}`), [t]);

  return (
    <div className="monitor-map" style={{ height }}>
      <LiveMap points={shown.points} config={config.data ?? null} selectedId={selectedId} onSelect={onSelect} statusLabel={statusLabel} />
      {query.isPending ? (
        <div className="monitor-map-overlay" data-testid="monitor-map-loading">
          <Spin />
        </div>
      ) : null}
      {query.isError && !query.data ? (
        <div className="monitor-map-overlay" data-testid="monitor-map-error">
          <Outcome
            status="warning"
            title={t('monitor.map.failed')}
            extra={
              <Button onClick={() => void query.refetch()} data-testid="monitor-map-retry">
                {t('common.retry')}
              </Button>
            }
          />
        </div>
      ) : null}
    </div>
  );
}

/** Drawn again only when its own props change, not on every live update of the table. */
export const MonitorMap = memo(MonitorMapInner);
