// The history track's map: the shared map with the track as its layer, which is handed to the
// page (`onView`) that drives it; the container is the browser tests' `track-map`.
import { useEffect, useRef } from 'react';
import type { MapConfig } from '@iotc/shared/live';
import { MapView, useMap } from '../../../components/map/map-view.tsx';
import { TrackLayer } from './track-layer.ts';

interface TrackMapProps {
  config: MapConfig | null;
  onView: (view: TrackLayer | null) => void;
  height: number;
}

export function TrackMap({ config, onView, height }: TrackMapProps) {
  return (
    <MapView config={config} height={height} className="iotc-live-map track-map" testId="track-map">
      <Track onView={onView} />
    </MapView>
  );
}

function Track({ onView }: Pick<TrackMapProps, 'onView'>) {
  const base = useMap();
  const handed = useRef(onView);
  useEffect(() => {
    handed.current = onView;
  }, [onView]);
  useEffect(() => {
    const layer = new TrackLayer(base);
    handed.current(layer);
    return () => {
      handed.current(null);
      layer.destroy();
    };
  }, [base]);
  return null;
}
