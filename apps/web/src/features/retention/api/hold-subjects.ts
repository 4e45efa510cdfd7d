// The options of a legal hold's subject picker: devices (GET /api/iot/v2/devices?keyword=) and
// transport tasks (GET /api/iot/v2/transport-tasks?keyword=) of the caller's tree, first 20 matches.
import { DEVICE_API, type DeviceRow } from '@iotc/shared/device';
import { TRANSPORT_API, type TaskRow } from '@iotc/shared/transport';
import { fetchList } from '../../../lib/list-query.ts';
import type { RemoteOption } from '../../../components/remote-select.tsx';

const SIZE = 20;

export async function searchHoldDevices(search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const keyword = search.trim();
  const page = await fetchList<DeviceRow>(DEVICE_API.devices, { page: 1, size: SIZE, filters: keyword ? { keyword } : {} }, signal);
  return page.rows.map((d) => ({ value: d.id, label: d.name && d.name !== d.deviceId ? `${d.name} (${d.deviceId})` : d.deviceId }));
}

export async function searchHoldTasks(search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const keyword = search.trim();
  const page = await fetchList<TaskRow>(TRANSPORT_API.tasks, { page: 1, size: SIZE, filters: keyword ? { keyword } : {} }, signal);
  return page.rows.map((t) => ({ value: t.id, label: t.goodsName ? `${t.code} ${t.goodsName}` : t.code }));
}
