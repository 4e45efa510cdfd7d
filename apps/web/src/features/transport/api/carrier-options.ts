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

/** The carriers the searches found, by id: what picking one fills in (its trackers, its driver). */
const found = new Map<string, AssetRow>();

export async function searchCarriers(kind: CarrierKind, search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const keyword = search.trim();
  const page = await fetchList<AssetRow>(`${ASSET_API.base}/${ASSET_RESOURCES[kind]}`, { page: 1, size: 20, filters: keyword ? { keyword } : {} }, signal);
  for (const a of page.rows) found.set(a.id, a);
  return page.rows.map((a) => ({ value: a.id, label: carrierLabel(a) }));
}

/** A carrier a search found (with its bound devices and attributes), if any did. */
export function foundCarrier(id: string): AssetRow | undefined {
  return found.get(id);
}

/** The driver a vehicle's attributes name (vehicles only; empty strings as none). */
export function driverOf(a: AssetRow): { name: string | null; phone: string | null } {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  return a.kind === 'vehicle' ? { name: text(a.attrs.driver), phone: text(a.attrs.driverPhone) } : { name: null, phone: null };
}
