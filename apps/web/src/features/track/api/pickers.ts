// The pickers' options: GET /api/iot/v2/devices?keyword= (first 20 devices by name or id) and
// GET /api/iot/v2/transport-tasks?keyword= (first 20 tasks by code, goods, customer or place).
import type { Page } from '@iotc/shared/envelope';
import { DEVICE_API, type DeviceRow } from '@iotc/shared/device';
import { TRANSPORT_API, type TaskRow } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';
import type { RemoteOption } from '../../../components/remote-select.tsx';

export const PICKER_SIZE = 20;

export function deviceLabel(d: { name: string; deviceId: string }): string {
  return d.name && d.name !== d.deviceId ? `${d.name} (${d.deviceId})` : d.deviceId;
}

export function taskLabel(t: { code: string; goodsName: string }): string {
  return t.goodsName ? `${t.code} · ${t.goodsName}` : t.code;
}

export async function searchDevices(keyword: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const page = await request<Page<DeviceRow>>(DEVICE_API.devices, { query: { keyword: keyword.trim() || undefined, page: 1, size: PICKER_SIZE }, signal });
  return page.rows.map((d) => ({ value: d.id, label: deviceLabel(d) }));
}

export async function searchTasks(keyword: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const page = await request<Page<TaskRow>>(TRANSPORT_API.tasks, { query: { keyword: keyword.trim() || undefined, page: 1, size: PICKER_SIZE }, signal });
  return page.rows.map((t) => ({ value: t.id, label: taskLabel(t) }));
}
