// GET /api/iot/v2/devices (`keyword`, `orgId` filters): the device registry, rows made ready for
// the table (times in the user's time zone, the bound asset as one text).
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { DEVICE_API, type DeviceRow } from '@iotc/shared/device';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';

/** Every devices list, whatever its filters: what device and binding changes invalidate. */
export const DEVICES_LIST_KEY = ['list', DEVICE_API.devices] as const;

/** The asset a device is mounted on now. */
export type BoundAsset = NonNullable<DeviceRow['asset']>;

/** A row as shown: `createdAt` and `lastSeenAt` formatted in the user's time zone (the sort keys stay the API's). */
export interface DeviceView extends DeviceRow {
  /** "code · name" of the bound asset, '' when none. */
  assetText: string;
}

export function toDeviceView(r: DeviceRow): DeviceView {
  const asset = r.asset;
  return {
    ...r,
    createdAt: dayjs(r.createdAt).format(DATETIME_FORMAT),
    lastSeenAt: r.lastSeenAt ? dayjs(r.lastSeenAt).format(DATETIME_FORMAT) : null,
    assetText: asset ? `${asset.code} · ${asset.name}` : '',
  };
}

export function useDevices(state: ListState) {
  return useQuery({
    ...listQueryOptions<DeviceRow>(DEVICE_API.devices, state),
    select: (page) => ({ ...page, rows: page.rows.map(toDeviceView) }),
  });
}
