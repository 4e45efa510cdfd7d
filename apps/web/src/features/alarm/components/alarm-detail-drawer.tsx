// The details of one alarm in a drawer: its fields (level, type, status, device, asset, policy,
// the transport task as a link to it, threshold, value and peak, times, position, who acknowledged, handles or closed it and why, its
// work order, the rules and policies behind it), its timeline (who did what and when), and Acknowledge / Assign / Open work order /
// Close for users who may handle alarms.
import { Button, Descriptions, Drawer, Empty, Skeleton, Space, Timeline, Typography } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { CheckOutlined, CloseCircleOutlined, FileAddOutlined, UserSwitchOutlined } from '@ant-design/icons';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ALARM_EVENT_KINDS, ALARM_TYPE_INFO, type AlarmEventKind, type AlarmRow } from '@iotc/shared/alarm';
import { useAlarm, useAlarmEvents, type AlarmEvent } from '../api/alarm-detail.ts';
import { useCommentAlarm } from '../api/alarm-comment.ts';
import { CommentBox } from '../../../components/comment-box.tsx';
import { usePermission } from '../../../lib/permissions.ts';
import { useLang } from '../../../lib/language.ts';
import { formatDuration, formatTime, valueText } from './alarm-model.ts';
import { LevelTag, StatusTag } from './alarm-tags.tsx';
import type { AlarmActions } from './use-alarm-actions.tsx';
import { useAlarmTexts } from './use-alarm-texts.ts';
import { PositionText } from '../../../components/position-text.tsx';

export const DETAIL_WIDTH = 520;

/** Timeline dot colours per event. */
const EVENT_COLORS: Record<AlarmEventKind, string> = {
  created: 'red',
  merged: 'red',
  notified: 'orange',
  acknowledged: 'blue',
  assigned: 'blue',
  commented: 'gray',
  work_order_opened: 'purple',
  cleared: 'green',
  closed: 'gray',
};

/** Where the transport tasks screen opens one task's details. */
export function taskHref(id: string): string {
  return `/view/transport/tasks?taskId=${encodeURIComponent(id)}`;
}

/** Where the work orders screen opens one order. */
export function workOrderHref(id: string): string {
  return `/view/alarm/workOrders?id=${encodeURIComponent(id)}`;
}

function kindOf(kind: string): AlarmEventKind | null {
  return (ALARM_EVENT_KINDS as readonly string[]).includes(kind) ? (kind as AlarmEventKind) : null;
}

function EventLine({ event, unit }: { event: AlarmEvent; unit: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const kind = kindOf(event.kind);
  const { detail } = event;
  const reason = typeof detail.reason === 'string' ? detail.reason : null;
  const value = typeof detail.value === 'number' ? detail.value : null;
  const assignee = kind === 'assigned' ? [detail.name, detail.account].find((v): v is string => typeof v === 'string' && v !== '') : undefined;
  const comment = kind === 'commented' && typeof detail.text === 'string' ? detail.text : null;
  const order = kind === 'work_order_opened' && typeof detail.code === 'string' ? detail.code : null;
  const joined = kind === 'merged' && typeof detail.policyName === 'string' ? detail.policyName : null;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const notified =
    kind === 'notified'
      ? t('alarm.event.notifiedDetail', {
          channel: ['in_app', 'email', 'sms', 'webhook'].includes(str(detail.channel)) ? t(`alarm.channel.${str(detail.channel) as 'email'}`) : str(detail.channel),
          target: str(detail.target),
          status: ['sent', 'failed', 'outbox', 'pending'].includes(str(detail.status)) ? t(`alarm.delivery.${str(detail.status) as 'sent'}`) : str(detail.status),
        })
      : null;
  return (
    <div className="alarm-event" data-testid="alarm-event" data-kind={event.kind}>
      <div className="alarm-event-head">
        <Typography.Text strong>{kind ? t(`alarm.event.${kind}`) : event.kind}</Typography.Text>
        <span className="alarm-event-time">{formatTime(event.at)}</span>
      </div>
      <div className="alarm-event-actor">{event.actor ? t('alarm.event.by', { actor: event.actor }) : t('alarm.event.system')}</div>
      {value !== null ? <div>{t('alarm.event.value', { value: valueText(value, unit, lang) })}</div> : null}
      {assignee ? <div>{t('alarm.event.assignee', { name: assignee })}</div> : null}
      {comment ? <div className="alarm-event-reason">{comment}</div> : null}
      {order ? <div>{t('alarm.event.workOrder', { code: order })}</div> : null}
      {joined ? <div>{t('alarm.event.mergedDetail', { policy: joined })}</div> : null}
      {notified ? <div>{notified}</div> : null}
      {reason === 'rule_stopped' ? (
        <div>{t('alarm.event.ruleStopped')}</div>
      ) : reason ? (
        <div className="alarm-event-reason" data-testid="alarm-event-reason">
          {t('alarm.event.reason', { reason })}
        </div>
      ) : null}
    </div>
  );
}

/** The rules behind the alarm: each policy (or transport task) and rule, since when, and whether it still sees the condition. */
function Sources({ alarm }: { alarm: AlarmRow }) {
  const { t } = useTranslation();
  return (
    <ul className="alarm-sources" data-testid="alarm-detail-sources">
      {alarm.sources.map((s) => (
        <li key={`${s.policyId ?? ''}|${s.ruleId}`} data-testid="alarm-source">
          <Typography.Text strong>{s.taskId ? t('alarm.source.task', { name: s.policyName }) : s.policyName}</Typography.Text>
          <span className="alarm-source-rule"> · {t('alarm.source.rule', { id: s.ruleId })}</span>
          <div className="alarm-source-time">
            {s.clearedAt ? t('alarm.source.cleared', { from: formatTime(s.openedAt), to: formatTime(s.clearedAt) }) : t('alarm.source.holding', { from: formatTime(s.openedAt) })}
          </div>
        </li>
      ))}
    </ul>
  );
}

function Fields({ alarm }: { alarm: AlarmRow }) {
  const { t } = useTranslation();
  const texts = useAlarmTexts();
  const lang = texts.lang;
  const ended = alarm.endedAt ? Date.parse(alarm.endedAt) : Date.now();
  const text = (v: string | null | undefined) => (v ? v : '-');
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      styles={{ label: { width: 140 } }}
      data-testid="alarm-detail-fields"
      items={[
        { key: 'level', label: t('alarm.col.level'), children: <LevelTag level={alarm.level} /> },
        { key: 'type', label: t('alarm.col.type'), children: texts.typeName(alarm.type) },
        { key: 'status', label: t('alarm.col.status'), children: <StatusTag status={alarm.status} /> },
        { key: 'deviceId', label: t('alarm.col.deviceId'), children: alarm.device.deviceId },
        { key: 'deviceName', label: t('alarm.col.deviceName'), children: alarm.device.name },
        { key: 'asset', label: t('alarm.col.asset'), children: alarm.asset ? `${alarm.asset.name} (${alarm.asset.code})` : '-' },
        { key: 'org', label: t('alarm.col.org'), children: text(alarm.orgName) },
        { key: 'policy', label: t('alarm.col.policy'), children: text(alarm.policyName) },
        ...(alarm.sources.length > 0 ? [{ key: 'sources', label: t('alarm.col.sources'), children: <Sources alarm={alarm} /> }] : []),
        ...(alarm.task
          ? [
              {
                key: 'task',
                label: t('alarm.col.task'),
                children: (
                  <Link to={taskHref(alarm.task.id)} data-testid="alarm-detail-task">
                    {alarm.task.code}
                  </Link>
                ),
              },
            ]
          : []),
        // A door rule has no threshold (an open door is the condition).
        { key: 'threshold', label: t('alarm.col.threshold'), children: ALARM_TYPE_INFO[alarm.type].kind === 'door' || ALARM_TYPE_INFO[alarm.type].kind === 'terminal' ? '-' : valueText(alarm.threshold, alarm.unit, lang) },
        { key: 'value', label: t('alarm.col.value'), children: valueText(alarm.value, alarm.unit, lang) },
        { key: 'peak', label: t('alarm.col.peak'), children: valueText(alarm.peak, alarm.unit, lang) },
        { key: 'count', label: t('alarm.col.count'), children: alarm.count },
        { key: 'startedAt', label: t('alarm.col.startedAt'), children: formatTime(alarm.startedAt) },
        { key: 'lastAt', label: t('alarm.col.lastAt'), children: formatTime(alarm.lastAt) },
        { key: 'endedAt', label: t('alarm.col.endedAt'), children: text(formatTime(alarm.endedAt)) },
        { key: 'duration', label: t('alarm.col.duration'), children: formatDuration(ended - Date.parse(alarm.startedAt), texts.duration) },
        { key: 'position', label: t('alarm.col.position'), children: alarm.lat !== null && alarm.lon !== null ? <PositionText lat={alarm.lat} lon={alarm.lon} data-testid="alarm-detail-address" /> : '-' },
        {
          key: 'acknowledged',
          label: t('alarm.col.acknowledged'),
          children: alarm.acknowledgedAt ? `${text(alarm.acknowledgedBy)} · ${formatTime(alarm.acknowledgedAt)}` : t('alarm.ack.no'),
        },
        ...(alarm.assignee ? [{ key: 'assignee', label: t('alarm.col.assignee'), children: `${alarm.assignee.name} (${alarm.assignee.account})` }] : []),
        ...(alarm.workOrder
          ? [
              {
                key: 'workOrder',
                label: t('alarm.col.workOrder'),
                children: (
                  <Link to={workOrderHref(alarm.workOrder.id)} data-testid="alarm-detail-work-order">
                    {alarm.workOrder.code} · {t(`alarm.workOrder.status.${alarm.workOrder.status}`)}
                  </Link>
                ),
              },
            ]
          : []),
        ...(alarm.status === 'closed'
          ? [
              { key: 'closedBy', label: t('alarm.col.closedBy'), children: text(alarm.closedBy) },
              { key: 'closeReason', label: t('alarm.col.closeReason'), children: <span data-testid="alarm-detail-reason">{text(alarm.closeReason)}</span> },
            ]
          : []),
      ]}
    />
  );
}


export interface AlarmDetailDrawerProps {
  /** The alarm shown; null closes the drawer. */
  id: string | null;
  onClose: () => void;
  actions: AlarmActions;
}

export function AlarmDetailDrawer({ id, onClose, actions }: AlarmDetailDrawerProps) {
  const { t } = useTranslation();
  const texts = useAlarmTexts();
  const alarm = useAlarm(id);
  const events = useAlarmEvents(id);
  const canHandle = usePermission()('alarm:handle');
  const comment = useCommentAlarm();
  const row = alarm.data;

  let body;
  if (!id) body = null;
  else if (alarm.isPending) body = <Skeleton active paragraph={{ rows: 10 }} />;
  else if (!row)
    body = (
      <Outcome
        status="warning"
        title={t('alarm.detail.loadFailed')}
        extra={
          <Button onClick={() => void alarm.refetch()} data-testid="alarm-detail-retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  else
    body = (
      <>
        <Fields alarm={row} />
        <Typography.Title level={5} className="alarm-detail-section">
          {t('alarm.detail.timeline')}
        </Typography.Title>
        {events.isPending ? (
          <Skeleton active paragraph={{ rows: 3 }} />
        ) : events.data?.length ? (
          <Timeline
            data-testid="alarm-timeline"
            items={events.data.map((e) => ({ key: e.id, color: EVENT_COLORS[kindOf(e.kind) ?? 'commented'], content: <EventLine event={e} unit={row.unit} /> }))}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={events.isError ? t('alarm.detail.timelineFailed') : t('alarm.detail.noEvents')} />
        )}
        {canHandle ? (
          <CommentBox
            testId="alarm-comment"
            placeholder={t('alarm.comment.placeholder')}
            sendText={t('alarm.comment.send')}
            pending={comment.isPending}
            onSend={(text, sent) => comment.mutate({ id: row.id, text }, { onSuccess: sent })}
          />
        ) : null}
      </>
    );

  const footer =
    row && (actions.canAcknowledge(row) || actions.canClose(row) || actions.canOpenWorkOrder(row)) ? (
      <Space wrap>
        {actions.canAcknowledge(row) ? (
          <Button
            type="primary"
            icon={<CheckOutlined />}
            data-testid="alarm-detail-acknowledge"
            loading={actions.acknowledging === row.id}
            onClick={() => void actions.acknowledge(row)}
          >
            {t('alarm.action.acknowledge')}
          </Button>
        ) : null}
        {actions.canClose(row) ? (
          <Button icon={<UserSwitchOutlined />} data-testid="alarm-detail-assign" onClick={() => actions.assign(row)}>
            {t('alarm.action.assign')}
          </Button>
        ) : null}
        {actions.canOpenWorkOrder(row) ? (
          <Button icon={<FileAddOutlined />} data-testid="alarm-detail-work-order-open" onClick={() => actions.openWorkOrder(row)}>
            {t('alarm.action.workOrder')}
          </Button>
        ) : null}
        {actions.canClose(row) ? (
          <Button danger icon={<CloseCircleOutlined />} data-testid="alarm-detail-close" onClick={() => actions.close(row)}>
            {t('alarm.action.close')}
          </Button>
        ) : null}
      </Space>
    ) : null;

  return (
    <Drawer
      open={!!id}
      size={DETAIL_WIDTH}
      title={row ? `${texts.typeName(row.type)} · ${row.device.name}` : t('alarm.detail.title')}
      className="alarm-detail-drawer"
      data-testid="alarm-detail"
      onClose={onClose}
      footer={footer}
    >
      {body}
    </Drawer>
  );
}
