// The details of one task in a drawer: its fields, where it is now (position, speed, temperature,
// humidity, door, progress, distance left and ETA) while in transit, a small map of the places
// (origin, the numbered stops, destination),
// the route and the current position, and its story. Writers get Edit (until it is final), Copy
// and the moves its status allows; everyone gets the link to its history track and, once it has
// started, its shipment report.
import { Button, Descriptions, Drawer, Progress, Skeleton, Space, Tag, Typography } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { CopyOutlined, EditOutlined, FileTextOutlined, HistoryOutlined, ShareAltOutlined, SwapOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { TaskDetail } from '@iotc/shared/transport';
import { useMapConfig } from '../../../api/map-config.ts';
import { useLang } from '../../../lib/language.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useTask } from '../api/task-detail.ts';
import { useTaskEvents } from '../api/task-events.ts';
import { deviceLabel } from '../../../api/pickers.ts';
import { PlaceMap } from './place-map.tsx';
import { ShipmentReportModal, type ShipmentReportTarget } from './shipment-report-modal.tsx';
import { hasShipmentReport } from './shipment-report-model.ts';
import { TaskFormDrawer, type TaskFormTarget } from './task-form-drawer.tsx';
import { amount, canHandOver, formatTime, HIGH_VALUE_COLOR, isClosed, km, rangeText, STATUS_COLORS, taskActions } from './task-model.ts';
import { TaskSignatures } from './task-signatures.tsx';
import { TaskTimeline } from './task-timeline.tsx';
import { TrackingLinkDialog, type TrackingLinkTarget } from './tracking-link-dialog.tsx';
import { useTaskActions } from './use-task-actions.tsx';
import { PositionText } from '../../../components/position-text.tsx';

export const DETAIL_WIDTH = 640;
export const historyPath = (id: string) => `/view/transport/history?taskId=${encodeURIComponent(id)}`;

const dash = (v: string | null | undefined) => (v ? v : '-');

export function StatusTags({ task }: { task: Pick<TaskDetail, 'status' | 'abnormal' | 'abnormalReasons' | 'activeAlarms'> }) {
  const { t } = useTranslation();
  const why = [...task.abnormalReasons.map((r) => t(`transport.abnormal.${r}`)), ...(task.activeAlarms > 0 ? [t('transport.abnormal.alarms', { count: task.activeAlarms })] : [])];
  return (
    <Space size={4} wrap>
      <Tag color={STATUS_COLORS[task.status]} data-testid="tt-status-tag">
        {t(`transport.status.${task.status}`)}
      </Tag>
      {task.abnormal ? (
        <Tag color={STATUS_COLORS.abnormal} data-testid="tt-abnormal-tag">
          {`${t('transport.status.abnormal')}${why.length ? `: ${why.join(', ')}` : ''}`}
        </Tag>
      ) : null}
    </Space>
  );
}

function Live({ task }: { task: TaskDetail }) {
  const { t } = useTranslation();
  const l = task.live;
  const num = (v: number | null, unit: string) => (v === null ? '-' : `${v}${unit}`);
  const door = l.doorOpen === null ? '-' : l.doorOpen ? t('transport.live.doorOpen') : t('transport.live.doorClosed');
  return (
    <div className="tt-live" data-testid="tt-live">
      <Progress percent={l.progress === null ? 0 : Math.round(l.progress * 100)} status="active" data-testid="tt-live-progress" />
      <Descriptions
        size="small"
        column={2}
        bordered
        items={[
          { key: 'time', label: t('transport.live.time'), children: dash(formatTime(l.time)) },
          { key: 'position', label: t('transport.live.position'), children: l.lat !== null && l.lon !== null ? <PositionText lat={l.lat} lon={l.lon} text={`${l.lat.toFixed(5)}, ${l.lon.toFixed(5)}`} data-testid="task-live-address" /> : '-' },
          { key: 'speed', label: t('transport.live.speed'), children: num(l.speed, ' km/h') },
          { key: 'temp', label: t('transport.live.temp'), children: num(l.temp, ' °C') },
          { key: 'humidity', label: t('transport.live.humidity'), children: num(l.humidity, ' %') },
          { key: 'door', label: t('transport.live.door'), children: door },
          { key: 'remaining', label: t('transport.live.remaining'), children: <span data-testid="tt-live-remaining">{l.remainingM === null ? '-' : `${km(l.remainingM)} km`}</span> },
          { key: 'eta', label: t('transport.live.eta'), children: <span data-testid="tt-live-eta">{dash(formatTime(l.eta))}</span> },
        ]}
      />
    </div>
  );
}

function Fields({ task }: { task: TaskDetail }) {
  const { t } = useTranslation();
  const lang = useLang();
  const mode = (m: 'auto' | 'manual' | null) => (m ? ` (${t(m === 'auto' ? 'transport.mode.auto' : 'transport.mode.manual')})` : '');
  const placeText = (p: TaskDetail['origin']) => `${p.name}${p.address ? ` · ${p.address}` : ''} (${p.lat.toFixed(5)}, ${p.lon.toFixed(5)}, ${p.radiusM} m)`;
  // A place without a typed address gets the geocoder's (when there is one) under it.
  const place = (p: TaskDetail['origin'], which: string) =>
    p.address ? placeText(p) : <PositionText lat={p.lat} lon={p.lon} text={placeText(p)} data-testid={`task-${which}-address`} />;
  // The stops in order, each as an origin reads (with the geocoder's address when none is typed).
  const stops = (
    <ol className="tt-stop-detail" data-testid="tt-detail-stops">
      {task.stops.map((s, i) => (
        <li key={`${s.placeId}-${i}`} data-testid="tt-detail-stop">
          {place(s, `stop-${i + 1}`)}
        </li>
      ))}
    </ol>
  );
  const a = task.alarm;
  const watches = [
    a.temperature ? t('transport.alarm.temperature') : null,
    a.humidity ? t('transport.alarm.humidity') : null,
    a.door ? t('transport.alarm.door') : null,
    a.yawM !== null ? `${t('transport.alarm.yaw')} ${a.yawM} m` : null,
    a.stayTimeoutS !== null ? `${t('transport.alarm.stay')} ${Math.round(a.stayTimeoutS / 60)} ${t('transport.unit.min')}` : null,
    a.overspeedKmh !== null ? `${t('transport.alarm.overspeed')} ${a.overspeedKmh} km/h` : null,
  ].filter(Boolean);
  const people = (list: TaskDetail['contacts']) => (list.length ? list.map((c) => [c.name, c.phone, c.email].filter(Boolean).join(' ')).join('; ') : '-');
  const goods = `${task.goodsName}${task.goodsQuantity !== null ? ` × ${amount(task.goodsQuantity, lang)}${task.goodsUnit ? ` ${task.goodsUnit}` : ''}` : ''}`;
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      styles={{ label: { width: 150 } }}
      data-testid="tt-detail-fields"
      items={[
        { key: 'code', label: t('transport.task.col.code'), children: task.code },
        { key: 'status', label: t('transport.task.col.status'), children: <StatusTags task={task} /> },
        {
          key: 'goods',
          label: t('transport.task.col.goods'),
          children: (
            <Space size={6} wrap>
              <span>{goods}</span>
              {task.highValue ? <Tag color={HIGH_VALUE_COLOR}>{t('transport.task.highValue')}</Tag> : null}
              {task.goodsValue !== null ? <span>¥{amount(task.goodsValue, lang)}</span> : null}
            </Space>
          ),
        },
        { key: 'customer', label: t('transport.task.col.customer'), children: dash(task.customer) },
        { key: 'profile', label: t('transport.task.profile'), children: <span data-testid="tt-detail-profile">{task.profile?.name ?? '-'}</span> },
        { key: 'carrier', label: t('transport.task.col.carrier'), children: task.asset ? `${t(task.asset.kind === 'container' ? 'transport.carrier.container' : 'transport.carrier.vehicle')} ${task.asset.code} · ${task.asset.name}` : '-' },
        { key: 'devices', label: t('transport.task.col.devices'), children: task.devices.map((d, i) => `${deviceLabel(d)}${i === 0 ? ` (${t('transport.task.mainDevice')})` : ''}`).join(', ') || '-' },
        { key: 'origin', label: t('transport.place.origin'), children: place(task.origin, 'origin') },
        ...(task.stops.length ? [{ key: 'stops', label: t('transport.stops.title'), children: stops }] : []),
        { key: 'destination', label: t('transport.place.destination'), children: place(task.destination, 'destination') },
        {
          key: 'route',
          label: t('transport.route.title'),
          // The planned length is the whole way: origin, the route's points, destination (plannedLengthM on the server).
          children: <span data-testid="tt-detail-route">{task.route.length ? t('transport.route.summary', { count: task.route.length, km: km(task.plannedDistanceM) }) : t('transport.route.none', { km: km(task.plannedDistanceM) })}</span>,
        },
        { key: 'plannedStart', label: t('transport.task.col.plannedStart'), children: dash(formatTime(task.plannedStart)) },
        { key: 'plannedArrival', label: t('transport.task.col.plannedArrival'), children: dash(formatTime(task.plannedArrival)) },
        { key: 'startedAt', label: t('transport.task.col.startedAt'), children: task.startedAt ? `${formatTime(task.startedAt)}${mode(task.startMode)}` : '-' },
        { key: 'arrivedAt', label: t('transport.task.col.arrivedAt'), children: task.arrivedAt ? `${formatTime(task.arrivedAt)}${mode(task.arriveMode)}` : '-' },
        ...(task.completedAt ? [{ key: 'completedAt', label: t('transport.task.completedAt'), children: formatTime(task.completedAt) }] : []),
        ...(task.cancelledAt ? [{ key: 'cancelledAt', label: t('transport.task.cancelledAt'), children: `${formatTime(task.cancelledAt)}${task.cancelReason ? ` · ${task.cancelReason}` : ''}` }] : []),
        { key: 'onTime', label: t('transport.task.col.onTime'), children: task.onTime === null ? '-' : task.onTime ? t('transport.yes') : t('transport.no') },
        { key: 'driver', label: t('transport.task.driver'), children: dash([task.driverName, task.driverPhone].filter(Boolean).join(' ')) },
        { key: 'contacts', label: t('transport.task.contacts'), children: people(task.contacts) },
        { key: 'ranges', label: t('transport.section.ranges'), children: dash([rangeText(task.tempMin, task.tempMax, ' °C'), rangeText(task.humidityMin, task.humidityMax, ' %')].filter(Boolean).join('; ')) },
        { key: 'alarm', label: t('transport.section.alarm'), children: watches.length ? `${watches.join(', ')} · ${t('transport.alarm.duration')} ${a.durationS} ${t('transport.unit.s')}` : '-' },
        { key: 'recipients', label: t('transport.section.recipients'), children: people(task.recipients) },
        {
          key: 'detection',
          label: t('transport.section.detection'),
          children: task.detection.auto ? t('transport.detection.summary', { m: task.detection.moveM, s: task.detection.moveS, dwell: task.detection.dwellS }) : t('transport.detection.off'),
        },
        { key: 'org', label: t('transport.task.col.org'), children: task.orgName },
        { key: 'created', label: t('transport.task.createdBy'), children: `${task.createdBy} · ${formatTime(task.createdAt)}` },
        { key: 'remark', label: t('transport.task.remark'), children: <span className="tt-pre">{dash(task.remark)}</span> },
      ]}
    />
  );
}

export interface TaskDetailDrawerProps {
  id: string | null;
  onClose: () => void;
  canWrite: boolean;
  /** Another task to show (a copy just made). */
  onOpen: (id: string) => void;
}

export function TaskDetailDrawer({ id, onClose, canWrite, onOpen }: TaskDetailDrawerProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const task = useTask(id);
  const events = useTaskEvents(id);
  const mapConfig = useMapConfig();
  const editor = useDialog<TaskFormTarget>();
  const report = useDialog<ShipmentReportTarget>();
  const tracking = useDialog<TrackingLinkTarget>();
  const actions = useTaskActions((made) => onOpen(made.id));
  const row = task.data;
  const live = row?.status === 'in_transit' ? row.live : null;

  let body;
  if (!id) body = null;
  else if (task.isPending) body = <Skeleton active paragraph={{ rows: 10 }} />;
  else if (!row)
    body = (
      <Outcome
        status="warning"
        title={t('transport.detail.loadFailed')}
        extra={
          <Button onClick={() => void task.refetch()} data-testid="tt-detail-retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  else
    body = (
      <>
        {live ? (
          <>
            <Typography.Title level={5} className="tt-section-title">
              {t('transport.live.title')}
            </Typography.Title>
            <Live task={row} />
          </>
        ) : null}
        <PlaceMap
          key={row.id}
          config={mapConfig.data ?? null}
          origin={row.origin}
          destination={row.destination}
          stops={row.stops}
          route={row.route}
          current={live && live.lat !== null && live.lon !== null ? { lat: live.lat, lon: live.lon } : null}
          height={240}
          testId="tt-detail-map"
        />
        <Fields task={row} />
        <Typography.Title level={5} className="tt-section-title">
          {t('transport.detail.story')}
        </Typography.Title>
        <TaskTimeline events={events.data} pending={events.isPending} failed={events.isError} />
        <Typography.Title level={5} className="tt-section-title">
          {t('signature.title')}
        </Typography.Title>
        <TaskSignatures taskId={row.id} canWrite={canWrite} />
      </>
    );

  const footer = row ? (
    <Space wrap data-testid="tt-detail-actions">
      <Button icon={<HistoryOutlined />} data-testid="tt-detail-history" onClick={() => navigate(historyPath(row.id))}>
        {t('transport.task.action.history')}
      </Button>
      {hasShipmentReport(row) ? (
        <Button icon={<FileTextOutlined />} data-testid="tt-detail-report" onClick={() => report.show({ id: row.id, code: row.code })}>
          {t('transport.report.button')}
        </Button>
      ) : null}
      {canWrite ? (
        <Button icon={<ShareAltOutlined />} data-testid="tt-detail-tracking" onClick={() => tracking.show({ id: row.id, code: row.code })}>
          {t('tracking.button')}
        </Button>
      ) : null}
      {canWrite && !isClosed(row.status) ? (
        <Button icon={<EditOutlined />} data-testid="tt-detail-edit" onClick={() => editor.show({ mode: 'edit', row })}>
          {t('transport.task.action.edit')}
        </Button>
      ) : null}
      {canWrite ? (
        <Button icon={<CopyOutlined />} data-testid="tt-detail-copy" onClick={() => actions.copy(row)}>
          {t('transport.task.action.copy')}
        </Button>
      ) : null}
      {canWrite && canHandOver(row.status) ? (
        <Button icon={<SwapOutlined />} data-testid="tt-detail-handover" onClick={() => actions.handover(row)}>
          {t('transport.task.action.handover')}
        </Button>
      ) : null}
      {canWrite
        ? taskActions(row.status).map((a) => (
            <Button key={a.to} danger={a.asks === 'reason'} type={a.asks === 'reason' ? 'default' : 'primary'} ghost={a.asks !== 'reason'} loading={actions.pendingTo === a.to} data-testid={`tt-move-${a.to}`} onClick={() => actions.run(row, a)}>
              {t(a.name)}
            </Button>
          ))
        : null}
    </Space>
  ) : null;

  return (
    <Drawer open={!!id} size={DETAIL_WIDTH} title={row ? `${row.code} · ${row.goodsName}` : t('transport.detail.title')} className="tt-detail-drawer" data-testid="tt-detail" onClose={onClose} footer={footer}>
      {body}
      {actions.dialog}
      <TaskFormDrawer formName="ttEdit" target={editor.target} open={editor.open} onClose={editor.hide} afterClose={editor.afterClose} />
      <ShipmentReportModal target={report.target} open={report.open} onClose={report.hide} afterClose={report.afterClose} />
      <TrackingLinkDialog target={tracking.target} open={tracking.open} onClose={tracking.hide} afterClose={tracking.afterClose} />
    </Drawer>
  );
}
