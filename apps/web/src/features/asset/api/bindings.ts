// GET /api/iot/v2/devices/:id/bindings and GET /api/iot/v2/<resource>/:id/bindings: the binding
// history of a device or of an asset, newest first, one page at a time.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { ASSET_API, ASSET_RESOURCES, type AssetKind, type BindingRow } from '@iotc/shared/asset';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { Page } from '@iotc/shared/envelope';
import { request } from '../../../api/client.ts';

/** Every binding history: what binding changes invalidate. */
export const BINDINGS_KEY = ['asset', 'bindings'] as const;

/** Whose history: a device (its row id) or an asset of a kind. */
export type BindingOwner = { device: string } | { kind: AssetKind; id: string };

export interface BindingView extends BindingRow {
  boundAtText: string;
  unboundAtText: string;
  /** The binding in force now. */
  current: boolean;
}

function pathOf(owner: BindingOwner): string {
  return 'device' in owner ? ASSET_API.deviceBindings(encodeURIComponent(owner.device)) : ASSET_API.assetBindings(ASSET_RESOURCES[owner.kind], encodeURIComponent(owner.id));
}

export function toBindingView(r: BindingRow): BindingView {
  return {
    ...r,
    boundAtText: dayjs(r.boundAt).format(DATETIME_FORMAT),
    unboundAtText: r.unboundAt ? dayjs(r.unboundAt).format(DATETIME_FORMAT) : '',
    current: r.unboundAt === null,
  };
}

export function useBindings(owner: BindingOwner | null, page: number, size: number) {
  const path = owner ? pathOf(owner) : '';
  return useQuery({
    queryKey: [...BINDINGS_KEY, path, page, size],
    queryFn: ({ signal }) => request<Page<BindingRow>>(path, { query: { page, size }, signal }),
    enabled: owner !== null,
    placeholderData: keepPreviousData,
    select: (data) => ({ ...data, rows: data.rows.map(toBindingView) }),
  });
}
