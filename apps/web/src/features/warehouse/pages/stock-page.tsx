// warehouse/stock: the approved stock of each warehouse → room (or the warehouse floor) → goods /
// batch, with what came in and went out and the last movement; and the warehouses and stock per
// province as bars. Filters: warehouse, goods or batch, province, and whether goods back to zero
// are listed. Address: `f.warehouseId`, `f.keyword`, `f.province`, `f.includeEmpty`.
import { useMemo } from 'react';
import { Card, Empty, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../../components/chart/echart.tsx';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useLang } from '../../../lib/language.ts';
import { useListParams, type FilterValues } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { usePlaces } from '../api/places.ts';
import { useProvinces, useStock } from '../api/stock.ts';
import { provinceChart, provinceText, stockTree, type StockNode } from '../components/stock-model.ts';
import '../components/warehouse.css';

const STOCK_FILTERS = ['warehouseId', 'keyword', 'province', 'includeEmpty'] as const;

export default function StockPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const can = usePermission();
  const canRead = can('warehouse:read');
  const list = useListParams('warehouse-stock');
  const filters = useMemo(() => {
    const out: FilterValues = {};
    for (const k of STOCK_FILTERS) if (list.filters[k]) out[k] = list.filters[k]!;
    return out;
  }, [list.filters]);
  const stock = useStock(filters);
  const provinces = useProvinces();
  const places = usePlaces(canRead && can('device:read'));

  const items = useMemo(
    (): FilterItem[] => [
      { label: 'warehouse.filter.warehouse', key: 'warehouseId', type: 'select', width: 220, options: (places.data ?? []).map((p) => ({ value: p.value, label: p.label })) },
      { label: 'warehouse.filter.keyword', key: 'keyword', type: 'input', width: 200, placeholder: 'warehouse.filter.keywordPlaceholder' },
      { label: 'warehouse.filter.province', key: 'province', type: 'select', width: 140, options: (provinces.data ?? []).filter((p) => p.province).map((p) => ({ value: p.province, label: provinceText(p, lang, '') })) },
      {
        label: 'warehouse.stock.includeEmpty',
        key: 'includeEmpty',
        type: 'select',
        width: 140,
        options: [
          { value: 'false', label: 'warehouse.stock.onlyInStock' },
          { value: 'true', label: 'warehouse.stock.withEmpty' },
        ],
      },
    ],
    [places.data, provinces.data, lang],
  );
  const tree = useMemo(() => stockTree(stock.data?.rows ?? [], t('warehouse.detail.atWarehouse')), [stock.data, t]);
  const option = useMemo(
    () => provinceChart(provinces.data ?? [], { warehouses: t('warehouse.stock.warehouses'), stock: t('warehouse.stock.quantity'), noProvince: t('warehouse.stock.noProvince') }, lang),
    [provinces.data, t, lang],
  );

  if (!canRead) return <Forbidden />;

  return (
    <Card title={<span data-testid="screen-title">{t('warehouse.stock.title')}</span>} data-testid="warehouse-stock-page">
      <FilterBar items={items} value={filters} onSearch={list.setFilters} onReset={() => list.setFilters({})} />
      <div className="wh-stock-grid">
        <Card size="small" title={t('warehouse.stock.perRoom')}>
          {stock.data?.truncated ? <div className="wh-muted wh-gap">{t('warehouse.stock.truncated')}</div> : null}
          <Table<StockNode>
            size="small"
            rowKey="key"
            loading={stock.isFetching}
            dataSource={tree}
            pagination={false}
            expandable={{ defaultExpandAllRows: true }}
            key={tree.length}
            data-testid="wh-stock-table"
            scroll={{ x: 760 }}
            columns={[
              { title: t('warehouse.stock.place'), dataIndex: 'name', width: 260, render: (v: string, r) => (r.level === 'goods' ? v : <strong>{v}</strong>) },
              { title: t('warehouse.col.batch'), dataIndex: 'batchNo', width: 120 },
              { title: t('warehouse.stock.quantity'), dataIndex: 'quantity', width: 110, render: (v: string, r) => (r.level === 'goods' ? <strong data-testid="wh-stock-quantity">{v}</strong> : t('warehouse.stock.lines', { count: r.lines })) },
              { title: t('warehouse.stock.in'), dataIndex: 'inQuantity', width: 100 },
              { title: t('warehouse.stock.out'), dataIndex: 'outQuantity', width: 100 },
              { title: t('warehouse.stock.lastMovement'), dataIndex: 'lastMovementAt', width: 170 },
            ]}
            locale={{ emptyText: <Empty description={t('warehouse.stock.none')} /> }}
          />
        </Card>
        <Card size="small" title={t('warehouse.stock.byProvince')}>
          {(provinces.data ?? []).length ? <EChart option={option} height={360} data-testid="wh-province-chart" /> : <Empty description={t('warehouse.stock.noWarehouses')} />}
        </Card>
      </div>
    </Card>
  );
}
