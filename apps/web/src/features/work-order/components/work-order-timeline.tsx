// The story of a work order as a timeline: who did what and when. Created (by hand or from
// alarms), updated (which fields), assigned (to whom, or taken off), status changed (from → to,
// with the note), commented (the text) and alarms linked (how many).
import { Empty, Skeleton, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { WORK_ORDER_EVENT_KINDS, WORK_ORDER_STATUSES, type WorkOrderEventKind, type WorkOrderEventRow, type WorkOrderStatus } from '@iotc/shared/work-order';
import { formatTime } from './work-order-model.ts';

const EVENT_COLORS: Record<WorkOrderEventKind, string> = {
  created: 'blue',
  updated: 'gray',
  assigned: 'blue',
  status_changed: 'green',
  commented: 'gray',
  alarms_linked: 'orange',
};

/** The i18n keys of the fields an `updated` event names. */
const FIELD_KEYS = {
  title: 'workOrder.col.title',
  description: 'workOrder.col.description',
  priority: 'workOrder.col.priority',
  assigneeId: 'workOrder.col.assignee',
  dueAt: 'workOrder.col.dueAt',
} as const;

function kindOf(kind: string): WorkOrderEventKind | null {
  return (WORK_ORDER_EVENT_KINDS as readonly string[]).includes(kind) ? (kind as WorkOrderEventKind) : null;
}

function isStatus(value: unknown): value is WorkOrderStatus {
  return typeof value === 'string' && (WORK_ORDER_STATUSES as readonly string[]).includes(value);
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function EventLine({ event }: { event: WorkOrderEventRow }) {
  const { t, i18n } = useTranslation();
  const kind = kindOf(event.kind);
  const d = event.detail;
  const status = (v: unknown) => (isStatus(v) ? t(`workOrder.status.${v}`) : str(v));
  const list = (items: string[]) => items.join(i18n.language === 'zh' ? '、' : ', ');
  const lines: { key: string; text: string; pre?: boolean }[] = [];
  if (kind === 'created' && d.source === 'alarm' && Array.isArray(d.alarmIds)) lines.push({ key: 'from', text: t('workOrder.event.fromAlarms', { count: d.alarmIds.length }) });
  if (kind === 'updated' && Array.isArray(d.changed)) {
    const fields = d.changed.map((f) => (typeof f === 'string' && Object.hasOwn(FIELD_KEYS, f) ? t(FIELD_KEYS[f as keyof typeof FIELD_KEYS]) : str(f)));
    lines.push({ key: 'changed', text: t('workOrder.event.changed', { fields: list(fields) }) });
  }
  if (kind === 'assigned') {
    const name = [d.name, d.account].map(str).filter(Boolean);
    lines.push({ key: 'to', text: d.userId ? t('workOrder.event.assignedTo', { name: name.length === 2 ? `${name[0]} (${name[1]})` : (name[0] ?? '') }) : t('workOrder.event.unassigned') });
  }
  if (kind === 'status_changed') {
    lines.push({ key: 'move', text: t('workOrder.event.move', { from: status(d.from), to: status(d.to) }) });
    if (str(d.note)) lines.push({ key: 'note', text: t('workOrder.event.note', { note: str(d.note) }), pre: true });
  }
  if (kind === 'commented' && str(d.text)) lines.push({ key: 'text', text: str(d.text), pre: true });
  if (kind === 'alarms_linked' && Array.isArray(d.alarmIds)) lines.push({ key: 'linked', text: t('workOrder.event.linked', { count: d.alarmIds.length }) });
  return (
    <div className="wo-event" data-testid="wo-event" data-kind={event.kind}>
      <div className="wo-event-head">
        <Typography.Text strong>{kind ? t(`workOrder.event.${kind}`) : event.kind}</Typography.Text>
        <span className="wo-event-time">{formatTime(event.at)}</span>
      </div>
      <div className="wo-event-actor">{event.actor ? t('alarm.event.by', { actor: event.actor }) : t('alarm.event.system')}</div>
      {lines.map((l) => (
        <div key={l.key} className={l.pre ? 'wo-event-text' : undefined} data-testid={`wo-event-${l.key}`}>
          {l.text}
        </div>
      ))}
    </div>
  );
}

export interface WorkOrderTimelineProps {
  events: WorkOrderEventRow[] | undefined;
  pending: boolean;
  failed: boolean;
}

export function WorkOrderTimeline({ events, pending, failed }: WorkOrderTimelineProps) {
  const { t } = useTranslation();
  if (pending) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (!events?.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={failed ? t('workOrder.detail.timelineFailed') : t('workOrder.detail.noEvents')} />;
  return (
    <Timeline
      data-testid="wo-timeline"
      items={events.map((e) => ({ key: e.id, color: EVENT_COLORS[kindOf(e.kind) ?? 'commented'], content: <EventLine event={e} /> }))}
    />
  );
}
