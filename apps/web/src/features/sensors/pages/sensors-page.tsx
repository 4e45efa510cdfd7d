// transport/sensors (and deviceManage/sensors): a device's sensor history over a time window:
// one curve per sensor it reported (temperature, humidity, light, vibration, pressure, battery,
// battery temperature, mileage, speed, door), the range of its asset as limits, the readings as
// a paged table, and their export. Device and window live in the address (`device`, `from`,
// `to`), so a link from another screen (`?device=<id>`) opens the device directly.
import { useMemo, useState } from 'react';
import { App, Button, Card, DatePicker, Empty, Skeleton, Typography } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { FileExcelOutlined, FileTextOutlined, LineChartOutlined, SearchOutlined, TableOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import dayjs, { type Dayjs } from 'dayjs';
import { DATETIME_FORMAT, LAST_WEEK_DAYS } from '@iotc/shared/constants';
import type { TableColumn, TableDescriptor } from '../../../components/data-table/types.ts';
import { ServerTable } from '../../../components/data-table/server-table.tsx';
import { DevicePicker } from '../../../components/device-picker.tsx';
import type { RemoteOption } from '../../../components/remote-select.tsx';
import { useListParams } from '../../../lib/list-query.ts';
import { useExport } from '../../../lib/use-export.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { deviceLabel } from '../../../api/pickers.ts';
import { useLatest } from '../../../api/device-latest.ts';
import { exportTelemetry, TELEMETRY_SORT, telemetryListState, useTelemetry, type TelemetryView } from '../api/telemetry.ts';
import { useSeries, type SeriesWindow } from '../../../api/telemetry-series.ts';
import { SensorCharts } from '../components/sensor-charts.tsx';
import { CURVE_FIELDS, curveLimits, presentCurves } from '../components/sensor-curves.ts';
import '../components/sensors.css';
import { PATTERNS } from '@iotc/shared/validation';

/** Points of a curve the server thins to: enough for a screen-wide chart. */
const SERIES_MAX_POINTS = 2_000;

type Range = [Dayjs, Dayjs];

/** The window shown when the address names none: the last 24 hours. */
export function last24Hours(now: Dayjs = dayjs()): Range {
  return [now.subtract(24, 'hour'), now];
}

function instant(text: string | null): Dayjs | undefined {
  if (!text) return undefined;
  const d = dayjs(text);
  return d.isValid() ? d : undefined;
}

/** Device and window as the address holds them; a window missing or malformed there is `fallback`. */
export function readWindow(params: URLSearchParams, fallback: Range): { device?: string; range: Range } {
  const raw = params.get('device')?.trim();
  const from = instant(params.get('from'));
  const to = instant(params.get('to'));
  return {
    device: raw && PATTERNS.uuid.test(raw) ? raw : undefined,
    range: from && to && !to.isBefore(from) ? [from, to] : fallback,
  };
}

const SENSOR_COLUMN_KEYS = new Set<string>(CURVE_FIELDS.filter((f) => f.key !== 'speed').map((f) => f.key));

function columnsFor(limits: { temperature: ReturnType<typeof curveLimits>; humidity: ReturnType<typeof curveLimits> }): TableColumn<TelemetryView>[] {
  const unitColumn = (key: (typeof CURVE_FIELDS)[number]['key']): TableColumn<TelemetryView> => {
    const field = CURVE_FIELDS.find((f) => f.key === key)!;
    if (key === 'battery') return { key: field.label, value: 'battery', type: 'battery' };
    if (key === 'door') return { key: field.label, value: 'door', type: 'map', textMap: { open: 'sensor.door.open', closed: 'sensor.door.closed' } };
    const limit = key === 'temperature' ? limits.temperature : key === 'humidity' ? limits.humidity : null;
    if (limit) return { key: field.label, value: key, type: 'limit', unit: field.unit, minValue: limit.min ?? undefined, maxValue: limit.max ?? undefined };
    return { key: field.label, value: key as keyof TelemetryView & string, type: 'unit', unit: field.unit };
  };
  return [
    { key: 'sensors.time', value: 'time', sortable: true, width: 170 },
    ...CURVE_FIELDS.filter((f) => f.key !== 'speed').map((f) => unitColumn(f.key)),
    { key: 'sensor.speed', value: 'speed', type: 'unit', unit: 'km/h' },
    { key: 'sensors.course', value: 'course', type: 'unit', unit: '°', hidden: true },
    { key: 'sensors.lat', value: 'lat' },
    { key: 'sensors.lon', value: 'lon' },
    { key: 'sensors.positioning', value: 'positioning' },
    { key: 'sensors.network', value: 'network' },
    { key: 'sensors.receivedAt', value: 'receivedAt', hidden: true, width: 170 },
  ];
}

export default function SensorsPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const [fallback] = useState(() => last24Hours());
  const committed = readWindow(params, fallback);
  const fromIso = committed.range[0].toISOString();
  const toIso = committed.range[1].toISOString();
  const win: SeriesWindow | undefined = committed.device ? { device: committed.device, from: fromIso, to: toIso } : undefined;

  // The controls edit a draft; the address (what is shown) changes on Query or a new device.
  const committedKey = `${committed.device ?? ''}|${fromIso}|${toIso}`;
  const [shownKey, setShownKey] = useState(committedKey);
  const [draftDevice, setDraftDevice] = useState<string | undefined>(committed.device);
  const [draftRange, setDraftRange] = useState<Range>(committed.range);
  if (shownKey !== committedKey) {
    setShownKey(committedKey);
    setDraftDevice(committed.device);
    setDraftRange(committed.range);
  }
  const [picked, setPicked] = useState<RemoteOption | undefined>();

  const list = useListParams('telemetry', { sort: TELEMETRY_SORT });
  const latest = useLatest(committed.device);
  const series = useSeries(win, SERIES_MAX_POINTS);
  const table = useTelemetry(telemetryListState(win ?? { device: '', from: fromIso, to: toIso }, list.page, list.size, list.sort), !!win);

  const asset = latest.data?.asset ?? null;
  const present = useMemo(() => (series.data ? new Set<string>(presentCurves(series.data).map((f) => f.key)) : null), [series.data]);

  const commit = (device: string | undefined, range: Range) => {
    if (!device) {
      void message.warning(t('sensors.pickDevice'));
      return;
    }
    const next = { device, from: range[0].toISOString(), to: range[1].toISOString() };
    if (`${next.device}|${next.from}|${next.to}` === committedKey) {
      // The same window again: read it afresh (new readings may have arrived).
      void series.refetch();
      void table.refetch();
      void latest.refetch();
      return;
    }
    setParams((prev) => {
      const out = new URLSearchParams(prev);
      out.set('device', next.device);
      out.set('from', next.from);
      out.set('to', next.to);
      out.delete('page');
      return out;
    });
  };

  // The buttons are disabled without a window, so it is there when they are pressed.
  const { exporting, download } = useExport(
    (format) => (win ? exportTelemetry(format, win) : Promise.reject(new Error('no device chosen'))),
    (name) => t('sensors.exported', { name }),
  );

  const label = picked?.value === committed.device ? picked?.label : latest.data ? deviceLabel(latest.data) : undefined;
  const initialOptions = committed.device && label ? [{ value: committed.device, label }] : undefined;

  const descriptor: TableDescriptor<TelemetryView> = {
    id: 'telemetry',
    rowKey: 'key',
    columns: columnsFor({ temperature: curveLimits('temperature', asset), humidity: curveLimits('humidity', asset) }).filter(
      (c) => !present || !SENSOR_COLUMN_KEYS.has(c.value) || present.has(c.value),
    ),
  };

  const presets = [
    { label: t('sensors.last24h'), value: () => last24Hours() },
    { label: t('sensors.last7d'), value: (): Range => [dayjs().subtract(LAST_WEEK_DAYS, 'day'), dayjs()] },
    { label: t('sensors.today'), value: (): Range => [dayjs().startOf('day'), dayjs()] },
  ];

  let curves;
  if (!win) curves = null;
  else if (series.isPending) curves = <Skeleton active paragraph={{ rows: 8 }} data-testid="sensor-charts-loading" />;
  else if (series.isError && !series.data)
    curves = (
      <Outcome
        status="warning"
        title={t('sensors.loadFailed')}
        data-testid="sensor-charts-error"
        extra={
          <Button onClick={() => void series.refetch()} data-testid="sensor-charts-retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  else if (series.data) curves = <SensorCharts series={series.data} asset={asset} from={fromIso} to={toIso} />;

  return (
    <Card title={<span data-testid="screen-title">{t('sensors.title')}</span>} data-testid="sensors-page">
      <div className="sensors-toolbar">
        <span className="sensors-field">
          <label className="sensors-field-label" htmlFor="sensors-device">
            {t('sensors.device')}
          </label>
          <DevicePicker
            key={`${committed.device ?? ''}|${label ?? ''}`}
            id="sensors-device"
            data-testid="sensors-device"
            style={{ width: 300 }}
            value={draftDevice}
            initialOptions={initialOptions}
            placeholder={t('sensors.devicePlaceholder')}
            allowClear={false}
            onChange={(value, option) => {
              setDraftDevice(value);
              setPicked(option);
              // Choosing a device shows it at once, over the window in the picker.
              if (value) commit(value, draftRange);
            }}
          />
        </span>
        <span className="sensors-field" data-testid="sensors-range">
          <span className="sensors-field-label">{t('sensors.timeRange')}</span>
          <DatePicker.RangePicker
            showTime
            format={DATETIME_FORMAT}
            allowClear={false}
            value={draftRange}
            presets={presets}
            placeholder={[t('filter.startDate'), t('filter.endDate')]}
            onChange={(range) => {
              if (range?.[0] && range[1]) setDraftRange([range[0], range[1]]);
            }}
          />
        </span>
        <Button type="primary" icon={<SearchOutlined />} data-testid="sensors-query" onClick={() => commit(draftDevice, draftRange)}>
          {t('sensors.query')}
        </Button>
        <span className="sensors-exports">
          <Button icon={<FileExcelOutlined />} data-testid="sensors-export-xlsx" disabled={!win || exporting !== null} loading={exporting === 'xlsx'} onClick={() => void download('xlsx')}>
            {t('sensors.exportXlsx')}
          </Button>
          <Button icon={<FileTextOutlined />} data-testid="sensors-export-csv" disabled={!win || exporting !== null} loading={exporting === 'csv'} onClick={() => void download('csv')}>
            {t('sensors.exportCsv')}
          </Button>
        </span>
      </div>

      {!win ? (
        <Empty className="sensors-empty" description={t('sensors.chooseDevice')} data-testid="sensors-no-device" style={{ padding: '48px 0' }} />
      ) : (
        <>
          <div className="sensors-device-line" data-testid="sensors-device-line">
            {latest.data && (
              <span>
                {t('sensors.device')}: <b>{deviceLabel(latest.data)}</b>
              </span>
            )}
            {asset && (
              <span data-testid="sensors-asset">
                {t('sensors.asset')}: <b>{asset.name}</b> ({asset.code})
              </span>
            )}
            <span>
              {t('sensors.window')}: <b>{committed.range[0].format(DATETIME_FORMAT)}</b> {t('filter.to')} <b>{committed.range[1].format(DATETIME_FORMAT)}</b>
            </span>
            {series.data && (
              <span data-testid="sensors-total">
                {series.data.total > series.data.times.length
                  ? t('sensors.thinned', { total: series.data.total, shown: series.data.times.length })
                  : t('sensors.readings', { n: series.data.total })}
              </span>
            )}
          </div>
          <Card
            type="inner"
            className="sensors-section"
            title={
              <Typography.Text strong>
                <LineChartOutlined /> {t('sensors.curves')}
              </Typography.Text>
            }
          >
            {curves}
          </Card>
          <Card
            type="inner"
            className="sensors-section"
            title={
              <Typography.Text strong>
                <TableOutlined /> {t('sensors.table')}
              </Typography.Text>
            }
          >
            <ServerTable descriptor={descriptor} list={list} query={table} />
          </Card>
        </>
      )}
    </Card>
  );
}
