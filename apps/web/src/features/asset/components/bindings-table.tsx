// The binding history of a device (which assets it was mounted on) or of an asset (which
// devices were mounted on it), newest first and paged by the server; the binding in force is
// marked.
import { useState } from 'react';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { TableColumn, TableDescriptor } from '../../../components/data-table/types.ts';
import { useBindings, type BindingOwner, type BindingView } from '../api/bindings.ts';
import { kindLabel } from './asset-kinds.ts';

const KIND_MAP: Record<string, string> = Object.fromEntries(
  ['vehicle', 'container', 'warehouse', 'cold_room', 'refrigerator', 'gateway'].map((k) => [k, kindLabel(k)]),
);

/** The history's columns: the other side of the binding, then when and by whom. */
export function bindingColumns(side: 'device' | 'asset'): TableColumn<BindingView>[] {
  const other: TableColumn<BindingView>[] =
    side === 'device'
      ? [
          { key: 'asset.binding.assetKind', value: 'assetKind', type: 'map', textMap: KIND_MAP },
          { key: 'asset.binding.assetCode', value: 'assetCode' },
          { key: 'asset.binding.assetName', value: 'assetName' },
        ]
      : [{ key: 'asset.device.deviceId', value: 'deviceId' }];
  return [
    ...other,
    { key: 'asset.binding.boundAt', value: 'boundAtText' },
    { key: 'asset.binding.boundBy', value: 'boundBy' },
    { key: 'asset.binding.unboundAt', value: 'unboundAtText' },
    { key: 'asset.binding.unboundBy', value: 'unboundBy' },
    {
      key: 'asset.binding.state',
      value: 'current',
      type: 'button',
      buttons: [
        { key: true, text: 'asset.binding.current', butType: 'tag', background: '#f6ffed', color: '#237804' },
        { key: false, text: 'asset.binding.ended', butType: 'tag', background: '#fafafa', color: 'rgba(0, 0, 0, 0.6)' },
      ],
    },
  ];
}

export function BindingsTable({ owner }: { owner: BindingOwner | null }) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const query = useBindings(owner, page, size);
  const side = owner && 'device' in owner ? 'device' : 'asset';
  const descriptor: TableDescriptor<BindingView> = {
    id: `bindings-${side}`,
    rowKey: 'id',
    pageSizes: 'small',
    columnSettings: false,
    // The drawer is narrow: the times need the room more than a row number does.
    serial: false,
    columns: bindingColumns(side),
  };
  return (
    <div data-testid="binding-history">
      <DataTable
        descriptor={descriptor}
        rows={query.data?.rows ?? []}
        total={query.data?.total ?? 0}
        page={page}
        size={size}
        onChange={(p, s) => {
          setPage(p);
          setSize(s);
        }}
        loading={query.isFetching}
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    </div>
  );
}
