// The names of the targets a stored policy holds only by id (devices, or assets of any kind),
// looked up through the console's shared pickers (api/pickers.ts), whose searches the target
// picker uses as the user types.
import { useQuery } from '@tanstack/react-query';
import { ASSET_KINDS, type AssetKind } from '@iotc/shared/asset';
import { fetchAssetLabel, fetchDeviceLabel } from '../../../api/pickers.ts';

/** Names looked up for a stored policy: beyond this many, the rest show their ids. */
const MAX_LOOKUPS = 50;

export interface TargetName {
  label: string;
  kind?: AssetKind;
}

/** A device's name, or null when it is gone (or not the caller's). */
const deviceName = (id: string, signal?: AbortSignal): Promise<TargetName | null> => fetchDeviceLabel(id, signal).then((label) => ({ label }), () => null);

/** An asset's name: the id says nothing of the kind, so each kind is asked in turn. */
const assetName = (id: string, signal?: AbortSignal): Promise<TargetName | null> => fetchAssetLabel(id, ASSET_KINDS, signal);

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
