// The vehicle or container carrying a task's goods, searched as the user types (code or name)
// through the shared asset search, and what picking one fills in.
import type { AssetRow } from '@iotc/shared/asset';
import { assetLabel, searchAssetRows } from '../../../api/pickers.ts';
import type { RemoteOption } from '../../../components/remote-select.tsx';

export const CARRIER_KINDS = ['vehicle', 'container'] as const;
export type CarrierKind = (typeof CARRIER_KINDS)[number];

/** The carriers the searches found, by id: what picking one fills in (its trackers, its driver). */
const found = new Map<string, AssetRow>();

export async function searchCarriers(kind: CarrierKind, search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const rows = await searchAssetRows(kind, search, signal);
  for (const a of rows) found.set(a.id, a);
  return rows.map((a) => ({ value: a.id, label: assetLabel(a) }));
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
