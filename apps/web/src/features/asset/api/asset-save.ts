// POST /api/iot/v2/<resource> (a new asset) and PUT /api/iot/v2/<resource>/:id (a change); both
// take the kind's body of the shared contract. Device lists show asset codes and names, so
// they are refreshed too.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AssetBody, AssetKind, AssetRow } from '@iotc/shared/asset';
import { request } from '../../../api/client.ts';
import { assetListKey, assetPath } from './assets.ts';
import { DEVICES_LIST_KEY } from './devices.ts';

export interface AssetSave {
  kind: AssetKind;
  /** Absent: create. */
  id?: string;
  body: AssetBody;
}

export function saveAsset({ kind, id, body }: AssetSave): Promise<AssetRow> {
  return id
    ? request<AssetRow>(`${assetPath(kind)}/${encodeURIComponent(id)}`, { method: 'PUT', body, silent: true })
    : request<AssetRow>(assetPath(kind), { method: 'POST', body, silent: true });
}

export function useSaveAsset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveAsset,
    onSuccess: (_row, { kind }) =>
      Promise.all([client.invalidateQueries({ queryKey: assetListKey(kind) }), client.invalidateQueries({ queryKey: DEVICES_LIST_KEY })]),
  });
}
