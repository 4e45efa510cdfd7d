// alarm/places: the place library of the caller's organisations (issue 26 item 2): named circles
// and polygons used by alarm policies' allowed and stay places, transport tasks and templates'
// origins and destinations, and warehouses. A keyword filter and the paged table; writers make,
// edit (every copy follows) and delete them (refused while in use, naming where), and bring
// them in and out as GeoJSON.
import { useMemo, useRef, useState } from 'react';
import { App, Card } from 'antd';
import dayjs from 'dayjs';
import { DeleteOutlined, DownloadOutlined, EditOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { PlaceRow } from '@iotc/shared/place';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { RowButton, TableDescriptor, TopButton } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useListParams, type FilterValues, type ListState } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { exportPlaces, useDeletePlace, useImportPlaces, usePlaces } from '../api/places.ts';
import { PlaceFormDrawer, type PlaceFormTarget } from '../components/place-form-drawer.tsx';

const FILTERS: FilterItem[] = [{ label: 'place.keyword', key: 'keyword', type: 'input', width: 240, placeholder: 'place.keywordPlaceholder' }];

function keywordOnly(keyword: string | undefined): FilterValues {
  return keyword ? { keyword } : {};
}

interface PlaceView {
  id: string;
  name: string;
  orgName: string;
  shape: string;
  where: string;
  size: string;
  note: string;
  updatedAt: string;
  row: PlaceRow;
}

export default function PlacesPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message, modal } = App.useApp();
  const can = usePermission();
  const canWrite = can('place:write');
  const list = useListParams('places', { sort: 'updatedAt,desc' });
  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: list.sort, filters: keywordOnly(list.filters.keyword) }), [list.page, list.size, list.sort, list.filters.keyword]);
  const query = usePlaces(state);
  const editor = useDialog<PlaceFormTarget>();
  const remove = useDeletePlace();
  const importer = useImportPlaces();
  const confirm = useConfirmAction();
  const fileInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const rows = useMemo(
    () =>
      (query.data?.rows ?? []).map(
        (r): PlaceView => ({
          id: r.id,
          name: r.name,
          orgName: r.orgName,
          shape: r.shape === 'circle' ? t('place.shapeCircle') : t('place.shapePolygon'),
          where: `${r.lat.toFixed(6)}, ${r.lon.toFixed(6)}`,
          size: r.shape === 'circle' ? `${r.radiusM} m` : t('place.corners', { count: r.polygon?.length ?? 0 }),
          note: r.note,
          updatedAt: dayjs(r.updatedAt).format(DATETIME_FORMAT),
          row: r,
        }),
      ),
    [query.data, t],
  );

  const importFile = async (file: File) => {
    setBusy(true);
    try {
      const collection: unknown = JSON.parse(await file.text());
      const result = await importer.mutateAsync(collection);
      const summary = t('place.imported', { created: result.created, updated: result.updated });
      if (result.errors.length === 0) void message.success(summary);
      else
        modal.warning({
          title: summary,
          content: (
            <ul data-testid="place-import-errors">
              {result.errors.map((e) => (
                <li key={e.feature}>{t('place.importError', { feature: e.feature, message: e.message })}</li>
              ))}
            </ul>
          ),
        });
    } catch (error) {
      void message.error({ content: error instanceof SyntaxError ? t('place.importNotJson') : apiErrorText(error, lang), className: 'action-error', duration: 6 });
    } finally {
      setBusy(false);
    }
  };

  const writes: RowButton<PlaceView>[] = canWrite
    ? [
        { name: 'place.edit', icon: <EditOutlined />, showtype: 'i', testId: 'place-edit', onClick: (r) => editor.show({ mode: 'edit', row: r.row }) },
        {
          name: 'place.delete',
          icon: <DeleteOutlined />,
          showtype: 'i',
          danger: true,
          testId: 'place-delete',
          onClick: (r) =>
            confirm({
              title: t('place.deleteTitle', { name: r.name }),
              content: t('place.deleteHint'),
              okText: t('place.delete'),
              danger: true,
              action: () => remove.mutateAsync(r.id),
              success: t('place.deleted', { name: r.name }),
            }),
        },
      ]
    : [];
  const topButtons: TopButton[] = [
    ...(canWrite ? [{ name: 'place.new', icon: <PlusOutlined />, primary: true, testId: 'place-new', onClick: () => editor.show({ mode: 'create' }) }] : []),
    ...(canWrite ? [{ name: 'place.import', icon: <UploadOutlined />, testId: 'place-import', onClick: () => fileInput.current?.click() }] : []),
    {
      name: 'place.export',
      icon: <DownloadOutlined />,
      testId: 'place-export',
      onClick: () => void exportPlaces().catch((error: unknown) => void message.error({ content: apiErrorText(error, lang), className: 'action-error' })),
    },
  ];
  const descriptor: TableDescriptor<PlaceView> = {
    id: 'places',
    rowKey: 'id',
    columns: [
      { key: 'place.name', value: 'name', width: 200, sortable: true, testId: 'place-cell-name' },
      { key: 'place.org', value: 'orgName', width: 160 },
      { key: 'place.shape', value: 'shape', width: 100 },
      { key: 'place.centre', value: 'where', width: 200, testId: 'place-cell-where' },
      { key: 'place.size', value: 'size', width: 120 },
      { key: 'place.note', value: 'note', width: 200 },
      { key: 'place.updatedAt', value: 'updatedAt', type: 'datetime', sortable: true },
    ],
    rowButtons: writes,
    topButtons,
    pageSizes: 'main',
    actionWidth: 100,
  };

  if (!can('place:read')) return <Forbidden />;

  return (
    <Card title={<span data-testid="screen-title">{t('place.title')}</span>} data-testid="places-page">
      <FilterBar items={FILTERS} value={list.filters} onSearch={(v) => list.setFilters(v)} onReset={() => list.setFilters({})} />
      <DataTable<PlaceView>
        descriptor={descriptor}
        rows={rows}
        total={query.data?.total ?? 0}
        page={list.page}
        size={list.size}
        sort={list.sort}
        onChange={list.setTable}
        loading={query.isFetching || busy}
        error={query.isError && !query.data ? query.error : undefined}
        onRetry={() => void query.refetch()}
        emptyText={t('place.none')}
      />
      <input
        ref={fileInput}
        type="file"
        accept=".geojson,.json,application/geo+json,application/json"
        hidden
        data-testid="place-import-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void importFile(file);
        }}
      />
      <PlaceFormDrawer target={editor.target} open={editor.open} onClose={editor.hide} afterClose={editor.afterClose} />
    </Card>
  );
}
