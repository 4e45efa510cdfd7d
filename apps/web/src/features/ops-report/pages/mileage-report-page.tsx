// report/mileage: the distance each vehicle or container covered in a day, ISO week or month, per
// local day, from its odometer where it has one, else from its GPS track. Filters (period and a
// day of it, vehicles and containers) above the totals, a chart (km per day stacked by vehicle;
// for one day the vehicles that went furthest) and the table of vehicles with their km per day,
// driving time, trips and top speed. Downloads the PDF or Excel file the server makes. Address:
// `period`, `date`, `ids`.
import { useMemo } from 'react';
import { Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { FileFormat, MileageReport, MileageReportRow } from '@iotc/shared/ops-report';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useLang } from '../../../lib/language.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useExport } from '../../../lib/use-export.ts';
import { downloadMileageReport, useMileageReport } from '../api/mileage-report.ts';
import { mileageChartOption, TOP_SUBJECTS } from '../components/ops-report-charts.ts';
import { dayLabel, formatDuration, km, mileageRequest, switchPeriod } from '../components/ops-report-model.ts';
import { PeriodFilter, ReportBody, ReportFrame, ReportOverview, useOpsFilters } from '../components/report-parts.tsx';
import { SubjectSelect } from '../components/subject-select.tsx';
import '../components/ops-report.css';
import { usePagination } from '../../../components/data-table/pagination.ts';

const VEHICLE_KINDS = ['vehicle', 'container'] as const;

function MileageTable({ report, loading }: { report: MileageReport; loading: boolean }) {
  const { t } = useTranslation();
  const pagination = usePagination('main');
  const lang = useLang();
  const perDay = report.period !== 'day';
  const dayTotals = report.dates.map((_, i) => report.rows.reduce((s, r) => s + (r.days[i] ?? 0), 0));
  const columns: ColumnsType<MileageReportRow> = [
    { key: 'name', title: t('opsReport.mileage.col.vehicle'), fixed: 'left', width: 180, ellipsis: true, render: (_, r) => <span data-testid="ops-cell-name">{r.name}</span>, sorter: (a, b) => a.name.localeCompare(b.name) },
    { key: 'plate', title: t('opsReport.mileage.col.plate'), render: (_, r) => r.plate ?? '—' },
    { key: 'kind', title: t('opsReport.mileage.col.kind'), render: (_, r) => (r.kind === 'vehicle' || r.kind === 'container' ? t(`opsReport.kind.${r.kind}`) : r.kind) },
    {
      key: 'total',
      title: t('opsReport.mileage.col.totalKm'),
      align: 'right',
      render: (_, r) => (
        <strong className="ops-num" data-testid="ops-cell-total">
          {km(r.totalKm)}
        </strong>
      ),
      sorter: (a, b) => a.totalKm - b.totalKm,
      defaultSortOrder: 'descend',
    },
    ...(perDay
      ? report.dates.map(
          (date, i): ColumnsType<MileageReportRow>[number] => ({
            key: `day-${date}`,
            title: dayLabel(date),
            align: 'right',
            render: (_, r) => (
              <span className="ops-num" data-testid={`ops-cell-day-${i}`}>
                {km(r.days[i])}
              </span>
            ),
          }),
        )
      : []),
    { key: 'source', title: t('opsReport.mileage.col.source'), render: (_, r) => <span data-testid="ops-cell-source">{t(`opsReport.mileage.source.${r.source}`)}</span> },
    { key: 'driving', title: t('opsReport.mileage.col.driving'), align: 'right', render: (_, r) => formatDuration(r.drivingS, lang) },
    { key: 'trips', title: t('opsReport.mileage.col.trips'), align: 'right', render: (_, r) => r.trips },
    { key: 'maxSpeed', title: t('opsReport.mileage.col.maxSpeed'), align: 'right', render: (_, r) => (r.maxSpeedKmh === null ? '—' : r.maxSpeedKmh.toFixed(0)) },
  ];
  return (
    <Table<MileageReportRow>
      size="small"
      rowKey="assetId"
      columns={columns}
      dataSource={report.rows}
      loading={loading}
      scroll={{ x: 'max-content' }}
      pagination={pagination}
      data-testid="ops-table"
      summary={() => (
        <Table.Summary>
          <Table.Summary.Row className="ops-totals" data-testid="ops-totals">
            {/* The label in the vehicle column alone, which is fixed: it stays in view while the days scroll. */}
            <Table.Summary.Cell index={0}>
              <strong>{t('opsReport.total')}</strong>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={1} colSpan={2} />
            <Table.Summary.Cell index={3} align="right">
              <strong className="ops-num" data-testid="ops-total-km">
                {km(report.totalKm)}
              </strong>
            </Table.Summary.Cell>
            {perDay
              ? dayTotals.map((v, i) => (
                  <Table.Summary.Cell key={report.dates[i]} index={4 + i} align="right">
                    <span className="ops-num">{km(v)}</span>
                  </Table.Summary.Cell>
                ))
              : null}
            <Table.Summary.Cell index={4 + (perDay ? report.dates.length : 0)} colSpan={4} />
          </Table.Summary.Row>
        </Table.Summary>
      )}
    />
  );
}

export default function MileageReportPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const can = usePermission();
  const { filters, set } = useOpsFilters();
  const query = useMemo(() => mileageRequest(filters), [filters]);
  const report = useMileageReport(query);
  const { exporting, download } = useExport<FileFormat>(
    (format) => downloadMileageReport(query, format),
    (name) => t('opsReport.exported', { name }),
  );
  const data = report.isError ? undefined : report.data;
  const known = useMemo(() => Object.fromEntries((data?.rows ?? []).map((r) => [r.assetId, r.plate ? `${r.name} (${r.plate})` : r.name])), [data]);
  const option = useMemo(() => (data && data.rows.length > 0 ? mileageChartOption(data, { km: t('opsReport.mileage.km'), others: t('opsReport.mileage.others') }) : null), [data, t]);

  if (!can('device:read')) return <Forbidden />;

  const toolbar = (
    <Space wrap size={[16, 8]} data-testid="ops-filters">
      <PeriodFilter filters={filters} onPeriod={(period) => set(switchPeriod(filters, period))} onDate={(date) => set({ date })} />
      <SubjectSelect kinds={VEHICLE_KINDS} value={filters.ids} onChange={(ids) => set({ ids })} known={known} placeholder={t('opsReport.allVehicles')} />
    </Space>
  );

  const body = (
    <ReportBody query={report}>
      {(r: MileageReport) => {
        const trips = r.rows.reduce((s, x) => s + x.trips, 0);
        const driving = r.rows.reduce((s, x) => s + x.drivingS, 0);
        const cards = [
          { key: 'totalKm', title: t('opsReport.mileage.card.totalKm'), value: `${km(r.totalKm)} km` },
          { key: 'vehicles', title: t('opsReport.mileage.card.vehicles'), value: String(r.rows.length) },
          { key: 'average', title: t('opsReport.mileage.card.average'), value: r.rows.length ? `${km(r.totalKm / r.rows.length)} km` : '—' },
          { key: 'trips', title: t('opsReport.mileage.card.trips'), value: String(trips) },
          { key: 'driving', title: t('opsReport.mileage.card.driving'), value: formatDuration(driving, lang) },
        ];
        return (
          <ReportOverview
            report={r}
            cards={cards}
            empty={r.rows.length === 0}
            emptyText={t('opsReport.mileage.empty')}
            chartTitle={r.period === 'day' ? t('opsReport.mileage.chartTop', { n: TOP_SUBJECTS }) : t('opsReport.mileage.chartPerDay')}
            option={option}
            table={<MileageTable report={r} loading={report.isFetching} />}
          />
        );
      }}
    </ReportBody>
  );

  return (
    <ReportFrame title={t('opsReport.mileage.title')} testId="mileage-report-page" exporting={exporting} onDownload={(f) => void download(f)} toolbar={toolbar}>
      {body}
    </ReportFrame>
  );
}
