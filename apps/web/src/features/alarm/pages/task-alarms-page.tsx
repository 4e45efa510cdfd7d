// transport/alarms, the transport scenario's "Abnormal-alarm monitoring and push": the real-time
// alarm screen for the alarms of transport tasks only (inTask=true), each with its task's code.
// The tasks' recipients are notified by the task's own push rule (server transport/task-policy.ts).
import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../../../lib/screen.ts';
import { RealtimeAlarms } from './alarm-realtime-page.tsx';

export default function TaskAlarmsPage(_props: ScreenProps) {
  const { t } = useTranslation();
  return <RealtimeAlarms tasks title={t('alarm.taskAlarms.title')} />;
}
