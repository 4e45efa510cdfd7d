// The list of one asset kind with everything done to it: keyword filter, server-paged table,
// create / edit form, delete with confirmation, import and export, and the binding history. A
// child kind (cold rooms, refrigerators) is listed inside its parent, which new rows get too.
import type { ReactNode } from 'react';
import { DeleteOutlined, EditOutlined, HistoryOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AssetKind } from '@iotc/shared/asset';
import { ServerTable } from '../../../components/data-table/server-table.tsx';
import type { RowButton, TableDescriptor } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { useLabel } from '../../../lib/label.ts';
import type { ListParams } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useDeleteAsset } from '../api/asset-delete.ts';
import { assetPath, useAssets } from '../api/assets.ts';
import { AssetBindingsDrawer } from './asset-bindings-drawer.tsx';
import { AssetFormModal, type AssetFormTarget, type AssetParent } from './asset-form-modal.tsx';
import { assetColumns, assetConfig, assetFieldLabels, kindLabel, type AssetView } from './asset-kinds.ts';
import { ImportModal } from './import-modal.tsx';
import { useSheetButtons } from './use-sheet-buttons.tsx';

const FILTERS: FilterItem[] = [{ label: 'asset.keyword', key: 'keyword', type: 'input' }];

export interface AssetTableProps {
  kind: AssetKind;
  list: ListParams;
  /** Lists the assets inside this one, and new assets go into it. */
  parent?: AssetParent;
  /** The code opens the row (a warehouse's cold rooms) instead of being plain text. */
  onOpen?: (row: AssetView) => void;
  /** Small tables page 10/20/30/50 (the spec's smaller tables). */
  small?: boolean;
  /** The toolbar's own heading, before the buttons. */
  heading?: ReactNode;
}

export function AssetTable({ kind, list, parent, onOpen, small, heading }: AssetTableProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const can = usePermission();
  const writable = can('device:write');
  const config = assetConfig(kind);
  const path = assetPath(kind);
  const filters = parent ? { ...list.filters, parentId: parent.id } : list.filters;
  const query = useAssets(kind, { ...list, filters });
  const form = useDialog<AssetFormTarget>();
  const bindings = useDialog<AssetView>();
  const importer = useDialog<true>();
  const confirm = useConfirmAction();
  const remove = useDeleteAsset();
  const sheetButtons = useSheetButtons({ path, filters, sort: list.sort, onImport: writable ? () => importer.show(true) : null, testPrefix: kind });

  const del = (row: AssetView) =>
    confirm({
      title: t('asset.deleteTitle', { code: row.code }),
      content: (
        <div data-testid="asset-delete-content">
          <p>{t('asset.deleteContent', { kind: label(kindLabel(kind)), code: row.code, name: row.name })}</p>
          {row.devices.length ? <p>{t('asset.deleteDevices', { count: row.devices.length, devices: row.devices.map((d) => d.deviceId).join(', ') })}</p> : null}
          {kind === 'warehouse' || kind === 'cold_room' ? <p className="asset-muted">{t('asset.deleteChildren')}</p> : null}
        </div>
      ),
      okText: t('asset.delete'),
      danger: true,
      action: () => remove.mutateAsync({ kind, id: row.id }),
      success: t('asset.deleted'),
    });

  const rowButtons: RowButton<AssetView>[] = [
    { name: 'asset.binding.history', icon: <HistoryOutlined />, showtype: 'i', testId: `${kind}-action-bindings`, onClick: (r) => bindings.show(r) },
    ...(writable
      ? [
          { name: 'asset.edit', icon: <EditOutlined />, showtype: 'i' as const, testId: `${kind}-action-edit`, onClick: (r: AssetView) => form.show({ mode: 'edit', row: r }) },
          { name: 'asset.delete', icon: <DeleteOutlined />, showtype: 'i' as const, danger: true, testId: `${kind}-action-delete`, onClick: del },
        ]
      : []),
  ];

  const descriptor: TableDescriptor<AssetView> = {
    id: `assets-${kind}`,
    rowKey: 'id',
    columns: assetColumns(kind, { codeAsLink: !!onOpen }),
    topButtons: [
      ...(writable ? [{ name: config.newLabel, icon: <PlusOutlined />, primary: true, testId: `${kind}-new`, onClick: () => form.show({ mode: 'create', parent }) }] : []),
      ...sheetButtons,
    ],
    rowButtons,
    pageSizes: small ? 'small' : 'main',
  };

  return (
    <div className="asset-table" data-testid={`asset-table-${kind}`}>
      {heading}
      <FilterBar items={FILTERS} value={list.filters} onSearch={list.setFilters} />
      <ServerTable descriptor={descriptor} list={list} query={query} onLink={onOpen ? (row) => onOpen(row) : undefined} />
      <AssetFormModal kind={kind} target={form.target} open={form.open} onClose={form.hide} afterClose={form.afterClose} />
      <AssetBindingsDrawer row={bindings.target} open={bindings.open} onClose={bindings.hide} afterClose={bindings.afterClose} />
      <ImportModal open={importer.open} onClose={importer.hide} path={path} what={label(config.title)} templateName={`${config.resource}-template.xlsx`} fieldLabels={assetFieldLabels(kind)} />
    </div>
  );
}
