// GET /api/iot/v2/<resource>/:id: one asset (the warehouse or cold room a screen has selected).
import { useQuery } from '@tanstack/react-query';
import type { AssetKind, AssetRow } from '@iotc/shared/asset';
import { request } from '../../../api/client.ts';
import { assetPath } from './assets.ts';

export function useAsset(kind: AssetKind, id: string | undefined) {
  return useQuery({
    // Under the kind's list key: what changes the list changes this too.
    queryKey: ['list', assetPath(kind), 'one', id],
    // A stale link (the asset was deleted) is shown as nothing selected, not as a failure.
    queryFn: ({ signal }) => request<AssetRow>(`${assetPath(kind)}/${encodeURIComponent(id!)}`, { signal, silent: true }),
    retry: false,
    enabled: !!id,
  });
}
