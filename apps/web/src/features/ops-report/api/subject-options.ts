// What the report filters pick from: devices (GET /api/iot/v2/devices?keyword=&size=20) and
// assets of one kind (GET /api/iot/v2/<resource>?keyword=&size=20), searched as the user types.
import { ASSET_API, ASSET_RESOURCES, type AssetKind, type AssetRow } from '@iotc/shared/asset';
import { DEVICE_API, type DeviceRow } from '@iotc/shared/device';
import type { RemoteOption } from '../../../components/remote-select.tsx';
import { fetchList, type FilterValues } from '../../../lib/list-query.ts';

const SEARCH_SIZE = 20;
const filters = (search: string): FilterValues => (search.trim() ? { keyword: search.trim() } : {});

export async function searchDevices(search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const page = await fetchList<DeviceRow>(DEVICE_API.devices, { page: 1, size: SEARCH_SIZE, filters: filters(search) }, signal);
  return page.rows.map((d) => ({ value: d.id, label: d.name && d.name !== d.deviceId ? `${d.name} (${d.deviceId})` : d.deviceId }));
}

export async function searchAssets(kind: AssetKind, search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const page = await fetchList<AssetRow>(`${ASSET_API.base}/${ASSET_RESOURCES[kind]}`, { page: 1, size: SEARCH_SIZE, filters: filters(search) }, signal);
  return page.rows.map((a) => ({ value: a.id, label: `${a.code} · ${a.name}` }));
}
