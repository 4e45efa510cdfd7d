// GET /api/iot/v2/devices?keyword=&size=20: the devices a task may carry, searched as the user
// types (device id or name).
import { DEVICE_API, type DeviceRow } from '@iotc/shared/device';
import type { RemoteOption } from '../../../components/remote-select.tsx';
import { fetchList } from '../../../lib/list-query.ts';

const SEARCH_SIZE = 20;

export function deviceLabel(d: { deviceId: string; name: string }): string {
  return d.name && d.name !== d.deviceId ? `${d.name} (${d.deviceId})` : d.deviceId;
}

export async function searchDevices(search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const keyword = search.trim();
  const page = await fetchList<DeviceRow>(DEVICE_API.devices, { page: 1, size: SEARCH_SIZE, filters: keyword ? { keyword } : {} }, signal);
  return page.rows.map((d) => ({ value: d.id, label: deviceLabel(d) }));
}
