// The status monitor's map as a React component: makes the Leaflet view on mount and follows the
// tasks, the selection and the base map configuration.
import 'leaflet/dist/leaflet.css';
import '../../../components/live-map/live-map.css';
import { useEffect, useRef } from 'react';
import type { MapConfig } from '@iotc/shared/live';
import type { TaskDetail } from '@iotc/shared/transport';
import { MonitorMapView } from './monitor-map-view.ts';

interface MonitorMapProps {
  tasks: readonly TaskDetail[];
  selectedId: string | null;
  config: MapConfig | null;
  onSelect: (id: string) => void;
  tooltip: (t: TaskDetail) => HTMLElement;
  height: number;
}

export function MonitorMap({ tasks, selectedId, config, onSelect, tooltip, height }: MonitorMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const view = useRef<MonitorMapView | null>(null);
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  }, [onSelect]);
  useEffect(() => {
    const v = new MonitorMapView(box.current!);
    v.onSelect = (id) => select.current(id);
    view.current = v;
    return () => {
      view.current = null;
      v.destroy();
    };
  }, []);
  useEffect(() => view.current?.setConfig(config), [config]);
  useEffect(() => view.current?.setTasks(tasks, tooltip), [tasks, tooltip]);
  useEffect(() => view.current?.setSelected(selectedId), [selectedId, tasks]);
  return <div ref={box} className="iotc-live-map" data-testid="status-map" style={{ height, width: '100%' }} />;
}
