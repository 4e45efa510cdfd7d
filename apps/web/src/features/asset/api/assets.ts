// GET /api/iot/v2/<resource> of every asset kind (`keyword`, `parentId` filters): the list made
// ready for the table, and the search behind the asset pickers.
import { useCallback } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ASSET_API, ASSET_RESOURCES, type AssetKind, type AssetRow } from '@iotc/shared/asset';
import type { Page } from '@iotc/shared/envelope';
import type { RemoteOption } from '../../../components/remote-select.tsx';
import { useLang } from '../../../lib/language.ts';
import { fetchList, listQueryOptions, type ListState } from '../../../lib/list-query.ts';
import { toAssetView } from '../components/asset-kinds.ts';

export function assetPath(kind: AssetKind): string {
  return `${ASSET_API.base}/${ASSET_RESOURCES[kind]}`;
}

/** Every list of one kind, whatever its filters: what that kind's mutations invalidate. */
export function assetListKey(kind: AssetKind) {
  return ['list', assetPath(kind)] as const;
}

export function useAssets(kind: AssetKind, state: ListState, enabled = true) {
  const lang = useLang();
  const select = useCallback((page: Page<AssetRow>) => ({ ...page, rows: page.rows.map((r) => toAssetView(r, lang)) }), [lang]);
  return useQuery({
    ...listQueryOptions<AssetRow>(assetPath(kind), state),
    enabled,
    select,
  });
}

/** Picker options: the first 20 assets of a kind whose code or name contains `search`. */
export async function searchAssets(kind: AssetKind, search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const page = await fetchList<AssetRow>(assetPath(kind), { page: 1, size: 20, filters: search.trim() ? { keyword: search.trim() } : {} }, signal);
  return page.rows.map((r) => ({ value: r.id, label: `${r.code} · ${r.name}` }));
}
