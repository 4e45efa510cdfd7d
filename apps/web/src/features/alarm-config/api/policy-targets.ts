// What a policy may name as targets: devices (GET /api/iot/v2/devices?keyword=&size=20) and
// assets of one kind (GET /api/iot/v2/<resource>?keyword=&size=20), searched as the user types;
// and the names of targets a stored policy holds only by id.
import { useQuery } from '@tanstack/react-query';
import { ASSET_API, ASSET_KINDS, ASSET_RESOURCES, type AssetKind, type AssetRow } from '@iotc/shared/asset';
import { DEVICE_API, type DeviceRow } from '@iotc/shared/device';
import { request } from '../../../api/client.ts';
import type { RemoteOption } from '../../../components/remote-select.tsx';
import { fetchList, type FilterValues } from '../../../lib/list-query.ts';

const SEARCH_SIZE = 20;
/** Names looked up for a stored policy: beyond this many, the rest show their ids. */
const MAX_LOOKUPS = 50;

export function assetPath(kind: AssetKind): string {
  return `${ASSET_API.base}/${ASSET_RESOURCES[kind]}`;
}

const filters = (search: string): FilterValues => (search.trim() ? { keyword: search.trim() } : {});
export const deviceLabel = (d: Pick<DeviceRow, 'deviceId' | 'name'>) => `${d.deviceId} · ${d.name}`;
export const assetLabel = (a: Pick<AssetRow, 'code' | 'name'>) => `${a.code} · ${a.name}`;

export async function searchDevices(search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const page = await fetchList<DeviceRow>(DEVICE_API.devices, { page: 1, size: SEARCH_SIZE, filters: filters(search) }, signal);
  return page.rows.map((d) => ({ value: d.id, label: deviceLabel(d) }));
}

export async function searchAssets(kind: AssetKind, search: string, signal: AbortSignal): Promise<(RemoteOption & { kind: AssetKind })[]> {
  const page = await fetchList<AssetRow>(assetPath(kind), { page: 1, size: SEARCH_SIZE, filters: filters(search) }, signal);
  return page.rows.map((a) => ({ value: a.id, label: assetLabel(a), kind }));
}

export interface TargetName {
  label: string;
  kind?: AssetKind;
}

/** A device's name, or null when it is gone (or not the caller's). */
async function deviceName(id: string, signal?: AbortSignal): Promise<TargetName | null> {
  const d = await request<DeviceRow>(`${DEVICE_API.devices}/${encodeURIComponent(id)}`, { signal, silent: true }).catch(() => null);
  return d ? { label: deviceLabel(d) } : null;
}

/** An asset's name: the id says nothing of the kind, so each kind is asked in turn. */
async function assetName(id: string, signal?: AbortSignal): Promise<TargetName | null> {
  for (const kind of ASSET_KINDS) {
    const a = await request<AssetRow>(`${assetPath(kind)}/${encodeURIComponent(id)}`, { signal, silent: true }).catch(() => null);
    if (a) return { label: assetLabel(a), kind };
    if (signal?.aborted) return null;
  }
  return null;
}

export async function targetNames(scope: 'devices' | 'assets', ids: string[], signal?: AbortSignal): Promise<Record<string, TargetName>> {
  const lookup = scope === 'devices' ? deviceName : assetName;
  const found = await Promise.all(ids.slice(0, MAX_LOOKUPS).map(async (id) => [id, await lookup(id, signal)] as const));
  return Object.fromEntries(found.filter((e): e is readonly [string, TargetName] => e[1] !== null));
}

/** The names of the targets a stored policy names (its devices or assets). */
export function useTargetNames(scope: 'devices' | 'assets', ids: string[]) {
  return useQuery({
    queryKey: ['alarmConfig', 'targetNames', scope, ids],
    queryFn: ({ signal }) => targetNames(scope, ids, signal),
    enabled: ids.length > 0,
    staleTime: 60_000,
  });
}
