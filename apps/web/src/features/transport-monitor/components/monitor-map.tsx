// The status monitor's map: the shared map with the tasks as its layer, which follows the tasks
// and the selection.
import { useEffect, useRef } from 'react';
import type { MapConfig } from '@iotc/shared/live';
import type { TaskDetail } from '@iotc/shared/transport';
import { MapView, useMap } from '../../../components/map/map-view.tsx';
import { TasksLayer } from './tasks-layer.ts';

interface MonitorMapProps {
  tasks: readonly TaskDetail[];
  selectedId: string | null;
  config: MapConfig | null;
  onSelect: (id: string) => void;
  tooltip: (t: TaskDetail) => HTMLElement;
  height: number;
}

export function MonitorMap({ config, height, ...tasks }: MonitorMapProps) {
  return (
    <MapView config={config} height={height} testId="status-map">
      <Tasks {...tasks} />
    </MapView>
  );
}

function Tasks({ tasks, selectedId, onSelect, tooltip }: Omit<MonitorMapProps, 'config' | 'height'>) {
  const base = useMap();
  const layer = useRef<TasksLayer | null>(null);
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  }, [onSelect]);
  useEffect(() => {
    const made = new TasksLayer(base);
    made.onSelect = (id) => select.current(id);
    layer.current = made;
    return () => {
      layer.current = null;
      made.destroy();
    };
  }, [base]);
  useEffect(() => layer.current?.setTasks(tasks, tooltip), [base, tasks, tooltip]);
  useEffect(() => layer.current?.setSelected(selectedId), [base, selectedId, tasks]);
  return null;
}
