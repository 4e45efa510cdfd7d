// Choosing devices: the remote select over the shared device search (api/pickers.ts: keyword,
// the first 20, labelled "name (id)"), one or several. A screen that offers only some devices
// passes the device list's own filters (`filters`); everything else is the remote select's.
import { useCallback } from 'react';
import { searchDevices } from '../api/pickers.ts';
import type { FilterValues } from '../lib/list-query.ts';
import { MultiRemoteSelect, type MultiRemoteSelectProps } from './multi-remote-select.tsx';
import { RemoteSelect, type RemoteFetcher, type RemoteSelectProps } from './remote-select.tsx';

/** The device search, narrowed by the list's filters when there are any. */
function useDeviceSearch(filters: FilterValues | undefined): RemoteFetcher {
  const key = filters ? JSON.stringify(filters) : '';
  return useCallback<RemoteFetcher>((search, signal) => searchDevices(search, signal, key ? (JSON.parse(key) as FilterValues) : {}), [key]);
}

export interface DevicePickerProps extends Omit<RemoteSelectProps, 'fetcher'> {
  /** The device list's filters the offered devices must match. */
  filters?: FilterValues;
}

/** One device. */
export function DevicePicker({ filters, ...rest }: DevicePickerProps) {
  return <RemoteSelect fetcher={useDeviceSearch(filters)} {...rest} />;
}

export interface DevicesPickerProps extends Omit<MultiRemoteSelectProps, 'fetcher'> {
  filters?: FilterValues;
}

/** Several devices; picked ones keep their names whatever the current search shows. */
export function DevicesPicker({ filters, ...rest }: DevicesPickerProps) {
  return <MultiRemoteSelect fetcher={useDeviceSearch(filters)} {...rest} />;
}
