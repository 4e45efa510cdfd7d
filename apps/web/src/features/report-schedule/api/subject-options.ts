// What a scheduled report names as its subjects: devices (GET /api/iot/v2/devices?keyword=) and
// assets of one kind (GET /api/iot/v2/<resource>?keyword=), searched as the user types; and the
// names of the subjects a stored schedule holds only by id.
import { useQuery } from '@tanstack/react-query';
import { ASSET_API, ASSET_RESOURCES, type AssetKind, type AssetRow } from '@iotc/shared/asset';
import { DEVICE_API, type DeviceRow } from '@iotc/shared/device';
import { request } from '../../../api/client.ts';
import type { RemoteOption } from '../../../components/remote-select.tsx';
import { fetchList, type FilterValues } from '../../../lib/list-query.ts';

const SEARCH_SIZE = 20;
/** Names looked up for a stored schedule: beyond this many, the rest show their ids. */
const MAX_LOOKUPS = 50;

const assetPath = (kind: AssetKind) => `${ASSET_API.base}/${ASSET_RESOURCES[kind]}`;
const filters = (search: string): FilterValues => (search.trim() ? { keyword: search.trim() } : {});
const deviceLabel = (d: Pick<DeviceRow, 'deviceId' | 'name'>) => (d.name && d.name !== d.deviceId ? `${d.name} (${d.deviceId})` : d.deviceId);
const assetLabel = (a: Pick<AssetRow, 'code' | 'name'>) => `${a.code} · ${a.name}`;

export async function searchDevices(search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const page = await fetchList<DeviceRow>(DEVICE_API.devices, { page: 1, size: SEARCH_SIZE, filters: filters(search) }, signal);
  return page.rows.map((d) => ({ value: d.id, label: deviceLabel(d) }));
}

export async function searchAssets(kind: AssetKind, search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const page = await fetchList<AssetRow>(assetPath(kind), { page: 1, size: SEARCH_SIZE, filters: filters(search) }, signal);
  return page.rows.map((a) => ({ value: a.id, label: assetLabel(a) }));
}

async function deviceName(id: string, signal?: AbortSignal): Promise<string | null> {
  const d = await request<DeviceRow>(`${DEVICE_API.devices}/${encodeURIComponent(id)}`, { signal, silent: true }).catch(() => null);
  return d ? deviceLabel(d) : null;
}

/** An asset's name: the id says nothing of the kind, so the kinds are asked in turn. */
async function assetName(id: string, kinds: readonly AssetKind[], signal?: AbortSignal): Promise<string | null> {
  for (const kind of kinds) {
    const a = await request<AssetRow>(`${assetPath(kind)}/${encodeURIComponent(id)}`, { signal, silent: true }).catch(() => null);
    if (a) return assetLabel(a);
    if (signal?.aborted) return null;
  }
  return null;
}

export function useSubjectNames(kinds: readonly AssetKind[] | null, ids: string[]) {
  return useQuery({
    queryKey: ['reportSchedule', 'subjectNames', kinds, ids],
    queryFn: async ({ signal }) => {
      const found = await Promise.all(ids.slice(0, MAX_LOOKUPS).map(async (id) => [id, kinds ? await assetName(id, kinds, signal) : await deviceName(id, signal)] as const));
      return Object.fromEntries(found.filter((e): e is readonly [string, string] => e[1] !== null));
    },
    enabled: ids.length > 0,
    staleTime: 60_000,
  });
}
