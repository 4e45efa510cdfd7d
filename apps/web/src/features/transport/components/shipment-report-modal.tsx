// The shipment report of one task, opened from its details: the period, the distance, the
// temperature statistics (range, extremes with their times, time-weighted average, mean kinetic
// temperature, time out of range and the longest excursion, share in range, time without data),
// humidity, whether it arrived on time and its alarms; and the same report as a PDF or an Excel
// file in the user's language.
import { useCallback } from 'react';
import { Alert, Button, Descriptions, Empty, Modal, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { FileExcelOutlined, FilePdfOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ALARM_STATUSES, ALARM_TYPES, type AlarmStatus, type AlarmType } from '@iotc/shared/alarm';
import { alarmValueText, durationText } from '@iotc/shared/format';
import { coordText } from '@iotc/shared/geocode';
import type { ShipmentAlarm, ShipmentPosition, ShipmentReport } from '@iotc/shared/report';
import { PositionText } from '../../../components/position-text.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { readableTextOn } from '../../../lib/color.ts';
import { useLang } from '../../../lib/language.ts';
import { DIALOG_OVER_DRAWER_Z } from '../../../lib/layers.ts';
import { useExport } from '../../../lib/use-export.ts';
import { downloadShipmentReport, useShipmentReport, type ShipmentFileFormat } from '../api/shipment-report.ts';
import { celsius, formatMs, percent } from './shipment-report-model.ts';
import { formatTime, km, rangeText } from './task-model.ts';
import { usePagination } from '../../../components/data-table/pagination.ts';

const MODAL_WIDTH = 800;
const LABEL_WIDTH = 190;

export interface ShipmentReportTarget {
  id: string;
  code: string;
}

/**
 * A duration in the user's language with its seconds ('3 min 22 s' / '3分22秒'): the same text as
 * the PDF and the Excel file (format.ts), so the dialog and the documents never disagree.
 */
export function useDurationText(): (seconds: number) => string {
  const lang = useLang();
  return useCallback((seconds: number) => durationText(seconds, lang), [lang]);
}

const minutes = (m: number) => String(Math.round(m * 10) / 10);

/** A position of the report: its coordinates (after `prefix`), with the task's address or else the geocoder's under them. */
function Where({ at, prefix, testId }: { at: ShipmentPosition; prefix?: string; testId: string }) {
  const coords = coordText(at.lat, at.lon);
  return <PositionText lat={at.lat} lon={at.lon} address={at.address} text={prefix ? `${prefix} · ${coords}` : coords} data-testid={testId} />;
}

/** The batches the task carries: each one's profile and excursion budget used and left over its life (issue 27 item 3). */
type Batches = NonNullable<ShipmentReport['batches']>;

function BatchBudgets({ batches }: { batches: Batches }) {
  const { t } = useTranslation();
  const kind = (b: Batches[number], k: 'above' | 'below') => {
    const u = b.budget?.[k];
    return u ? (
      <span data-testid={`sr-batch-${k}`}>
        {t('product.batch.usedLeft', { used: minutes(u.usedMin), left: minutes(u.leftMin) })} / {u.budgetMin} {t('product.minutes')}{' '}
        {u.state !== 'ok' ? <Tag color={u.state === 'alert' ? 'warning' : 'error'}>{t(`product.state.${u.state}`)}</Tag> : null}
      </span>
    ) : (
      '-'
    );
  };
  return (
    <Table
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={batches}
      data-testid="sr-batches"
      columns={[
        { title: t('product.batch.batchNo'), dataIndex: 'batchNo', width: 120 },
        { title: t('product.batch.profile'), key: 'profile', width: 150, render: (_: unknown, b) => (b.profile ? `${b.profile.name} (${b.profile.lowC} ~ ${b.profile.highC} °C)` : t('product.batch.noProfile')) },
        { title: t('product.batch.above'), key: 'above', render: (_: unknown, b) => kind(b, 'above') },
        { title: t('product.batch.below'), key: 'below', render: (_: unknown, b) => kind(b, 'below') },
        {
          title: t('product.profile.absoluteMax'),
          key: 'abs',
          width: 110,
          render: (_: unknown, b) => (b.budget ? <Tag color={b.budget.absoluteMax.crossed ? 'error' : 'success'}>{`${b.budget.absoluteMax.limit} °C · ${t(b.budget.absoluteMax.crossed ? 'product.batch.crossed' : 'product.batch.notCrossed')}`}</Tag> : '-'),
        },
      ]}
    />
  );
}

/** This trip alone against the task's product profile: its minutes out of range as used and left of the budgets, and its extremes. */
function TripBudgetSection({ trip }: { trip: NonNullable<ShipmentReport['tripBudget']> }) {
  const { t } = useTranslation();
  const u = trip.budget;
  const kind = (k: 'above' | 'below') => (
    <span data-testid={`sr-trip-${k}`}>
      {t('product.batch.usedLeft', { used: minutes(u[k].usedMin), left: minutes(u[k].leftMin) })} / {u[k].budgetMin} {t('product.minutes')}{' '}
      <Tag color={u[k].state === 'ok' ? 'success' : u[k].state === 'alert' ? 'warning' : 'error'}>{t(`product.state.${u[k].state}`)}</Tag>
    </span>
  );
  const limit = (l: { limit: number | null; crossed: boolean; extreme: { value: number } | null }, extremeKey: 'product.batch.highest' | 'product.batch.lowest', testId: string) => (
    <span data-testid={testId}>
      {`${l.limit} °C · ${t(extremeKey)} ${l.extreme ? `${l.extreme.value} °C` : '-'} `}
      <Tag color={l.crossed ? 'error' : 'success'}>{t(l.crossed ? 'product.batch.crossed' : 'product.batch.notCrossed')}</Tag>
    </span>
  );
  return (
    <Descriptions
      size="small"
      column={2}
      bordered
      data-testid="sr-trip-budget"
      items={[
        { key: 'profile', label: t('product.batch.profile'), span: 2, children: <span data-testid="sr-trip-profile">{`${trip.profile.name} (${trip.profile.lowC} ~ ${trip.profile.highC} °C)`}</span> },
        { key: 'above', label: t('product.batch.above'), children: kind('above') },
        { key: 'below', label: t('product.batch.below'), children: kind('below') },
        { key: 'max', label: t('product.profile.absoluteMax'), children: limit(u.absoluteMax, 'product.batch.highest', 'sr-trip-max') },
        {
          key: 'min',
          label: t('product.profile.absoluteMin'),
          children: u.absoluteMin.limit === null ? <span data-testid="sr-trip-min">{`- · ${t('product.batch.lowest')} ${u.absoluteMin.extreme ? `${u.absoluteMin.extreme.value} °C` : '-'}`}</span> : limit(u.absoluteMin, 'product.batch.lowest', 'sr-trip-min'),
        },
      ]}
    />
  );
}

function Temperature({ report }: { report: ShipmentReport }) {
  const { t } = useTranslation();
  const duration = useDurationText();
  const s = report.temperature;
  const range = rangeText(report.limits.tempMin, report.limits.tempMax, ' °C') || t('transport.report.noLimits');
  const at = (p: { value: number; t: number } | null) => (p ? t('transport.report.valueAt', { value: celsius(p.value), time: formatMs(p.t) }) : '-');
  const longest = s.outOfRange.longest;
  const items = [
    { key: 'range', label: t('transport.report.range'), children: <span data-testid="sr-range">{range}</span> },
    // Of every reading, where the GSP record's figures are of its sampled rows (issue 22 item 4).
    { key: 'basis', label: t('transport.report.basis'), children: <span data-testid="sr-basis">{t('transport.report.everyReading', { n: report.readings })}</span> },
    ...(s.count === 0
      ? []
      : [
          { key: 'min', label: t('transport.report.min'), children: <span data-testid="sr-min">{at(s.min)}</span> },
          { key: 'max', label: t('transport.report.max'), children: <span data-testid="sr-max">{at(s.max)}</span> },
          { key: 'average', label: t('transport.report.average'), children: <span data-testid="sr-average">{celsius(s.average)}</span> },
          {
            key: 'mkt',
            label: t('transport.report.mkt'),
            children: (
              <Space size={8} wrap>
                <span data-testid="sr-mkt">{celsius(s.mkt)}</span>
                <Typography.Text type="secondary" data-testid="sr-mkt-note">
                  {t('transport.report.mktNote')}
                </Typography.Text>
              </Space>
            ),
          },
          {
            key: 'outOfRange',
            label: t('transport.report.outOfRange'),
            children: (
              <Space size={8} wrap>
                <span data-testid="sr-out-of-range">{duration(s.outOfRange.totalS)}</span>
                {s.outOfRange.totalS > 0 ? (
                  <Typography.Text type="secondary">{t('transport.report.outOfRangeSplit', { above: duration(s.outOfRange.aboveS), below: duration(s.outOfRange.belowS) })}</Typography.Text>
                ) : null}
              </Space>
            ),
          },
          {
            key: 'longest',
            label: t('transport.report.longest'),
            children: (
              <span data-testid="sr-longest">
                {longest
                  ? t('transport.report.longestDetail', {
                      duration: duration(longest.durationS),
                      side: t(longest.side === 'above' ? 'transport.report.side.above' : 'transport.report.side.below'),
                      from: formatMs(longest.start),
                      to: formatMs(longest.end),
                      peak: celsius(longest.peak.value),
                      peakAt: formatMs(longest.peak.t),
                    })
                  : t('transport.report.none')}
              </span>
            ),
          },
          ...(longest && report.longestExcursionAt
            ? [{ key: 'longestAt', label: t('transport.report.longestAt'), children: <Where at={report.longestExcursionAt} testId="sr-longest-address" /> }]
            : []),
          { key: 'excursions', label: t('transport.report.excursions'), children: <span data-testid="sr-excursions">{s.excursions.length}</span> },
          { key: 'inRange', label: t('transport.report.inRangeShare'), children: <span data-testid="sr-in-range">{percent(s.inRangeShare)}</span> },
        ]),
    { key: 'noData', label: t('transport.report.noData'), children: <span data-testid="sr-no-data">{duration(s.noDataS)}</span> },
  ];
  return (
    <>
      {s.count === 0 ? <Alert type="info" showIcon title={t('transport.report.noReadings')} data-testid="sr-no-readings" className="tt-gap" /> : null}
      <Descriptions size="small" column={1} bordered styles={{ label: { width: LABEL_WIDTH } }} items={items} data-testid="sr-temperature" />
    </>
  );
}

function AlarmTable({ alarms }: { alarms: ShipmentAlarm[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  const pagination = usePagination('small');
  const typeName = (type: string) => ((ALARM_TYPES as readonly string[]).includes(type) ? t(`alarm.type.${type as AlarmType}`) : type);
  const statusName = (status: string) => ((ALARM_STATUSES as readonly string[]).includes(status) ? t(`alarm.status.${status as AlarmStatus}`) : status);
  if (alarms.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('transport.report.noAlarms')} data-testid="sr-no-alarms" />;
  return (
    <Table<ShipmentAlarm>
      size="small"
      rowKey="id"
      dataSource={alarms}
      pagination={{ ...pagination, size: 'small' }}
      data-testid="sr-alarms"
      columns={[
        { key: 'time', title: t('transport.report.alarm.time'), width: 170, render: (_, a) => formatTime(a.startedAt) },
        { key: 'type', title: t('transport.report.alarm.type'), render: (_, a) => typeName(a.type) },
        {
          key: 'level',
          title: t('transport.report.alarm.level'),
          render: (_, a) => (
            <Tag data-testid="sr-alarm-level" style={{ background: a.levelColor, borderColor: a.levelColor, color: readableTextOn(a.levelColor) }}>
              {a.levelName}
            </Tag>
          ),
        },
        { key: 'value', title: t('transport.report.alarm.value'), render: (_, a) => alarmValueText(a.type, a.peak ?? a.value, lang) },
        { key: 'status', title: t('transport.report.alarm.status'), render: (_, a) => statusName(a.status) },
        { key: 'position', title: t('transport.report.alarm.position'), width: 220, render: (_, a) => (a.position ? <Where at={a.position} testId="sr-alarm-address" /> : '-') },
      ]}
    />
  );
}

function ReportBody({ report }: { report: ShipmentReport }) {
  const { t } = useTranslation();
  const duration = useDurationText();
  const periodS = Math.max(0, (Date.parse(report.to) - Date.parse(report.from)) / 1000);
  const h = report.humidity;
  const onTime = report.task.onTime === null ? '-' : report.task.onTime ? t('transport.yes') : t('transport.no');
  return (
    <div data-testid="sr-body">
      <Descriptions
        size="small"
        column={1}
        bordered
        styles={{ label: { width: LABEL_WIDTH } }}
        className="tt-gap"
        items={[
          ...(report.places
            ? [
                { key: 'origin', label: t('transport.report.origin'), children: <Where at={report.places.origin} prefix={report.task.originName} testId="sr-origin-address" /> },
                { key: 'destination', label: t('transport.report.destination'), children: <Where at={report.places.destination} prefix={report.task.destinationName} testId="sr-destination-address" /> },
              ]
            : []),
          { key: 'period', label: t('transport.report.period'), children: <span data-testid="sr-period">{`${formatTime(report.from)} – ${formatTime(report.to)} (${duration(periodS)})`}</span> },
          { key: 'distance', label: t('transport.report.distance'), children: <span data-testid="sr-distance">{`${km(report.distanceM)} km`}</span> },
          { key: 'readings', label: t('transport.report.readings'), children: <span data-testid="sr-readings">{report.readings}</span> },
          { key: 'onTime', label: t('transport.report.onTime'), children: <span data-testid="sr-on-time">{onTime}</span> },
          { key: 'devices', label: t('transport.report.devices'), children: report.task.devices.map((d) => d.name || d.deviceId).join(', ') || '-' },
        ]}
      />
      <Typography.Title level={5} className="tt-section-title">
        {t('transport.report.section.temperature')}
      </Typography.Title>
      <Temperature report={report} />
      <Typography.Title level={5} className="tt-section-title">
        {t('transport.report.section.humidity')}
      </Typography.Title>
      <Descriptions
        size="small"
        column={1}
        bordered
        styles={{ label: { width: LABEL_WIDTH } }}
        items={[
          { key: 'range', label: t('transport.report.range'), children: rangeText(report.limits.humidityMin, report.limits.humidityMax, ' %') || t('transport.report.noLimits') },
          {
            key: 'values',
            label: t('transport.report.section.humidity'),
            children: <span data-testid="sr-humidity">{h ? t('transport.report.humidityValues', { min: h.min.toFixed(1), max: h.max.toFixed(1), average: h.average.toFixed(1) }) : t('transport.report.noHumidity')}</span>,
          },
        ]}
      />
      <Typography.Title level={5} className="tt-section-title">
        {t('transport.report.section.alarms')}
      </Typography.Title>
      <AlarmTable alarms={report.alarms} />
      {report.tripBudget ? (
        <>
          <Typography.Title level={5} className="tt-section-title">
            {t('transport.report.section.tripBudget')}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t('transport.report.tripBudgetHint')}</Typography.Paragraph>
          <TripBudgetSection trip={report.tripBudget} />
        </>
      ) : null}
      {report.batches?.length ? (
        <>
          <Typography.Title level={5} className="tt-section-title">
            {t('transport.report.section.batches')}
          </Typography.Title>
          <BatchBudgets batches={report.batches} />
        </>
      ) : null}
      <Typography.Text type="secondary" style={{ display: 'block', marginTop: 12 }}>
        {t('transport.report.generatedAt', { time: formatTime(report.generatedAt) })}
      </Typography.Text>
    </div>
  );
}

export interface ShipmentReportModalProps {
  target: ShipmentReportTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose?: () => void;
}

export function ShipmentReportModal({ target, open, onClose, afterClose }: ShipmentReportModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const report = useShipmentReport(target?.id ?? null);
  const { exporting, download } = useExport<ShipmentFileFormat>(
    (format) => downloadShipmentReport(target!.id, format, target!.code),
    (name) => t('transport.report.downloaded', { name }),
  );
  const data = report.data;

  let body;
  if (report.isPending) body = <Skeleton active paragraph={{ rows: 12 }} data-testid="sr-loading" />;
  else if (!data)
    body = (
      <Outcome
        status="warning"
        title={t('transport.report.loadFailed')}
        subTitle={<span data-testid="sr-error">{apiErrorText(report.error, lang)}</span>}
        extra={
          <Button onClick={() => void report.refetch()} data-testid="sr-retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  else body = <ReportBody report={data} />;

  return (
    <Modal
      open={open}
      title={target ? t('transport.report.title', { code: target.code }) : null}
      width={MODAL_WIDTH}
      zIndex={DIALOG_OVER_DRAWER_Z}
      className="tt-report-modal"
      data-testid="sr-modal"
      onCancel={onClose}
      afterClose={afterClose}
      footer={
        <Space wrap>
          <Button icon={<FilePdfOutlined />} disabled={!data || exporting !== null} loading={exporting === 'pdf'} data-testid="sr-pdf" onClick={() => void download('pdf')}>
            {t('transport.report.downloadPdf')}
          </Button>
          <Button icon={<FileExcelOutlined />} disabled={!data || exporting !== null} loading={exporting === 'xlsx'} data-testid="sr-xlsx" onClick={() => void download('xlsx')}>
            {t('transport.report.downloadXlsx')}
          </Button>
          <Button type="primary" onClick={onClose} data-testid="sr-close">
            {t('transport.report.close')}
          </Button>
        </Space>
      }
    >
      {body}
    </Modal>
  );
}
