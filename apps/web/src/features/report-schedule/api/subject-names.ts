// The names of the subjects a stored schedule holds only by id (devices, or assets of the
// schedule's kinds), looked up through the console's shared pickers (api/pickers.ts).
import { useQuery } from '@tanstack/react-query';
import type { AssetKind } from '@iotc/shared/asset';
import { fetchAssetLabel, fetchDeviceLabel } from '../../../api/pickers.ts';

/** Names looked up for a stored schedule: beyond this many, the rest show their ids. */
const MAX_LOOKUPS = 50;

const subjectName = (id: string, kinds: readonly AssetKind[] | null, signal: AbortSignal): Promise<string | null> =>
  kinds ? fetchAssetLabel(id, kinds, signal).then((a) => a?.label ?? null) : fetchDeviceLabel(id, signal).catch(() => null);

export function useSubjectNames(kinds: readonly AssetKind[] | null, ids: string[]) {
  return useQuery({
    queryKey: ['reportSchedule', 'subjectNames', kinds, ids],
    queryFn: async ({ signal }) => {
      const found = await Promise.all(ids.slice(0, MAX_LOOKUPS).map(async (id) => [id, await subjectName(id, kinds, signal)] as const));
      return Object.fromEntries(found.filter((e): e is readonly [string, string] => e[1] !== null));
    },
    enabled: ids.length > 0,
    staleTime: 60_000,
  });
}
