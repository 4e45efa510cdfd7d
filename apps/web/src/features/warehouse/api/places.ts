// GET /api/iot/v2/warehouses, /cold-rooms and /refrigerators (first 100 of each): the places a
// record can be at, as a tree warehouse → cold room → refrigerator for the pickers. Reading the
// assets needs device:read; without it the pickers stay empty and the list still works.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AssetRow } from '@iotc/shared/asset';
import type { Page } from '@iotc/shared/envelope';
import { request } from '../../../api/client.ts';
import { WAREHOUSE_KEY } from './records.ts';

export interface PlaceNode {
  value: string;
  label: string;
  kind: AssetRow['kind'];
  tempMin: number | null;
  tempMax: number | null;
  children?: PlaceNode[];
}

const list = (resource: string, signal: AbortSignal) =>
  request<Page<AssetRow>>(`/api/iot/v2/${resource}`, { query: { page: 1, size: 100, sort: 'code,asc' }, signal, silent: true }).then((p) => p.rows);

/** Warehouses with their cold rooms and refrigerators (a refrigerator under its cold room, or its warehouse). */
export function placeTree(warehouses: AssetRow[], rooms: AssetRow[], fridges: AssetRow[]): PlaceNode[] {
  const node = (a: AssetRow): PlaceNode => ({ value: a.id, label: `${a.name} (${a.code})`, kind: a.kind, tempMin: a.tempMin, tempMax: a.tempMax });
  const nodes = new Map<string, PlaceNode>();
  for (const a of [...warehouses, ...rooms, ...fridges]) nodes.set(a.id, node(a));
  const roots: PlaceNode[] = [];
  for (const a of [...warehouses, ...rooms, ...fridges]) {
    const n = nodes.get(a.id)!;
    const parent = a.parentId ? nodes.get(a.parentId) : undefined;
    if (a.kind === 'warehouse') roots.push(n);
    else if (parent) (parent.children ??= []).push(n);
  }
  return roots;
}

export function placesQueryOptions(enabled: boolean) {
  return queryOptions({
    queryKey: [...WAREHOUSE_KEY, 'places'] as const,
    queryFn: async ({ signal }) => {
      const [w, r, f] = await Promise.all([list('warehouses', signal), list('cold-rooms', signal), list('refrigerators', signal)]);
      return placeTree(w, r, f);
    },
    enabled,
    staleTime: 60_000,
  });
}

export function usePlaces(enabled: boolean) {
  return useQuery(placesQueryOptions(enabled));
}
