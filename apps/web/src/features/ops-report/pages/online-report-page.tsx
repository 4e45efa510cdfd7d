// report/online: the devices' online rate for a day, ISO week or month. A device counts as online
// for the offline threshold after each report (or until its next one); the rate is that time over
// the period's. Filters (period and a day of it, devices) above the overall rate, a chart (the
// overall rate per day; for one day the devices with the lowest rate) and the table of devices
// with their rate per day, outages and last report. Downloads the PDF or Excel file the server
// makes. Address: `period`, `date`, `ids`.
import { useMemo } from 'react';
import { Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { FileFormat, OnlineReport, OnlineReportRow } from '@iotc/shared/ops-report';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useLang } from '../../../lib/language.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useExport } from '../../../lib/use-export.ts';
import { downloadOnlineReport, useOnlineReport } from '../api/online-report.ts';
import { onlineChartOption, TOP_SUBJECTS } from '../components/ops-report-charts.ts';
import { dayLabel, formatDuration, onlineRequest, percent, switchPeriod } from '../components/ops-report-model.ts';
import { PeriodFilter, ReportBody, ReportFrame, ReportOverview, useOpsFilters } from '../components/report-parts.tsx';
import { SubjectSelect } from '../components/subject-select.tsx';
import '../components/ops-report.css';
import { usePagination } from '../../../components/data-table/pagination.ts';

/** A rate under this stands out in the table. */
const LOW_RATE = 0.9;

function Rate({ value, testId }: { value: number | null; testId?: string }) {
  return (
    <span className={value !== null && value < LOW_RATE ? 'ops-num ops-low' : 'ops-num'} data-testid={testId}>
      {percent(value)}
    </span>
  );
}

function OnlineTable({ report, loading }: { report: OnlineReport; loading: boolean }) {
  const { t } = useTranslation();
  const pagination = usePagination('main');
  const lang = useLang();
  const perDay = report.period !== 'day';
  const columns: ColumnsType<OnlineReportRow> = [
    { key: 'name', title: t('opsReport.online.col.device'), fixed: 'left', width: 180, ellipsis: true, render: (_, r) => <span data-testid="ops-cell-name">{r.name}</span>, sorter: (a, b) => a.name.localeCompare(b.name) },
    { key: 'asset', title: t('opsReport.online.col.asset'), width: 150, ellipsis: true, render: (_, r) => r.asset ?? '—' },
    {
      key: 'rate',
      title: t('opsReport.online.col.rate'),
      align: 'right',
      render: (_, r) => <Rate value={r.rate} testId="ops-cell-rate" />,
      sorter: (a, b) => (a.rate ?? -1) - (b.rate ?? -1),
    },
    ...(perDay
      ? report.dates.map(
          (date, i): ColumnsType<OnlineReportRow>[number] => ({
            key: `day-${date}`,
            title: dayLabel(date),
            align: 'right',
            render: (_, r) => <Rate value={r.days[i] ?? null} testId={`ops-cell-day-${i}`} />,
          }),
        )
      : []),
    { key: 'online', title: t('opsReport.online.col.onlineTime'), align: 'right', render: (_, r) => formatDuration(r.onlineS, lang) },
    { key: 'outages', title: t('opsReport.online.col.outages'), align: 'right', render: (_, r) => <span data-testid="ops-cell-outages">{r.outages}</span>, sorter: (a, b) => a.outages - b.outages },
    { key: 'longest', title: t('opsReport.online.col.longestOutage'), align: 'right', render: (_, r) => (r.outages ? formatDuration(r.longestOutageS, lang) : '—') },
    { key: 'reports', title: t('opsReport.online.col.reports'), align: 'right', render: (_, r) => r.reports },
    { key: 'lastSeen', title: t('opsReport.online.col.lastSeen'), render: (_, r) => (r.lastSeenAt ? dayjs(r.lastSeenAt).format(DATETIME_FORMAT) : '—') },
  ];
  return (
    <Table<OnlineReportRow>
      size="small"
      rowKey="deviceId"
      columns={columns}
      dataSource={report.rows}
      loading={loading}
      scroll={{ x: 'max-content' }}
      pagination={pagination}
      data-testid="ops-table"
      summary={() => (
        <Table.Summary>
          <Table.Summary.Row className="ops-totals" data-testid="ops-totals">
            {/* The label in the device column alone, which is fixed: it stays in view while the days scroll. */}
            <Table.Summary.Cell index={0}>
              <strong>{t('opsReport.online.overall')}</strong>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={1} />
            <Table.Summary.Cell index={2} align="right">
              <strong>
                <Rate value={report.overall.rate} testId="ops-total-rate" />
              </strong>
            </Table.Summary.Cell>
            {perDay
              ? report.dates.map((date, i) => (
                  <Table.Summary.Cell key={date} index={3 + i} align="right">
                    <Rate value={report.overall.days[i] ?? null} />
                  </Table.Summary.Cell>
                ))
              : null}
            <Table.Summary.Cell index={3 + (perDay ? report.dates.length : 0)} colSpan={5} />
          </Table.Summary.Row>
        </Table.Summary>
      )}
    />
  );
}

export default function OnlineReportPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const can = usePermission();
  const { filters, set } = useOpsFilters();
  const query = useMemo(() => onlineRequest(filters), [filters]);
  const report = useOnlineReport(query);
  const { exporting, download } = useExport<FileFormat>(
    (format) => downloadOnlineReport(query, format),
    (name) => t('opsReport.exported', { name }),
  );
  const data = report.isError ? undefined : report.data;
  const known = useMemo(() => Object.fromEntries((data?.rows ?? []).map((r) => [r.deviceId, r.name])), [data]);
  const option = useMemo(() => (data && data.rows.length > 0 ? onlineChartOption(data, { rate: t('opsReport.online.rate') }) : null), [data, t]);

  if (!can('device:read')) return <Forbidden />;

  const toolbar = (
    <Space wrap size={[16, 8]} data-testid="ops-filters">
      <PeriodFilter filters={filters} onPeriod={(period) => set(switchPeriod(filters, period))} onDate={(date) => set({ date })} />
      <SubjectSelect value={filters.ids} onChange={(ids) => set({ ids })} known={known} placeholder={t('opsReport.allDevices')} />
    </Space>
  );

  const body = (
    <ReportBody query={report}>
      {(r: OnlineReport) => {
        const below = r.rows.filter((x) => x.rate !== null && x.rate < LOW_RATE).length;
        const cards = [
          { key: 'rate', title: t('opsReport.online.card.rate'), value: percent(r.overall.rate) },
          { key: 'devices', title: t('opsReport.online.card.devices'), value: String(r.rows.length) },
          { key: 'below', title: t('opsReport.online.card.below', { percent: LOW_RATE * 100 }), value: String(below) },
          { key: 'outages', title: t('opsReport.online.card.outages'), value: String(r.rows.reduce((s, x) => s + x.outages, 0)) },
          { key: 'threshold', title: t('opsReport.online.card.threshold'), value: formatDuration(r.offlineAfterS, lang) },
        ];
        return (
          <ReportOverview
            report={r}
            cards={cards}
            empty={r.rows.length === 0}
            emptyText={t('opsReport.online.empty')}
            chartTitle={r.period === 'day' ? t('opsReport.online.chartLowest', { n: TOP_SUBJECTS }) : t('opsReport.online.chartPerDay')}
            option={option}
            table={<OnlineTable report={r} loading={report.isFetching} />}
          />
        );
      }}
    </ReportBody>
  );

  return (
    <ReportFrame title={t('opsReport.online.title')} testId="online-report-page" exporting={exporting} onDownload={(f) => void download(f)} toolbar={toolbar}>
      {body}
    </ReportFrame>
  );
}
