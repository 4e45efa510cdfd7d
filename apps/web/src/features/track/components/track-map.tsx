// The history track's map as a React component: it makes the Leaflet view on mount and hands it
// to the page (`onView`), which drives it; the container is the browser tests' `track-map`.
import 'leaflet/dist/leaflet.css';
import '../../../components/live-map/live-map.css';
import { useEffect, useRef } from 'react';
import { TrackMapView } from './track-map-view.ts';

interface TrackMapProps {
  onView: (view: TrackMapView | null) => void;
  height: number;
}

export function TrackMap({ onView, height }: TrackMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const handed = useRef(onView);
  useEffect(() => {
    handed.current = onView;
  }, [onView]);
  useEffect(() => {
    const view = new TrackMapView(box.current!);
    handed.current(view);
    return () => {
      handed.current(null);
      view.destroy();
    };
  }, []);
  return <div ref={box} className="iotc-live-map track-map" data-testid="track-map" style={{ height, width: '100%' }} />;
}
