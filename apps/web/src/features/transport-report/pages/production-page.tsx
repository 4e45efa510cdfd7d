// transport/reports: the production reports of the transport scenario. Filters (a time range of at
// most 366 days with presets, grouping by period, customer, route or vehicle, the period's
// granularity, the organisation when the user sees more than one) above a row of totals (tasks,
// delivered, on-time rate, alarm rate, planned distance), a chart and the table with its totals
// row, exported as Excel or CSV. Address: `from`, `to` (YYYY-MM-DD, both included), `groupBy`,
// `period`, `orgId`, so a report can be shared and survives a reload.
import { useCallback, useMemo } from 'react';
import { Alert, Button, Card, Col, DatePicker, Empty, Row, Segmented, Select, Skeleton, Space, Statistic, Typography } from 'antd';
import { FileExcelOutlined, FileTextOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import dayjs, { type Dayjs } from 'dayjs';
import { DATE_FORMAT } from '@iotc/shared/constants';
import { MAX_PRODUCTION_DAYS, PRODUCTION_GROUPS, PRODUCTION_PERIODS, type ProductionGroup, type ProductionPeriod } from '@iotc/shared/report';
import { ApiError } from '../../../api/client.ts';
import { EChart } from '../../../components/chart/echart.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { OrgSelect, useOrgChoice } from '../../../components/org-select.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useExport } from '../../../lib/use-export.ts';
import { exportProduction, useProduction } from '../api/production.ts';
import { periodChartOption, TOP_GROUPS, topChartOption } from '../components/production-chart.ts';
import { keyLabel, km, outsideMaxRange, parseFilters, percent, PRESETS, presetRange, productionRequest, writeFilters, type ProductionFilters } from '../components/production-model.ts';
import { ProductionTable } from '../components/production-table.tsx';
import '../components/transport-report.css';

const CHART_HEIGHT = 340;

/** The server's own words for a refusal (a range too long), else the usual text of a failure. */
function failureText(error: unknown, lang: 'zh' | 'en'): string {
  return error instanceof ApiError && error.errormsg ? error.errormsg : apiErrorText(error, lang);
}

export default function ProductionPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const can = usePermission();
  const orgChoice = useOrgChoice();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseFilters(params), [params]);
  const query = useMemo(() => productionRequest(filters), [filters]);
  const report = useProduction(query);
  const set = useCallback((change: Partial<ProductionFilters>) => setParams((prev) => writeFilters(prev, { ...parseFilters(prev), ...change })), [setParams]);

  const { exporting, download } = useExport(
    (format) => exportProduction(query, format),
    (name) => t('transportReport.exported', { name }),
  );

  const data = report.isError ? undefined : report.data;
  const label = useCallback((key: string) => keyLabel(key, filters.groupBy, filters.period, t('transportReport.none')), [filters.groupBy, filters.period, t]);
  const option = useMemo(() => {
    if (!data || data.rows.length === 0) return null;
    const words = { tasks: t('transportReport.chart.tasks'), onTimeRate: t('transportReport.chart.onTimeRate'), label };
    return filters.groupBy === 'period' ? periodChartOption(data.rows, words) : topChartOption(data.rows, words);
  }, [data, filters.groupBy, label, t]);

  const presets = useMemo(() => PRESETS.map((p) => ({ label: t(`transportReport.preset.${p}`), value: presetRange(p) as [Dayjs, Dayjs] })), [t]);

  if (!can('transport:read')) return <Forbidden />;

  const toolbar = (
    <Space wrap size={[16, 8]} className="tr-filters" data-testid="tr-filters">
      <Space size={6}>
        <span>{t('transportReport.range')}</span>
        <DatePicker.RangePicker
          value={[dayjs(filters.from), dayjs(filters.to)]}
          allowClear={false}
          presets={presets}
          format={DATE_FORMAT}
          disabledDate={(day, info) => outsideMaxRange(day, info.from)}
          onChange={(range) => {
            if (range?.[0] && range[1]) set({ from: range[0].format(DATE_FORMAT), to: range[1].format(DATE_FORMAT) });
          }}
          data-testid="tr-range"
        />
        <Typography.Text type="secondary">{t('transportReport.rangeHint', { days: MAX_PRODUCTION_DAYS })}</Typography.Text>
      </Space>
      <Space size={6}>
        <span>{t('transportReport.groupBy')}</span>
        <Segmented<ProductionGroup>
          value={filters.groupBy}
          onChange={(groupBy) => set({ groupBy })}
          options={PRODUCTION_GROUPS.map((g) => ({ value: g, label: <span data-testid={`tr-group-${g}`}>{t(`transportReport.group.${g}`)}</span> }))}
        />
      </Space>
      {filters.groupBy === 'period' ? (
        <Space size={6}>
          <span>{t('transportReport.period')}</span>
          <Select<ProductionPeriod>
            value={filters.period}
            onChange={(period) => set({ period })}
            options={PRODUCTION_PERIODS.map((p) => ({ value: p, label: t(`transportReport.periodUnit.${p}`) }))}
            style={{ width: 110 }}
            aria-label={t('transportReport.period')}
            data-testid="tr-period"
          />
        </Space>
      ) : null}
      {orgChoice ? (
        <Space size={6}>
          <span>{t('transportReport.org')}</span>
          <div style={{ width: 220 }} data-testid="tr-org">
            <OrgSelect value={filters.orgId} onChange={(orgId) => set({ orgId })} allowClear placeholder={t('transportReport.allOrgs')} />
          </div>
        </Space>
      ) : null}
    </Space>
  );

  const exports = (
    <Space>
      <Button icon={<FileExcelOutlined />} disabled={exporting !== null} loading={exporting === 'xlsx'} onClick={() => void download('xlsx')} data-testid="tr-export-xlsx">
        {t('transportReport.exportXlsx')}
      </Button>
      <Button icon={<FileTextOutlined />} disabled={exporting !== null} loading={exporting === 'csv'} onClick={() => void download('csv')} data-testid="tr-export-csv">
        {t('transportReport.exportCsv')}
      </Button>
    </Space>
  );

  let content;
  if (report.isError)
    content = (
      <Alert
        type="error"
        showIcon
        title={t('transportReport.loadFailed')}
        description={<span data-testid="tr-error">{failureText(report.error, lang)}</span>}
        action={
          <Button size="small" onClick={() => void report.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  else if (!data) content = <Skeleton active paragraph={{ rows: 10 }} data-testid="tr-loading" />;
  else {
    const totals = data.totals;
    const cards = [
      { key: 'tasks', title: t('transportReport.card.tasks'), value: String(totals.tasks) },
      { key: 'delivered', title: t('transportReport.card.delivered'), value: String(totals.delivered) },
      { key: 'onTimeRate', title: t('transportReport.card.onTimeRate'), value: percent(totals.onTimeRate) },
      { key: 'alarmRate', title: t('transportReport.card.alarmRate'), value: percent(totals.alarmRate) },
      { key: 'distance', title: t('transportReport.card.distance'), value: `${km(totals.distanceM)} km` },
    ];
    content = (
      <>
        <Row gutter={[12, 12]} data-testid="tr-cards">
          {cards.map((c) => (
            <Col key={c.key} xs={12} md={8} xl={{ flex: '20%' }}>
              <Card size="small" data-testid={`tr-card-${c.key}`}>
                <Statistic title={c.title} value={c.value} />
              </Card>
            </Col>
          ))}
        </Row>
        {data.rows.length === 0 ? (
          <Empty description={t('transportReport.empty')} data-testid="tr-empty" />
        ) : (
          <>
            <Card size="small" title={filters.groupBy === 'period' ? t('transportReport.chart.byPeriod') : t('transportReport.chart.top', { n: TOP_GROUPS })}>
              {option ? <EChart option={option} height={CHART_HEIGHT} data-testid="tr-chart" /> : null}
            </Card>
            <ProductionTable rows={data.rows} totals={totals} groupBy={filters.groupBy} period={filters.period} loading={report.isFetching} />
          </>
        )}
      </>
    );
  }

  return (
    <Card className="tr-page" title={<span data-testid="screen-title">{t('transportReport.title')}</span>} extra={exports} data-testid="transport-report-page">
      {toolbar}
      {content}
    </Card>
  );
}
