// The map of a task or template drawer. Leaflet and the world outline are a chunk of their own,
// fetched when the map first comes into view (the form drawers stay mounted while closed), so
// the task and template lists load without them (issue 23); the map's place keeps its height
// while it comes.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { MapConfig } from '@iotc/shared/live';
import { importWithTimeout } from '../../../lib/chunk.ts';
import { ScreenErrorBoundary } from '../../../components/chunk-error.tsx';
import { PageSpin } from '../../../components/page-spin.tsx';

export interface MapCircle {
  lat: number;
  lon: number;
  radiusM: number;
}

export interface PlaceMapProps {
  config: MapConfig | null;
  origin: MapCircle | null;
  destination: MapCircle | null;
  /** The stops in order between them (numbered markers). */
  stops?: readonly MapCircle[];
  /** The route's points between the places; the line runs from the origin through them to the destination (plannedPath). */
  route: readonly [number, number][];
  /** Mark each point of the route (points drawn by hand); a road route from the routing service is a line only. */
  routePoints?: boolean;
  /** Where the task is now. */
  current?: { lat: number; lon: number } | null;
  /** A click on the map, in WGS-84. */
  onPick?: (lat: number, lon: number) => void;
  height?: number;
  testId?: string;
}

const load = () => importWithTimeout(() => import('./place-map-view.tsx'), 'placeMap');
// One lazy component for every drawer; a failed load stays failed in React.lazy, so a retry
// puts a new one in its place.
const view = { current: lazy(load) };

export function PlaceMap(props: PlaceMapProps) {
  const [attempt, setAttempt] = useState(0);
  const [shown, setShown] = useState(() => typeof IntersectionObserver === 'undefined');
  const placeRef = useRef<HTMLDivElement>(null);
  const height = props.height ?? 320;

  useEffect(() => {
    const place = placeRef.current;
    if (shown || !place) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setShown(true);
    });
    observer.observe(place);
    return () => observer.disconnect();
  }, [shown]);

  const retry = () => {
    view.current = lazy(load);
    setAttempt((n) => n + 1);
  };
  const loading = (
    <div ref={placeRef} style={{ height }} data-testid="place-map-loading">
      {shown ? <PageSpin /> : null}
    </div>
  );
  if (!shown) return loading;
  const View = view.current;
  return (
    <ScreenErrorBoundary key={attempt} onRetry={retry}>
      <Suspense fallback={loading}>
        <View {...props} />
      </Suspense>
    </ScreenErrorBoundary>
  );
}
