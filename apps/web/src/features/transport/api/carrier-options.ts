// GET /api/iot/v2/vehicles or /containers?keyword=&size=20: the vehicle or container carrying a
// task's goods, searched as the user types (code or name).
import { ASSET_API, ASSET_RESOURCES, type AssetRow } from '@iotc/shared/asset';
import type { RemoteOption } from '../../../components/remote-select.tsx';
import { fetchList } from '../../../lib/list-query.ts';

export const CARRIER_KINDS = ['vehicle', 'container'] as const;
export type CarrierKind = (typeof CARRIER_KINDS)[number];

export function carrierLabel(a: { code: string; name: string }): string {
  return a.name && a.name !== a.code ? `${a.code} · ${a.name}` : a.code;
}

export async function searchCarriers(kind: CarrierKind, search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const keyword = search.trim();
  const page = await fetchList<AssetRow>(`${ASSET_API.base}/${ASSET_RESOURCES[kind]}`, { page: 1, size: 20, filters: keyword ? { keyword } : {} }, signal);
  return page.rows.map((a) => ({ value: a.id, label: carrierLabel(a) }));
}
