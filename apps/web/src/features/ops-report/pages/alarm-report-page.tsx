// report/alarm: the alarms that started in a day, ISO week or month, grouped by asset, device,
// type or level. Filters (period and a day of it, assets, grouping, type) above the totals, the
// alarms per day stacked by level in the level's colour, and the table of groups with per-level
// counts, acknowledged and open alarms and the mean times to acknowledge and to end. Downloads the
// PDF or Excel file the server makes. Address: `period`, `date`, `ids`, `groupBy`, `type`.
import { useMemo } from 'react';
import { Segmented, Select, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { ALARM_TYPES, type AlarmType } from '@iotc/shared/alarm';
import { ASSET_KINDS } from '@iotc/shared/asset';
import { ALARM_REPORT_GROUPS, type AlarmReport, type AlarmReportGroup, type AlarmReportRow, type FileFormat } from '@iotc/shared/ops-report';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useLang } from '../../../lib/language.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useExport } from '../../../lib/use-export.ts';
import { downloadAlarmReport, useAlarmReport } from '../api/alarm-report.ts';
import { alarmChartOption } from '../components/ops-report-charts.ts';
import { alarmRequest, formatDuration, switchPeriod } from '../components/ops-report-model.ts';
import { PeriodFilter, ReportBody, ReportFrame, ReportOverview, useOpsFilters } from '../components/report-parts.tsx';
import { SubjectSelect } from '../components/subject-select.tsx';
import '../components/ops-report.css';
import { usePagination } from '../../../components/data-table/pagination.ts';

const ALARM_ASSET_KINDS = ASSET_KINDS.filter((k) => k !== 'gateway');
type Totals = AlarmReport['totals'];

function AlarmTable({ report, loading }: { report: AlarmReport; loading: boolean }) {
  const { t } = useTranslation();
  const pagination = usePagination('main');
  const lang = useLang();
  const levelName = (code: string) => report.levels.find((l) => l.code === code)?.name ?? code;
  const label = (row: AlarmReportRow): string => {
    if (report.groupBy === 'type') return (ALARM_TYPES as readonly string[]).includes(row.label) ? t(`alarm.type.${row.label as AlarmType}`) : row.label;
    if (report.groupBy === 'level') return levelName(row.label);
    // Alarms of no asset (a device not bound to one) form a group of their own.
    return row.label || t('opsReport.alarm.none');
  };
  const figures: { key: string; title: string; value: (r: Totals) => string }[] = [
    { key: 'total', title: t('opsReport.alarm.col.total'), value: (r) => String(r.total) },
    ...report.levels.map((l) => ({ key: `level-${l.code}`, title: l.name, value: (r: Totals) => String(r.byLevel[l.code] ?? 0) })),
    { key: 'acknowledged', title: t('opsReport.alarm.col.acknowledged'), value: (r) => String(r.acknowledged) },
    { key: 'open', title: t('opsReport.alarm.col.open'), value: (r) => String(r.open) },
    { key: 'meanAck', title: t('opsReport.alarm.col.meanAck'), value: (r) => formatDuration(r.meanAckS, lang) },
    { key: 'meanDuration', title: t('opsReport.alarm.col.meanDuration'), value: (r) => formatDuration(r.meanDurationS, lang) },
    { key: 'active', title: t('opsReport.alarm.col.active'), value: (r) => formatDuration(r.activeS, lang) },
  ];
  const columns: ColumnsType<AlarmReportRow> = [
    {
      key: 'label',
      title: t(`opsReport.alarm.group.${report.groupBy}`),
      fixed: 'left',
      width: 200,
      ellipsis: true,
      render: (_, row) => <span data-testid="ops-cell-label">{label(row)}</span>,
      sorter: (a, b) => label(a).localeCompare(label(b)),
    },
    ...figures.map(
      (f): ColumnsType<AlarmReportRow>[number] => ({
        key: f.key,
        title: f.key.startsWith('level-') ? (
          <span>
            <span className="ops-level-dot" style={{ background: report.levels.find((l) => `level-${l.code}` === f.key)?.color }} />
            {f.title}
          </span>
        ) : (
          f.title
        ),
        align: 'right',
        render: (_, row) => (
          <span className="ops-num" data-testid={`ops-cell-${f.key}`}>
            {f.value(row)}
          </span>
        ),
      }),
    ),
  ];
  return (
    <Table<AlarmReportRow>
      size="small"
      rowKey="key"
      columns={columns}
      dataSource={report.rows}
      loading={loading}
      scroll={{ x: 'max-content' }}
      pagination={pagination}
      data-testid="ops-table"
      summary={() => (
        <Table.Summary>
          <Table.Summary.Row className="ops-totals" data-testid="ops-totals">
            <Table.Summary.Cell index={0}>
              <strong>{t('opsReport.total')}</strong>
            </Table.Summary.Cell>
            {figures.map((f, i) => (
              <Table.Summary.Cell key={f.key} index={i + 1} align="right">
                <strong className="ops-num">{f.value(report.totals)}</strong>
              </Table.Summary.Cell>
            ))}
          </Table.Summary.Row>
        </Table.Summary>
      )}
    />
  );
}

export default function AlarmReportPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const can = usePermission();
  const { filters, set } = useOpsFilters();
  const query = useMemo(() => alarmRequest(filters), [filters]);
  const report = useAlarmReport(query);
  const { exporting, download } = useExport<FileFormat>(
    (format) => downloadAlarmReport(query, format),
    (name) => t('opsReport.exported', { name }),
  );
  const data = report.isError ? undefined : report.data;
  const known = useMemo(() => (data?.groupBy === 'asset' ? Object.fromEntries(data.rows.map((r) => [r.key, r.label])) : {}), [data]);
  const option = useMemo(
    () => (data && data.totals.total > 0 ? alarmChartOption(data, { alarms: t('opsReport.alarm.alarms'), levelName: (code) => data.levels.find((l) => l.code === code)?.name ?? code }) : null),
    [data, t],
  );

  if (!can('alarm:read')) return <Forbidden />;

  const toolbar = (
    <Space wrap size={[16, 8]} data-testid="ops-filters">
      <PeriodFilter filters={filters} onPeriod={(period) => set(switchPeriod(filters, period))} onDate={(date) => set({ date })} />
      <SubjectSelect kinds={ALARM_ASSET_KINDS} value={filters.ids} onChange={(ids) => set({ ids })} known={known} placeholder={t('opsReport.allAssets')} width={340} />
      <Space size={6}>
        <span>{t('opsReport.alarm.groupBy')}</span>
        <Segmented<AlarmReportGroup>
          value={filters.groupBy}
          onChange={(groupBy) => set({ groupBy })}
          options={ALARM_REPORT_GROUPS.map((g) => ({ value: g, label: <span data-testid={`ops-group-${g}`}>{t(`opsReport.alarm.group.${g}`)}</span> }))}
        />
      </Space>
      <Select<AlarmType>
        aria-label={t('opsReport.alarm.type')}
        allowClear
        value={filters.type}
        placeholder={t('opsReport.alarm.allTypes')}
        style={{ width: 160 }}
        options={ALARM_TYPES.map((ty) => ({ value: ty, label: t(`alarm.type.${ty}`) }))}
        onChange={(type) => set({ type })}
        data-testid="ops-type"
      />
    </Space>
  );

  const body = (
    <ReportBody query={report}>
      {(r: AlarmReport) => {
        const cards = [
          { key: 'total', title: t('opsReport.alarm.card.total'), value: String(r.totals.total) },
          { key: 'acknowledged', title: t('opsReport.alarm.card.acknowledged'), value: String(r.totals.acknowledged) },
          { key: 'open', title: t('opsReport.alarm.card.open'), value: String(r.totals.open) },
          { key: 'meanAck', title: t('opsReport.alarm.card.meanAck'), value: formatDuration(r.totals.meanAckS, lang) },
          { key: 'meanDuration', title: t('opsReport.alarm.card.meanDuration'), value: formatDuration(r.totals.meanDurationS, lang) },
        ];
        return (
          <ReportOverview
            report={r}
            cards={cards}
            empty={r.rows.length === 0}
            emptyText={t('opsReport.alarm.empty')}
            chartTitle={t('opsReport.alarm.chartTitle')}
            option={option}
            table={<AlarmTable report={r} loading={report.isFetching} />}
          />
        );
      }}
    </ReportBody>
  );

  return (
    <ReportFrame title={t('opsReport.alarm.title')} testId="alarm-report-page" exporting={exporting} onDownload={(f) => void download(f)} toolbar={toolbar}>
      {body}
    </ReportFrame>
  );
}
