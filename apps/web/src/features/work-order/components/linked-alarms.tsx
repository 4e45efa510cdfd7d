// The alarms a work order gathers (level, type, device, start, status), and for handlers a
// search to link one more: alarms already in an order are not offered.
import { useCallback, useState } from 'react';
import { App, Button, Empty, Space, Tag } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AlarmRow, AlarmStatus } from '@iotc/shared/alarm';
import { deviceLabel } from '../../../api/pickers.ts';
import { RemoteSelect, type RemoteOption } from '../../../components/remote-select.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { readableTextOn } from '../../../lib/color.ts';
import { useLang } from '../../../lib/language.ts';
import { searchAlarms } from '../api/alarm-search.ts';
import { useLinkAlarms } from '../api/work-order-link-alarms.ts';
import { formatTime } from './work-order-model.ts';

const ALARM_STATUS_COLORS: Record<AlarmStatus, string> = { active: '#f5222d', cleared: '#52c41a', closed: '#8c8c8c' };

function AlarmLine({ alarm }: { alarm: AlarmRow }) {
  const { t } = useTranslation();
  const lang = useLang();
  const level = alarm.level;
  const statusColor = ALARM_STATUS_COLORS[alarm.status];
  return (
    <li className="wo-alarm" data-testid="wo-alarm" data-id={alarm.id}>
      <Tag className="wo-tag" data-testid="wo-alarm-level" style={{ background: level.color, borderColor: level.color, color: readableTextOn(level.color) }}>
        {lang === 'zh' ? level.nameZh : level.nameEn}
      </Tag>
      <span className="wo-alarm-type">{t(`alarm.type.${alarm.type}`)}</span>
      <span className="wo-alarm-device">
        {deviceLabel(alarm.device)}
      </span>
      <span className="wo-muted">{formatTime(alarm.startedAt)}</span>
      <Tag className="wo-tag" data-testid="wo-alarm-status" style={{ background: statusColor, borderColor: statusColor, color: '#fff' }}>
        {t(`alarm.status.${alarm.status}`)}
      </Tag>
    </li>
  );
}

function LinkAlarm({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const link = useLinkAlarms();
  const [picked, setPicked] = useState<string | undefined>();
  const fetcher = useCallback(
    async (search: string, signal: AbortSignal): Promise<RemoteOption[]> =>
      (await searchAlarms(search, signal))
        .filter((a) => !a.workOrder)
        .map((a) => ({ value: a.id, label: `${t(`alarm.type.${a.type}`)} · ${a.device.name} · ${formatTime(a.startedAt)}` })),
    [t],
  );
  const submit = () => {
    if (!picked) return;
    link.mutateAsync({ id: orderId, alarmIds: [picked] }).then(
      () => {
        setPicked(undefined);
        void message.success(t('workOrder.link.done'));
      },
      (error: unknown) => void message.error({ content: apiErrorText(error, lang), className: 'action-error', duration: 6 }),
    );
  };
  return (
    <Space.Compact className="wo-link" block>
      <RemoteSelect
        id="wo-link-alarm"
        data-testid="wo-link-select"
        fetcher={fetcher}
        value={picked}
        onChange={(v) => setPicked(v)}
        placeholder={t('workOrder.link.placeholder')}
        style={{ flex: 1, minWidth: 0 }}
      />
      <Button icon={<LinkOutlined />} disabled={!picked} loading={link.isPending} onClick={submit} data-testid="wo-link-submit">
        {t('workOrder.link.button')}
      </Button>
    </Space.Compact>
  );
}

export function LinkedAlarms({ orderId, alarms, canLink }: { orderId: string; alarms: AlarmRow[]; canLink: boolean }) {
  const { t } = useTranslation();
  return (
    <div data-testid="wo-alarms">
      {alarms.length ? (
        <ul className="wo-alarms">
          {alarms.map((a) => (
            <AlarmLine key={a.id} alarm={a} />
          ))}
        </ul>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workOrder.detail.noAlarms')} />
      )}
      {canLink ? <LinkAlarm orderId={orderId} /> : null}
    </div>
  );
}
