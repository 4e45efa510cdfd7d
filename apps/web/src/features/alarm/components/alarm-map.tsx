// The map beside the real-time alarms: a marker per alarm with a position, coloured by its level
// and clustered when zoomed out, on the shared live map (offline base layer, configured tiles,
// GCJ-02 placement on GCJ-02 tiles). A marker selects its alarm; the selected one is focused.
import { memo, useCallback, useMemo } from 'react';
import type { AlarmRow } from '@iotc/shared/alarm';
import { LiveMap } from '../../../components/map/live-map.tsx';
import { useMapConfig } from '../../../api/map-config.ts';
import { alarmPoints, levelPalette, levelsByCode, type LevelInfo } from './alarm-model.ts';
import { useAlarmTexts } from './use-alarm-texts.ts';

interface AlarmMapProps {
  rows: readonly AlarmRow[];
  levels: readonly LevelInfo[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}

function AlarmMapInner({ rows, levels, selectedId, onSelect }: AlarmMapProps) {
  const config = useMapConfig();
  const texts = useAlarmTexts();
  const points = useMemo(() => alarmPoints(rows, texts.typeName), [rows, texts.typeName]);
  const byCode = useMemo(() => levelsByCode(levels), [levels]);
  const palette = useMemo(() => levelPalette(byCode), [byCode]);
  const names = useMemo(() => new Map(byCode.map((l) => [l.id, texts.levelName(l)])), [byCode, texts]);
  const statusLabel = useCallback((id: string) => names.get(id) ?? '', [names]);
  return (
    <div className="alarm-map" data-testid="alarm-map">
      <LiveMap<string> points={points} config={config.data ?? null} selectedId={selectedId} onSelect={onSelect} statusLabel={statusLabel} palette={palette} />
    </div>
  );
}

/** Drawn again only when its own props change. */
export const AlarmMap = memo(AlarmMapInner);
