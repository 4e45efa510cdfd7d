// The pieces the three operations report screens share: the filters in the address, the period
// filter (day, week or month and a day of it), the PDF and Excel download buttons, what stands in
// for the report while it loads or after it failed, the key figures with the chart and the table,
// and the screen's frame.
import { useCallback, useMemo, type ReactNode } from 'react';
import { Alert, Button, Card, Col, DatePicker, Empty, Row, Segmented, Skeleton, Space, Statistic, Typography, type DatePickerProps } from 'antd';
import { FileExcelOutlined, FilePdfOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/en-gb';
import { REPORT_PERIODS, type FileFormat, type ReportPeriod } from '@iotc/shared/ops-report';
import { ApiError } from '../../../api/client.ts';
import { EChart, type EChartOption } from '../../../components/chart/echart.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { parseOpsFilters, periodDate, periodText, writeOpsFilters, type OpsFilters } from './ops-report-model.ts';

export interface PeriodFilterProps {
  filters: OpsFilters;
  onPeriod: (period: ReportPeriod) => void;
  onDate: (date: string) => void;
}

const PICKERS = { day: 'date', week: 'week', month: 'month' } as const;
/**
 * The reports' weeks are ISO weeks, Monday to Sunday; dayjs' English starts its weeks on Sunday,
 * so the English week picker shows British weeks (same texts, Monday first) and a row is a report.
 */
const MONDAY_FIRST = { lang: { locale: 'en_GB' } } as unknown as DatePickerProps['locale'];

export function PeriodFilter({ filters, onPeriod, onDate }: PeriodFilterProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { period } = filters;
  return (
    <Space size={8}>
      <Segmented<ReportPeriod>
        value={period}
        onChange={onPeriod}
        options={REPORT_PERIODS.map((p) => ({ value: p, label: <span data-testid={`ops-period-${p}`}>{t(`opsReport.period.${p}`)}</span> }))}
      />
      <DatePicker
        aria-label={t('opsReport.date')}
        picker={PICKERS[period]}
        locale={period === 'week' && lang === 'en' ? MONDAY_FIRST : undefined}
        value={dayjs(filters.date)}
        // A week reads as its Monday to Sunday, the days the report covers.
        format={(d: Dayjs) => periodText(period, periodDate(period, d))}
        allowClear={false}
        disabledDate={(d) => d.isAfter(dayjs(), 'day')}
        style={{ width: period === 'week' ? 220 : 140 }}
        onChange={(d) => {
          if (d) onDate(periodDate(period, d));
        }}
        data-testid="ops-date"
      />
    </Space>
  );
}

export interface ExportButtonsProps {
  exporting: FileFormat | null;
  disabled?: boolean;
  onDownload: (format: FileFormat) => void;
}

export function ExportButtons({ exporting, disabled, onDownload }: ExportButtonsProps) {
  const { t } = useTranslation();
  return (
    <Space>
      <Button icon={<FilePdfOutlined />} disabled={disabled || exporting !== null} loading={exporting === 'pdf'} onClick={() => onDownload('pdf')} data-testid="ops-export-pdf">
        {t('opsReport.exportPdf')}
      </Button>
      <Button icon={<FileExcelOutlined />} disabled={disabled || exporting !== null} loading={exporting === 'xlsx'} onClick={() => onDownload('xlsx')} data-testid="ops-export-xlsx">
        {t('opsReport.exportXlsx')}
      </Button>
    </Space>
  );
}

interface ReportQuery<T> {
  data?: T;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** The report's content once loaded; a skeleton before, the failure's text and Retry after a failure. */
export function ReportBody<T>({ query, children }: { query: ReportQuery<T>; children: (data: T) => ReactNode }) {
  const { t } = useTranslation();
  const lang = useLang();
  if (query.isError) {
    const error = query.error;
    const text = error instanceof ApiError && error.errormsg ? error.errormsg : apiErrorText(error, lang);
    return (
      <Alert
        type="error"
        showIcon
        title={t('opsReport.loadFailed')}
        description={<span data-testid="ops-error">{text}</span>}
        action={
          <Button size="small" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  if (query.data === undefined) return <Skeleton active paragraph={{ rows: 10 }} data-testid="ops-loading" />;
  return <>{children(query.data)}</>;
}

/** The filters in the address and a setter that merges a change into them. */
export function useOpsFilters(): { filters: OpsFilters; set: (change: Partial<OpsFilters>) => void } {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseOpsFilters(params), [params]);
  const set = useCallback((change: Partial<OpsFilters>) => setParams((prev) => writeOpsFilters(prev, { ...parseOpsFilters(prev), ...change })), [setParams]);
  return { filters, set };
}

export interface OverviewCard {
  key: string;
  title: string;
  value: string;
}

export interface ReportOverviewProps {
  report: { period: ReportPeriod; start: string; timezone: string };
  cards: OverviewCard[];
  /** No rows: the empty text stands in for the chart and the table. */
  empty: boolean;
  emptyText: string;
  chartTitle: string;
  option: EChartOption | null;
  table: ReactNode;
}

const CHART_HEIGHT = 320;

/** The period line, the key figures, then the chart and the table (or the empty state). */
export function ReportOverview({ report, cards, empty, emptyText, chartTitle, option, table }: ReportOverviewProps) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Text type="secondary" data-testid="ops-range">
        {t('opsReport.rangeLine', { period: t(`opsReport.period.${report.period}`), range: periodText(report.period, report.start), tz: report.timezone })}
      </Typography.Text>
      <Row gutter={[12, 12]}>
        {cards.map((c) => (
          <Col key={c.key} xs={12} md={8} xl={{ flex: '20%' }}>
            <Card size="small" data-testid={`ops-card-${c.key}`}>
              <Statistic title={c.title} value={c.value} />
            </Card>
          </Col>
        ))}
      </Row>
      {empty ? (
        <Empty description={emptyText} data-testid="ops-empty" />
      ) : (
        <>
          <Card size="small" title={chartTitle}>
            {option ? <EChart option={option} height={CHART_HEIGHT} data-testid="ops-chart" /> : null}
          </Card>
          {table}
        </>
      )}
    </>
  );
}

export interface ReportFrameProps {
  title: string;
  testId: string;
  exporting: FileFormat | null;
  onDownload: (format: FileFormat) => void;
  toolbar: ReactNode;
  children: ReactNode;
}

/** The screen's card: title, the download buttons, the filters and the report. */
export function ReportFrame({ title, testId, exporting, onDownload, toolbar, children }: ReportFrameProps) {
  return (
    <Card className="ops-page" title={<span data-testid="screen-title">{title}</span>} extra={<ExportButtons exporting={exporting} onDownload={onDownload} />} data-testid={testId}>
      {toolbar}
      {children}
    </Card>
  );
}
