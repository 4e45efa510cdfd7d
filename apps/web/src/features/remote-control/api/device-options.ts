// GET /api/iot/v2/devices?keyword=: the device picker's options of the request dialog (first 20
// matches by name or id), each with its protocol.
import type { Page } from '@iotc/shared/envelope';
import { DEVICE_API, type DeviceRow } from '@iotc/shared/device';
import { request } from '../../../api/client.ts';
import type { RemoteOption } from '../../../components/remote-select.tsx';

export const DEVICE_OPTIONS_SIZE = 20;

export function deviceLabel(d: { name: string; deviceId: string }): string {
  return d.name && d.name !== d.deviceId ? `${d.name} (${d.deviceId})` : d.deviceId;
}

/** An option of the device picker, with the device's protocol (which decides the commands it takes). */
export type DeviceOption = RemoteOption & { protocol: string };

export async function searchDevices(keyword: string, signal: AbortSignal): Promise<DeviceOption[]> {
  const page = await request<Page<DeviceRow>>(DEVICE_API.devices, { query: { keyword: keyword.trim() || undefined, page: 1, size: DEVICE_OPTIONS_SIZE }, signal });
  return page.rows.map((d) => ({ value: d.id, label: deviceLabel(d), protocol: d.protocol }));
}
