// GET /api/iot/v2/<resource> of every asset kind (`keyword`, `parentId` filters): the list made
// ready for the table. (The asset pickers' search is the console's shared one, api/pickers.ts.)
import { useCallback } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AssetKind, AssetRow } from '@iotc/shared/asset';
import { assetPath } from '../../../api/pickers.ts';
import type { Page } from '@iotc/shared/envelope';
import { useLang } from '../../../lib/language.ts';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';
import { toAssetView } from '../components/asset-kinds.ts';

export { assetPath };

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
