// Choosing a transport task: the remote select over the shared task search (api/pickers.ts: code,
// goods, customer or place, the first 20, labelled "code · goods"). A screen that offers only some
// tasks passes the task list's own filters (`filters`, e.g. `{ status: 'in_transit' }`).
import { useCallback } from 'react';
import { searchTasks } from '../api/pickers.ts';
import type { FilterValues } from '../lib/list-query.ts';
import { RemoteSelect, type RemoteFetcher, type RemoteSelectProps } from './remote-select.tsx';

export interface TaskPickerProps extends Omit<RemoteSelectProps, 'fetcher'> {
  /** The task list's filters the offered tasks must match. */
  filters?: FilterValues;
}

export function TaskPicker({ filters, ...rest }: TaskPickerProps) {
  const key = filters ? JSON.stringify(filters) : '';
  const fetcher = useCallback<RemoteFetcher>((search, signal) => searchTasks(search, signal, key ? (JSON.parse(key) as FilterValues) : {}), [key]);
  return <RemoteSelect fetcher={fetcher} {...rest} />;
}
