// report/temperature: the GSP temperature and humidity record of a cold room, refrigerator,
// warehouse, vehicle or container for a day or a month. Pick the kind and the asset, day or month
// and the date; the screen shows the record's header, its summary (for a month also one row per
// day) and the recorded values with out-of-range rows highlighted, and downloads the PDF or Excel
// file the server makes, and the record's electronic signatures (recorded and reviewed) where
// the paper record has its lines to sign. Address: `kind`, `assetId`, `period`, `date`, so a record can be shared.
import { useCallback, useMemo } from 'react';
import { Alert, Button, Card, DatePicker, Descriptions, Empty, Segmented, Skeleton, Space, Table, Typography } from 'antd';
import { FileExcelOutlined, FilePdfOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { coordText } from '@iotc/shared/geocode';
import { GSP_ASSET_KINDS, GSP_PERIODS, type GspAssetKind, type GspPeriod, type GspReport, type GspRow } from '@iotc/shared/gsp-report';
import { assetLabel } from '../../../api/pickers.ts';
import { AssetPicker } from '../../../components/asset-picker.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useExport } from '../../../lib/use-export.ts';
import { downloadGspReport, useGspReport } from '../api/temperature-report.ts';
import { fixed, gspRequest, hms, parseGspFilters, percent, switchPeriod, writeGspFilters, type GspFilters } from '../components/gsp-model.ts';
import { GspSignatures } from '../components/gsp-signatures.tsx';
import { PositionText } from '../../../components/position-text.tsx';
import '../components/gsp-report.css';
import { usePagination } from '../../../components/data-table/pagination.ts';

const at = (iso: string) => dayjs(iso).format(DATETIME_FORMAT);

function Summary({ report }: { report: GspReport }) {
  const { t } = useTranslation();
  const s = report.summary;
  return (
    <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 4 }} title={t('gspReport.summary')} data-testid="gsp-summary">
      {/* Of the sampled rows, where the shipment report's figures are of every reading (issue 22 item 4). */}
      <Descriptions.Item label={t('gspReport.basis')} span="filled">
        <span data-testid="gsp-basis">{t('gspReport.sampled', { base: report.intervals.baseMin })}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('gspReport.tempMinMaxAvg')}>{s.temperature ? `${fixed(s.temperature.min)} / ${fixed(s.temperature.max)} / ${fixed(s.temperature.average, 2)} °C` : '—'}</Descriptions.Item>
      <Descriptions.Item label={t('gspReport.humMinMaxAvg')}>{s.humidity ? `${fixed(s.humidity.min)} / ${fixed(s.humidity.max)} / ${fixed(s.humidity.average, 2)} %` : '—'}</Descriptions.Item>
      <Descriptions.Item label={t('gspReport.outOfRange')}>
        <span data-testid="gsp-out-of-range">{t('gspReport.outOfRangeValue', { rows: s.outOfRangeRows, excursions: s.excursions, time: hms(s.outOfRangeS) })}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('gspReport.completeness')}>
        <span data-testid="gsp-completeness">{t('gspReport.completenessValue', { percent: percent(s.completeness), withData: s.slotsWithData, slots: s.slots })}</span>
      </Descriptions.Item>
    </Descriptions>
  );
}

function Header({ report }: { report: GspReport }) {
  const { t } = useTranslation();
  const range = (min: number | null, max: number | null, unit: string) => (min === null && max === null ? t('gspReport.noLimits') : `${fixed(min)} ~ ${fixed(max)} ${unit}`);
  return (
    <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }} data-testid="gsp-header">
      <Descriptions.Item label={t('gspReport.org')}>{report.orgName}</Descriptions.Item>
      <Descriptions.Item label={t('gspReport.asset')}>{`${report.asset.name} / ${report.asset.code}`}</Descriptions.Item>
      {report.warehouse && report.warehouse.id !== report.asset.id ? (
        <Descriptions.Item label={t('gspReport.warehouse')}>{`${report.warehouse.name} / ${report.warehouse.code}`}</Descriptions.Item>
      ) : null}
      {report.warehouse ? (
        <Descriptions.Item label={t('gspReport.warehouseAddress')}>
          <WarehouseAddress warehouse={report.warehouse} />
        </Descriptions.Item>
      ) : null}
      <Descriptions.Item label={t('gspReport.kind')}>{`${t(`gspReport.kinds.${report.asset.kind}`)} (${t(`gspReport.mode.${report.mode}`)})`}</Descriptions.Item>
      <Descriptions.Item label={t('gspReport.devices')}>{report.devices.map((d) => d.deviceId).join(', ') || '—'}</Descriptions.Item>
      <Descriptions.Item label={t('gspReport.periodRange')}>{`${at(report.from)} ~ ${at(report.to)}`}</Descriptions.Item>
      <Descriptions.Item label={t('gspReport.interval')}>
        <span data-testid="gsp-interval">{t('gspReport.intervalRule', { base: report.intervals.baseMin, fine: report.intervals.excursionMin })}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('gspReport.tempRange')}>{range(report.limits.tempMin, report.limits.tempMax, '°C')}</Descriptions.Item>
      <Descriptions.Item label={t('gspReport.humidityRange')}>{range(report.limits.humidityMin, report.limits.humidityMax, '%')}</Descriptions.Item>
    </Descriptions>
  );
}

export default function TemperatureReportPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const pagination = usePagination('main');
  const can = usePermission();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseGspFilters(params), [params]);
  const query = useMemo(() => gspRequest(filters), [filters]);
  const report = useGspReport(query);
  const set = useCallback((f: GspFilters) => setParams((prev) => writeGspFilters(prev, f)), [setParams]);
  const { exporting, download } = useExport<'pdf' | 'xlsx'>(
    (format) => downloadGspReport(query!, format),
    (name) => t('gspReport.exported', { name }),
  );

  const data = report.isError ? undefined : report.data;
  const rowColumns = useMemo(
    () => [
      { key: 'time', title: t('gspReport.time'), render: (_: unknown, r: GspRow) => at(r.time) },
      { key: 'temperature', title: t('gspReport.temperature'), render: (_: unknown, r: GspRow) => (r.inRange === null ? t('gspReport.noData') : fixed(r.temperature)) },
      { key: 'humidity', title: t('gspReport.humidity'), render: (_: unknown, r: GspRow) => (r.inRange === null ? t('gspReport.noData') : fixed(r.humidity)) },
      { key: 'inRange', title: t('gspReport.inRange'), render: (_: unknown, r: GspRow) => (r.inRange === null ? '—' : r.inRange ? t('gspReport.yes') : t('gspReport.no')) },
    ],
    [t],
  );
  const dayColumns = useMemo(
    () => [
      { key: 'date', title: t('gspReport.date'), dataIndex: 'date' },
      { key: 'temp', title: t('gspReport.tempMinMaxAvg'), render: (_: unknown, d: GspReport['days'][number]) => (d.summary.temperature ? `${fixed(d.summary.temperature.min)} / ${fixed(d.summary.temperature.max)} / ${fixed(d.summary.temperature.average)}` : '—') },
      { key: 'hum', title: t('gspReport.humMinMaxAvg'), render: (_: unknown, d: GspReport['days'][number]) => (d.summary.humidity ? `${fixed(d.summary.humidity.min)} / ${fixed(d.summary.humidity.max)} / ${fixed(d.summary.humidity.average)}` : '—') },
      { key: 'out', title: t('gspReport.outOfRangeRows'), render: (_: unknown, d: GspReport['days'][number]) => d.summary.outOfRangeRows },
      { key: 'outTime', title: t('gspReport.outOfRangeTime'), render: (_: unknown, d: GspReport['days'][number]) => hms(d.summary.outOfRangeS) },
      { key: 'completeness', title: t('gspReport.completeness'), render: (_: unknown, d: GspReport['days'][number]) => percent(d.summary.completeness) },
    ],
    [t],
  );

  if (!can('device:read')) return <Forbidden />;

  const toolbar = (
    <Space wrap size={[16, 8]} data-testid="gsp-filters">
      <AssetPicker<GspAssetKind>
        style={{ width: 380 }}
        kinds={GSP_ASSET_KINDS}
        kind={filters.kind}
        onKindChange={(kind) => set({ ...filters, kind, assetId: undefined })}
        kindName={(k) => t(`gspReport.kinds.${k}`)}
        kindLabel={t('gspReport.kind')}
        kindTestId="gsp-kind"
        kindWidth={120}
        value={filters.assetId}
        onChange={(assetId) => set({ ...filters, assetId })}
        placeholder={t('gspReport.pickAsset')}
        initialOptions={data && data.asset.id === filters.assetId ? [{ value: data.asset.id, label: assetLabel(data.asset) }] : []}
        data-testid="gsp-asset"
      />
      <Segmented<GspPeriod>
        value={filters.period}
        onChange={(period) => set(switchPeriod(filters, period))}
        options={GSP_PERIODS.map((p) => ({ value: p, label: <span data-testid={`gsp-period-${p}`}>{t(`gspReport.period.${p}`)}</span> }))}
      />
      <DatePicker
        picker={filters.period === 'month' ? 'month' : 'date'}
        value={dayjs(filters.period === 'month' ? `${filters.date}-01` : filters.date)}
        format={filters.period === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD'}
        allowClear={false}
        onChange={(d) => {
          if (d) set({ ...filters, date: d.format(filters.period === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD') });
        }}
        data-testid="gsp-date"
      />
    </Space>
  );

  const exports = (
    <Space>
      <Button icon={<FilePdfOutlined />} disabled={!query || exporting !== null} loading={exporting === 'pdf'} onClick={() => void download('pdf')} data-testid="gsp-export-pdf">
        {t('gspReport.exportPdf')}
      </Button>
      <Button icon={<FileExcelOutlined />} disabled={!query || exporting !== null} loading={exporting === 'xlsx'} onClick={() => void download('xlsx')} data-testid="gsp-export-xlsx">
        {t('gspReport.exportXlsx')}
      </Button>
    </Space>
  );

  let content;
  if (!query) content = <Empty description={t('gspReport.pickFirst')} data-testid="gsp-empty" />;
  else if (report.isError)
    content = (
      <Alert
        type="error"
        showIcon
        title={t('gspReport.loadFailed')}
        action={
          <Button size="small" onClick={() => void report.refetch()}>
            {t('common.retry')}
          </Button>
        }
        data-testid="gsp-error"
      />
    );
  else if (!data) content = <Skeleton active paragraph={{ rows: 10 }} data-testid="gsp-loading" />;
  else
    content = (
      <>
        <Typography.Title level={4} style={{ textAlign: 'center', margin: 0 }} data-testid="gsp-title">
          {`${t('gspReport.recordTitle')} · ${t(`gspReport.period.${data.period}`)} · ${data.date}`}
        </Typography.Title>
        <Header report={data} />
        <Summary report={data} />
        {data.period === 'month' ? (
          <Table
            size="small"
            title={() => t('gspReport.daysTitle')}
            rowKey="date"
            columns={dayColumns}
            dataSource={data.days}
            pagination={false}
            rowClassName={(d) => (d.summary.outOfRangeRows > 0 ? 'gsp-out' : '')}
            data-testid="gsp-days"
          />
        ) : null}
        <Table
          size="small"
          title={() => (data.period === 'day' ? t('gspReport.rowsTitle') : t('gspReport.excursionRowsTitle'))}
          rowKey="time"
          columns={rowColumns}
          dataSource={data.rows}
          pagination={pagination}
          rowClassName={(r) => (r.inRange === false ? 'gsp-out' : '')}
          locale={{ emptyText: data.period === 'month' ? t('gspReport.noExcursions') : t('gspReport.noData') }}
          data-testid="gsp-rows"
        />
        {data.rowsTruncated ? <Typography.Text type="secondary">{t('gspReport.truncated', { n: data.rows.length })}</Typography.Text> : null}
        <GspSignatures report={data} query={query} />
      </>
    );

  return (
    <Card className="gsp-page" title={<span data-testid="screen-title">{t('gspReport.title')}</span>} extra={exports} data-testid="gsp-report-page">
      {toolbar}
      {content}
    </Card>
  );
}

/**
 * Where the record's warehouse is (issue 26 item 3): its coordinates with the stored address, or
 * the geocoder's, under them; the stored address alone when it has no position.
 */
function WarehouseAddress({ warehouse: w }: { warehouse: NonNullable<GspReport['warehouse']> }) {
  if (w.lat === null || w.lon === null) return <span data-testid="gsp-warehouse-address">{w.address ?? '—'}</span>;
  return <PositionText lat={w.lat} lon={w.lon} address={w.address} text={coordText(w.lat, w.lon)} data-testid="gsp-warehouse-address" />;
}
