// One delivery in a drawer: the alarm it is about, the rule, event, step and channel, who it went
// to, its status and last answer, the message as sent, and every attempt (time, result, response
// code, error, how long it took, and whether "send again" made it). Users who may handle alarms
// send a failed delivery, or one kept in the outbox, again from here.
import { Button, Descriptions, Drawer, Skeleton, Table, Tag, Typography } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DeliveryAttempt, DeliveryDetail, DeliveryStatus } from '@iotc/shared/alarm-push';
import { useLang } from '../../../lib/language.ts';
import { useDelivery } from '../api/delivery-detail.ts';
import { canResend, DELIVERY_STATUS_COLORS, formatTime, targetText } from './delivery-model.ts';

export const DELIVERY_DRAWER_WIDTH = 640;

export function DeliveryStatusTag({ status }: { status: DeliveryStatus }) {
  const { t } = useTranslation();
  const c = DELIVERY_STATUS_COLORS[status];
  return (
    <Tag data-testid="push-delivery-status" data-status={status} style={{ background: c.background, color: c.color, borderColor: c.color }}>
      {t(`alarmPush.status.${status}`)}
    </Tag>
  );
}

function Attempts({ attempts }: { attempts: DeliveryAttempt[] }) {
  const { t } = useTranslation();
  return (
    <Table<DeliveryAttempt & { n: number }>
      size="small"
      data-testid="push-attempts"
      rowKey="n"
      pagination={false}
      dataSource={attempts.map((a, i) => ({ ...a, n: i + 1 }))}
      locale={{ emptyText: t('alarmPush.delivery.noAttempts') }}
      rowClassName={() => 'push-attempt-row'}
      columns={[
        { title: '#', dataIndex: 'n', width: 44 },
        { title: t('alarmPush.attempt.at'), dataIndex: 'at', render: (v: string) => formatTime(v) },
        { title: t('alarmPush.attempt.status'), dataIndex: 'status', render: (v: DeliveryStatus) => <DeliveryStatusTag status={v} /> },
        { title: t('alarmPush.attempt.responseCode'), dataIndex: 'responseCode', render: (v: number | null) => (v === null ? '-' : v) },
        {
          title: t('alarmPush.attempt.error'),
          dataIndex: 'error',
          render: (v: string | null) => (v ? <span className="push-attempt-error">{v}</span> : '-'),
        },
        { title: t('alarmPush.attempt.duration'), dataIndex: 'durationMs', render: (v: number) => t('alarmPush.attempt.ms', { ms: v }) },
        {
          title: t('alarmPush.attempt.resend'),
          dataIndex: 'resend',
          render: (v: boolean) => (v ? <Tag color="blue" data-testid="push-attempt-resend">{t('alarmPush.attempt.byHand')}</Tag> : '-'),
        },
      ]}
    />
  );
}

function Fields({ d }: { d: DeliveryDetail }) {
  const { t } = useTranslation();
  const lang = useLang();
  const level = lang === 'zh' ? d.alarm.level.nameZh : d.alarm.level.nameEn;
  const step = d.round > 0 ? t('alarmPush.delivery.stepRound', { step: d.step, round: d.round }) : t('alarmPush.delivery.stepOnly', { step: d.step });
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      styles={{ label: { width: 150 } }}
      data-testid="push-delivery-fields"
      items={[
        { key: 'status', label: t('alarmPush.delivery.status'), children: <DeliveryStatusTag status={d.status} /> },
        {
          key: 'alarm',
          label: t('alarmPush.delivery.alarm'),
          children: (
            <span>
              <Tag style={{ background: d.alarm.level.color, borderColor: d.alarm.level.color, color: '#fff' }}>{level}</Tag>
              {t(`alarm.type.${d.alarm.type}`)} · {d.alarm.device.name} ({d.alarm.device.deviceId}) · {t(`alarm.status.${d.alarm.status}`)}
            </span>
          ),
        },
        { key: 'rule', label: t('alarmPush.delivery.rule'), children: d.ruleId ? d.ruleName : t('alarmPush.delivery.ruleDeleted', { name: d.ruleName }) },
        { key: 'event', label: t('alarmPush.delivery.event'), children: t(`alarmPush.event.${d.event}`) },
        { key: 'step', label: t('alarmPush.delivery.step'), children: step },
        { key: 'channel', label: t('alarmPush.delivery.channel'), children: t(`alarm.channel.${d.channel}`) },
        { key: 'target', label: t('alarmPush.delivery.target'), children: targetText(d) },
        { key: 'createdAt', label: t('alarmPush.delivery.createdAt'), children: formatTime(d.createdAt) },
        { key: 'sentAt', label: t('alarmPush.delivery.sentAt'), children: formatTime(d.sentAt) || '-' },
        ...(d.nextAttemptAt ? [{ key: 'next', label: t('alarmPush.delivery.nextAttemptAt'), children: formatTime(d.nextAttemptAt) }] : []),
        { key: 'attempts', label: t('alarmPush.delivery.attempts'), children: d.attempts },
        { key: 'responseCode', label: t('alarmPush.delivery.responseCode'), children: d.responseCode ?? '-' },
        { key: 'lastError', label: t('alarmPush.delivery.lastError'), children: d.lastError ? <span className="push-attempt-error">{d.lastError}</span> : '-' },
      ]}
    />
  );
}

export interface DeliveryDrawerProps {
  /** The delivery shown; null closes the drawer. */
  id: string | null;
  onClose: () => void;
  /** The user may send again (alarm:handle). */
  canHandle: boolean;
  onResend: (d: DeliveryDetail) => void;
}

export function DeliveryDrawer({ id, onClose, canHandle, onResend }: DeliveryDrawerProps) {
  const { t } = useTranslation();
  const delivery = useDelivery(id);
  const d = delivery.data;

  let body;
  if (!id) body = null;
  else if (delivery.isPending) body = <Skeleton active paragraph={{ rows: 10 }} />;
  else if (!d)
    body = (
      <Outcome
        status="warning"
        title={t('alarmPush.delivery.loadFailed')}
        extra={
          <Button onClick={() => void delivery.refetch()} data-testid="push-delivery-retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  else
    body = (
      <>
        <Fields d={d} />
        <Typography.Title level={5} className="push-detail-section">
          {t('alarmPush.delivery.message')}
        </Typography.Title>
        <div className="push-message" data-testid="push-delivery-message">
          {d.subject ? <div className="push-preview-subject">{d.subject}</div> : null}
          <div className="push-preview-body">{d.body}</div>
        </div>
        <Typography.Title level={5} className="push-detail-section">
          {t('alarmPush.delivery.attemptLog')}
        </Typography.Title>
        <Attempts attempts={d.attemptLog} />
      </>
    );

  const footer =
    d && canHandle && canResend(d) ? (
      <Button type="primary" icon={<SendOutlined />} data-testid="push-delivery-resend" onClick={() => onResend(d)}>
        {t('alarmPush.delivery.resend')}
      </Button>
    ) : null;

  return (
    <Drawer
      open={!!id}
      size={DELIVERY_DRAWER_WIDTH}
      title={d ? `${t(`alarm.channel.${d.channel}`)} · ${targetText(d)}` : t('alarmPush.delivery.title')}
      className="push-delivery-drawer"
      onClose={onClose}
      footer={footer}
    >
      {body}
    </Drawer>
  );
}
