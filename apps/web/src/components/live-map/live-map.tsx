// The live map: every device with a position as a marker coloured by status, clustered when
// zoomed out, over an offline vector base layer and optionally the configured tiles.
import 'leaflet/dist/leaflet.css';
import './live-map.css';
import { useEffect, useRef } from 'react';
import type { DeviceStatus, MapConfig, MapPoint } from '@iotc/shared/live';
import { LiveMapView } from './map-view.ts';

export interface LiveMapProps {
  /** Every device with a position (WGS-84); may be thousands, replaced every few hundred ms. */
  points: MapPoint[];
  /** The base map; null, or no tileUrl, draws the offline layer only. */
  config: MapConfig | null;
  /** The device to highlight; the map pans to it whenever this changes. */
  selectedId?: string | null;
  /** A single device marker was clicked. */
  onSelect?: (id: string) => void;
  /** Default 100%. */
  height?: number | string;
  /** Translated status names, for the legend and tooltips. */
  statusLabel: (s: DeviceStatus) => string;
}

export function LiveMap({ points, config, selectedId = null, onSelect, height = '100%', statusLabel }: LiveMapProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<LiveMapView | null>(null);
  const onSelectRef = useRef(onSelect);

  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);

  // Declared first: the effects below hand the new view its props again after a remount.
  useEffect(() => {
    const view = new LiveMapView(containerRef.current!, {
      onSelect: (id) => onSelectRef.current?.(id),
      statusLabel: (s) => s,
    });
    viewRef.current = view;
    return () => {
      viewRef.current = null;
      view.destroy();
    };
  }, []);

  useEffect(() => {
    viewRef.current?.setStatusLabel(statusLabel);
  }, [statusLabel]);

  useEffect(() => {
    viewRef.current?.setConfig(config);
  }, [config]);

  useEffect(() => {
    viewRef.current?.setSelected(selectedId);
  }, [selectedId]);

  useEffect(() => {
    viewRef.current?.setPoints(points);
  }, [points]);

  return <div ref={containerRef} className="iotc-live-map" data-testid="live-map" style={{ height, width: '100%' }} />;
}
