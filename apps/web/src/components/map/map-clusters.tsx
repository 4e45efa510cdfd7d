// The devices (or other points) of a <MapView> as a layer: clustered when zoomed out, coloured by
// category, with the legend. The layer (cluster-layer.ts) draws imperatively, so thousands of
// moving devices update without React re-rendering markers; this component hands it the props.
import { useEffect, useRef } from 'react';
import type { DeviceStatus } from '@iotc/shared/live';
import type { LivePoint } from './cluster.ts';
import { ClusterLayer, DEVICE_PALETTE, type MapPalette } from './cluster-layer.ts';
import { useMap } from './map-view.tsx';

export interface MapClustersProps<S extends string = DeviceStatus> {
  /** Every device with a position (WGS-84); may be thousands, replaced every few hundred ms. */
  points: readonly LivePoint<S>[];
  /** The device to highlight; the map pans to it whenever this changes. */
  selectedId?: string | null;
  /** A single device marker was clicked. */
  onSelect?: (id: string) => void;
  /** Translated status (category) names, for the legend and tooltips. */
  statusLabel: (s: S) => string;
  /** The categories and their colours; default the device statuses (required for other categories). */
  palette?: MapPalette<S>;
}

export function MapClusters<S extends string = DeviceStatus>({ points, selectedId = null, onSelect, statusLabel, palette }: MapClustersProps<S>) {
  const base = useMap();
  const layerRef = useRef<ClusterLayer<S> | null>(null);
  const onSelectRef = useRef(onSelect);

  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);

  // Declared first: the effects below hand a new layer its props again after a remount.
  useEffect(() => {
    const layer = new ClusterLayer<S>(base, {
      onSelect: (id) => onSelectRef.current?.(id),
      statusLabel: (s) => s,
    });
    layerRef.current = layer;
    return () => {
      layerRef.current = null;
      layer.destroy();
    };
  }, [base]);

  useEffect(() => {
    layerRef.current?.setStatusLabel(statusLabel);
  }, [base, statusLabel]);

  useEffect(() => {
    layerRef.current?.setPalette(palette ?? (DEVICE_PALETTE as unknown as MapPalette<S>));
  }, [base, palette]);

  useEffect(() => {
    layerRef.current?.setSelected(selectedId);
  }, [base, selectedId]);

  useEffect(() => {
    layerRef.current?.setPoints(points);
  }, [base, points]);

  return null;
}
