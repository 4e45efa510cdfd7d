// Alarm notifications anywhere in the console (mounted once by the layout for users who may read
// alarms): a newly opened alarm (active, first report, not seen before) raises a notification at
// the bottom right in its level's colour with type, device, value and time, Acknowledge (for
// users who may handle alarms) and View (the real-time alarm screen). Levels with sound beep.
// At most MAX_NOTIFICATIONS stay on screen (the oldest closes); one that was acknowledged,
// cleared or closed elsewhere closes too. It keeps a live channel of its own for alarms only.
import { useCallback, useEffect, useRef, useState } from 'react';
import { App, Button, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import dayjs from 'dayjs';
import type { AlarmRow } from '@iotc/shared/alarm';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { useAcknowledgeAlarm } from '../../api/alarm-acknowledge.ts';
import { tagColoursOn } from '../../lib/color.ts';
import { useLang } from '../../lib/language.ts';
import { useLiveAlarms } from '../../lib/live.ts';
import { usePermission } from '../../lib/permissions.ts';
import { AlarmSound } from './alarm-sound.ts';

export const MAX_NOTIFICATIONS = 5;
export const ALARM_REALTIME_PATH = '/view/alarm/realtime';
/** Alarm ids remembered; past it the oldest are forgotten (an old alarm does not open again). */
const SEEN_LIMIT = 5000;

/** The notification of an alarm (one per alarm). */
export function notificationKey(id: string): string {
  return `alarm-${id}`;
}

/** Whether a pushed alarm is one to announce: opened just now and not seen before. */
export function isNewAlarm(row: Pick<AlarmRow, 'id' | 'status' | 'count'>, seen: ReadonlySet<string>): boolean {
  return row.status === 'active' && row.count === 1 && !seen.has(row.id);
}

function valueOf(row: AlarmRow): string | null {
  if (row.value === null) return null;
  const v = Math.round(row.value * 100) / 100;
  return row.unit ? `${v} ${row.unit}` : String(v);
}

export function AlarmNotifier() {
  const { t } = useTranslation();
  const lang = useLang();
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const canHandle = usePermission()('alarm:handle');
  const acknowledge = useAcknowledgeAlarm();
  const seen = useRef(new Set<string>());
  /** Keys of the notifications on screen, oldest first. */
  const shown = useRef<string[]>([]);
  const [sound] = useState(() => new AlarmSound());

  // Audio is allowed once the user has interacted with the page.
  useEffect(() => {
    const opts = { capture: true, passive: true } as const;
    window.addEventListener('pointerdown', sound.unlock, opts);
    window.addEventListener('keydown', sound.unlock, opts);
    return () => {
      window.removeEventListener('pointerdown', sound.unlock, opts);
      window.removeEventListener('keydown', sound.unlock, opts);
      sound.dispose();
    };
  }, [sound]);

  const dismiss = useCallback(
    (key: string) => {
      shown.current = shown.current.filter((k) => k !== key);
      notification.destroy(key);
    },
    [notification],
  );

  const announce = useCallback(
    (row: AlarmRow) => {
      const key = notificationKey(row.id);
      while (shown.current.length >= MAX_NOTIFICATIONS) dismiss(shown.current[0]!);
      shown.current.push(key);
      const level = lang === 'zh' ? row.level.nameZh : row.level.nameEn;
      const value = valueOf(row);
      notification.open({
        key,
        placement: 'bottomRight',
        duration: 0,
        className: 'alarm-notification',
        style: { borderInlineStart: `4px solid ${row.level.color}` },
        title: (
          <span data-testid="alarm-notification" data-alarm-id={row.id}>
            <Tag style={{ ...tagColoursOn(row.level.color), borderColor: tagColoursOn(row.level.color).background }}>{level}</Tag>
            {t(`alarm.type.${row.type}`)}
          </span>
        ),
        description: (
          <div className="alarm-notification-body">
            <div>{t('alarm.notify.device', { name: row.device.name, id: row.device.deviceId })}</div>
            {value ? <div>{t('alarm.notify.value', { value })}</div> : null}
            <div>{t('alarm.notify.time', { time: dayjs(row.startedAt).format(DATETIME_FORMAT) })}</div>
          </div>
        ),
        actions: (
          <Space>
            {canHandle ? (
              <Button
                size="small"
                data-testid="alarm-notification-acknowledge"
                onClick={() =>
                  acknowledge.mutateAsync(row.id).then(
                    () => dismiss(key),
                    // The HTTP client has already shown the server's reason.
                    () => undefined,
                  )
                }
              >
                {t('alarm.action.acknowledge')}
              </Button>
            ) : null}
            <Button
              size="small"
              type="primary"
              data-testid="alarm-notification-view"
              onClick={() => {
                dismiss(key);
                navigate(ALARM_REALTIME_PATH);
              }}
            >
              {t('alarm.notify.view')}
            </Button>
          </Space>
        ),
        onClose: () => {
          shown.current = shown.current.filter((k) => k !== key);
        },
      });
      if (row.level.sound) sound.beep();
    },
    [acknowledge, canHandle, dismiss, lang, navigate, notification, sound, t],
  );

  const onAlarms = useCallback(
    (rows: AlarmRow[]) => {
      const known = seen.current;
      for (const row of rows) {
        const fresh = isNewAlarm(row, known);
        known.delete(row.id);
        known.add(row.id);
        if (known.size > SEEN_LIMIT) known.delete(known.values().next().value!);
        if (fresh) announce(row);
        else if (row.status !== 'active' || row.acknowledgedAt) {
          // Handled elsewhere (another screen, another user): no longer news.
          const key = notificationKey(row.id);
          if (shown.current.includes(key)) dismiss(key);
        }
      }
    },
    [announce, dismiss],
  );

  useLiveAlarms(onAlarms);
  return null;
}
