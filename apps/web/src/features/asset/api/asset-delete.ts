// DELETE /api/iot/v2/<resource>/:id: ends the bindings of its devices (history kept); 409
// ASSET_HAS_CHILDREN for a warehouse or cold room that still holds cold rooms or refrigerators.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AssetKind } from '@iotc/shared/asset';
import { request } from '../../../api/client.ts';
import { assetListKey, assetPath } from './assets.ts';
import { BINDINGS_KEY } from './bindings.ts';
import { DEVICES_LIST_KEY } from './devices.ts';

export function deleteAsset({ kind, id }: { kind: AssetKind; id: string }): Promise<unknown> {
  return request(`${assetPath(kind)}/${encodeURIComponent(id)}`, { method: 'DELETE', silent: true });
}

export function useDeleteAsset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteAsset,
    onSuccess: (_data, { kind }) =>
      Promise.all([
        client.invalidateQueries({ queryKey: assetListKey(kind) }),
        client.invalidateQueries({ queryKey: DEVICES_LIST_KEY }),
        client.invalidateQueries({ queryKey: BINDINGS_KEY }),
      ]),
  });
}
