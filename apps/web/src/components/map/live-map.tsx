// The live map: every device with a position as a marker coloured by status, clustered when
// zoomed out, over the shared base map (offline vector layer, optionally the configured tiles).
// A `palette` colours the points by other categories (alarms by level) instead of the device statuses.
import type { DeviceStatus, MapConfig } from '@iotc/shared/live';
import { MapClusters, type MapClustersProps } from './map-clusters.tsx';
import { MapView } from './map-view.tsx';

export interface LiveMapProps<S extends string = DeviceStatus> extends MapClustersProps<S> {
  /** The base map; null, or no tileUrl, draws the offline layer only. */
  config: MapConfig | null;
  /** Default 100%. */
  height?: number | string;
}

export function LiveMap<S extends string = DeviceStatus>({ config, height = '100%', ...layer }: LiveMapProps<S>) {
  return (
    <MapView config={config} height={height} testId="live-map">
      <MapClusters<S> {...layer} />
    </MapView>
  );
}
