// The live map: every device with a position as a marker coloured by status, clustered when
// zoomed out, over an offline vector base layer and optionally the configured tiles. A `palette`
// colours the points by other categories (alarms by level) instead of the device statuses.
import 'leaflet/dist/leaflet.css';
import './live-map.css';
import { useEffect, useRef } from 'react';
import type { DeviceStatus, MapConfig } from '@iotc/shared/live';
import type { LivePoint } from './cluster.ts';
import { DEVICE_PALETTE, LiveMapView, type MapPalette } from './map-view.ts';

export interface LiveMapProps<S extends string = DeviceStatus> {
  /** Every device with a position (WGS-84); may be thousands, replaced every few hundred ms. */
  points: readonly LivePoint<S>[];
  /** The base map; null, or no tileUrl, draws the offline layer only. */
  config: MapConfig | null;
  /** The device to highlight; the map pans to it whenever this changes. */
  selectedId?: string | null;
  /** A single device marker was clicked. */
  onSelect?: (id: string) => void;
  /** Default 100%. */
  height?: number | string;
  /** Translated status (category) names, for the legend and tooltips. */
  statusLabel: (s: S) => string;
  /** The categories and their colours; default the device statuses (required for other categories). */
  palette?: MapPalette<S>;
}

export function LiveMap<S extends string = DeviceStatus>({ points, config, selectedId = null, onSelect, height = '100%', statusLabel, palette }: LiveMapProps<S>) {
  const containerRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<LiveMapView<S> | null>(null);
  const onSelectRef = useRef(onSelect);

  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);

  // Declared first: the effects below hand the new view its props again after a remount.
  useEffect(() => {
    const view = new LiveMapView<S>(containerRef.current!, {
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
    viewRef.current?.setPalette(palette ?? (DEVICE_PALETTE as unknown as MapPalette<S>));
  }, [palette]);

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
