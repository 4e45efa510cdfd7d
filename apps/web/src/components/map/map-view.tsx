// The map as a React component: <MapView> makes the one Leaflet map (base-map.ts: offline layer,
// configured tiles, GCJ-02 placement) on mount and removes it on unmount; what it shows are its
// children, layer components that take the map from useMap(), add their layers in an effect,
// remove them in the effect's cleanup and render nothing. The children mount once the map exists.
import 'leaflet/dist/leaflet.css';
import './map.css';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MapConfig } from '@iotc/shared/live';
import { afterPaint } from '../../lib/after-paint.ts';
import { BaseMap } from './base-map.ts';

const MapContext = createContext<BaseMap | null>(null);

/** The map of the enclosing <MapView>, for layer components. */
export function useMap(): BaseMap {
  const base = useContext(MapContext);
  if (!base) throw new Error('useMap() outside a <MapView>');
  return base;
}

export interface MapViewProps {
  /** The base map; null, or no tileUrl, draws the offline layer only. */
  config: MapConfig | null;
  /** Default 100%. */
  height?: number | string;
  /** Besides `iotc-map`; default `iotc-live-map` (the console's map look, map.css). */
  className?: string;
  testId?: string;
  /** Layer components. */
  children?: ReactNode;
}

export function MapView({ config, height = '100%', className = 'iotc-live-map', testId, children }: MapViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const configRef = useRef(config);
  const [base, setBase] = useState<BaseMap | null>(null);
  const { t } = useTranslation();
  const unreachable = t('map.tilesUnreachable');

  useEffect(() => {
    base?.setUnreachableText(unreachable);
  }, [base, unreachable]);

  useEffect(() => {
    configRef.current = config;
    base?.setConfig(config);
  }, [base, config]);

  // Made once the screen around it has been painted, in a task of its own: Leaflet and the
  // offline outline take tens of milliseconds, which would otherwise hold up the screen's first
  // paint in the same long task.
  useEffect(() => {
    let made: BaseMap | null = null;
    const cancel = afterPaint(() => {
      made = new BaseMap(containerRef.current!);
      made.setConfig(configRef.current);
      setBase(made);
    });
    return () => {
      cancel();
      made?.destroy();
    };
  }, []);

  return (
    <>
      <div ref={containerRef} className={`iotc-map ${className}`} data-testid={testId} style={{ height, width: '100%' }} />
      {base ? <MapContext.Provider value={base}>{children}</MapContext.Provider> : null}
    </>
  );
}
