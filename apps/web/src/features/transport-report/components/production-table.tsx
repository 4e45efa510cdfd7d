// The production report as a table: one row per group with every figure of ProductionRow (rates
// as percentages, distance in km) and the totals as the last row. antd's Table is used here
// rather than the shared DataTable: the report needs a totals row under every page and local
// sorting of a few hundred rows, neither of which the list table offers.
import { Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { ProductionGroup, ProductionPeriod, ProductionRow } from '@iotc/shared/report';
import { useLang } from '../../../lib/language.ts';
import { amount, keyLabel, km, percent } from './production-model.ts';
import { usePagination } from '../../../components/data-table/pagination.ts';

type Figure = Exclude<keyof ProductionRow, 'key'>;

/** The figures in column order, with their header key and how a value is shown. */
const FIGURES = [
  { field: 'tasks', title: 'transportReport.col.tasks', show: 'count' },
  { field: 'pending', title: 'transportReport.col.pending', show: 'count' },
  { field: 'inTransit', title: 'transportReport.col.inTransit', show: 'count' },
  { field: 'delivered', title: 'transportReport.col.delivered', show: 'count' },
  { field: 'cancelled', title: 'transportReport.col.cancelled', show: 'count' },
  { field: 'onTime', title: 'transportReport.col.onTime', show: 'count' },
  { field: 'late', title: 'transportReport.col.late', show: 'count' },
  { field: 'onTimeRate', title: 'transportReport.col.onTimeRate', show: 'rate' },
  { field: 'withAlarms', title: 'transportReport.col.withAlarms', show: 'count' },
  { field: 'alarms', title: 'transportReport.col.alarms', show: 'count' },
  { field: 'alarmRate', title: 'transportReport.col.alarmRate', show: 'rate' },
  { field: 'distanceM', title: 'transportReport.col.distance', show: 'km' },
  { field: 'goodsValue', title: 'transportReport.col.goodsValue', show: 'money' },
] as const satisfies readonly { field: Figure; title: string; show: 'count' | 'rate' | 'km' | 'money' }[];

export interface ProductionTableProps {
  rows: ProductionRow[];
  totals: ProductionRow;
  groupBy: ProductionGroup;
  period: ProductionPeriod;
  loading?: boolean;
}

export function ProductionTable({ rows, totals, groupBy, period, loading }: ProductionTableProps) {
  const { t } = useTranslation();
  const pagination = usePagination('main');
  const lang = useLang();
  const label = (key: string) => keyLabel(key, groupBy, period, t('transportReport.none'));
  const cell = (row: ProductionRow, f: (typeof FIGURES)[number]): string => {
    const v = row[f.field];
    if (f.show === 'rate') return percent(v);
    if (v === null) return '-';
    if (f.show === 'km') return km(v);
    return amount(v, lang);
  };
  const columns: ColumnsType<ProductionRow> = [
    {
      key: 'key',
      title: t(`transportReport.col.key.${groupBy}`),
      dataIndex: 'key',
      fixed: 'left',
      width: 200,
      ellipsis: true,
      render: (_, row) => <span data-testid="tr-cell-key">{label(row.key)}</span>,
      sorter: (a, b) => a.key.localeCompare(b.key),
    },
    ...FIGURES.map(
      (f): ColumnsType<ProductionRow>[number] => ({
        key: f.field,
        title: t(f.title),
        align: 'right',
        render: (_, row) => <span data-testid={`tr-cell-${f.field}`}>{cell(row, f)}</span>,
        sorter: (a, b) => (a[f.field] ?? -1) - (b[f.field] ?? -1),
      }),
    ),
  ];
  return (
    <Table<ProductionRow>
      size="small"
      rowKey={(row) => row.key}
      columns={columns}
      dataSource={rows}
      loading={loading}
      scroll={{ x: 'max-content' }}
      pagination={pagination}
      data-testid="tr-table"
      summary={() => (
        <Table.Summary fixed="bottom">
          <Table.Summary.Row className="tr-totals" data-testid="tr-totals">
            <Table.Summary.Cell index={0}>
              <strong>{t('transportReport.total')}</strong>
            </Table.Summary.Cell>
            {FIGURES.map((f, i) => (
              <Table.Summary.Cell key={f.field} index={i + 1} align="right">
                <strong data-testid={`tr-total-${f.field}`}>{cell(totals, f)}</strong>
              </Table.Summary.Cell>
            ))}
          </Table.Summary.Row>
        </Table.Summary>
      )}
    />
  );
}
