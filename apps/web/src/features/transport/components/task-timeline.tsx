// The story of a task as a timeline: created (from a template, or as a copy), updated (which
// fields), status changed (from → to, by hand or recognised automatically, with the note), started
// and arrived (recognised from the track), and hand-overs (who to whom, where, seals, temperature,
// whether the delivery note was signed, the note).
import { Empty, Skeleton, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { TASK_EVENT_KINDS, TASK_STATUSES, type TaskEventKind, type TaskEventRow, type TaskStatus } from '@iotc/shared/transport';
import { formatTime } from './task-model.ts';

const EVENT_COLORS: Record<TaskEventKind, string> = {
  created: 'blue',
  updated: 'gray',
  status_changed: 'green',
  started: 'blue',
  arrived: 'green',
  copied: 'gray',
  handover: 'purple',
};

function kindOf(kind: string): TaskEventKind | null {
  return (TASK_EVENT_KINDS as readonly string[]).includes(kind) ? (kind as TaskEventKind) : null;
}

function isStatus(value: unknown): value is TaskStatus {
  return typeof value === 'string' && (TASK_STATUSES as readonly string[]).includes(value);
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function EventLine({ event }: { event: TaskEventRow }) {
  const { t, i18n } = useTranslation();
  const kind = kindOf(event.kind);
  const d = event.detail;
  const status = (v: unknown) => (isStatus(v) ? t(`transport.status.${v}`) : str(v));
  const lines: { key: string; text: string; pre?: boolean }[] = [];
  if (kind === 'created' && str(d.copiedFrom)) lines.push({ key: 'copied', text: t('transport.event.copiedFrom', { code: str(d.copiedFromCode) || str(d.copiedFrom) }) });
  if (kind === 'created' && str(d.templateId)) lines.push({ key: 'template', text: t('transport.event.fromTemplate', { name: str(d.templateName) || str(d.templateId) }) });
  if (kind === 'updated' && Array.isArray(d.changed) && d.changed.length) {
    lines.push({ key: 'changed', text: t('transport.event.changed', { fields: d.changed.map(str).join(i18n.language === 'zh' ? '、' : ', ') }) });
  }
  if (kind === 'status_changed') {
    lines.push({ key: 'move', text: t('transport.event.move', { from: status(d.from), to: status(d.to) }) });
    if (d.mode === 'auto' || d.mode === 'manual') lines.push({ key: 'mode', text: t(d.mode === 'auto' ? 'transport.event.auto' : 'transport.event.manual') });
    if (str(d.note)) lines.push({ key: 'note', text: t('transport.event.note', { note: str(d.note) }), pre: true });
  }
  if (kind === 'handover') {
    lines.push({ key: 'handover-parties', text: t('transport.event.handoverParties', { from: str(d.from), to: str(d.to) }) });
    if (str(d.place)) lines.push({ key: 'handover-place', text: t('transport.event.handoverPlace', { place: str(d.place) }) });
    if (Array.isArray(d.seals) && d.seals.length) lines.push({ key: 'handover-seals', text: t('transport.event.handoverSeals', { seals: d.seals.map(str).join(', ') }) });
    if (typeof d.temperature === 'number') lines.push({ key: 'handover-temperature', text: t('transport.event.handoverTemperature', { value: d.temperature }) });
    lines.push({ key: 'handover-signed', text: t(d.signed === true ? 'transport.event.handoverSigned' : 'transport.event.handoverUnsigned') });
    if (str(d.note)) lines.push({ key: 'note', text: t('transport.event.note', { note: str(d.note) }), pre: true });
  }
  if ((kind === 'started' || kind === 'arrived') && d.mode !== 'manual') lines.push({ key: 'mode', text: t('transport.event.auto') });
  return (
    <div className="tt-event" data-testid="tt-event" data-kind={event.kind}>
      <div className="tt-event-head">
        <Typography.Text strong>{kind ? t(`transport.event.${kind}`) : event.kind}</Typography.Text>
        <span className="tt-muted">{formatTime(event.at)}</span>
      </div>
      <div className="tt-muted">{event.actor ? t('transport.event.by', { actor: event.actor }) : t('transport.event.system')}</div>
      {lines.map((l) => (
        <div key={l.key} className={l.pre ? 'tt-pre' : undefined} data-testid={`tt-event-${l.key}`}>
          {l.text}
        </div>
      ))}
    </div>
  );
}

export function TaskTimeline({ events, pending, failed }: { events: TaskEventRow[] | undefined; pending: boolean; failed: boolean }) {
  const { t } = useTranslation();
  if (pending) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (!events?.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={failed ? t('transport.detail.storyFailed') : t('transport.detail.noEvents')} />;
  return <Timeline data-testid="tt-timeline" items={events.map((e) => ({ key: e.id, color: EVENT_COLORS[kindOf(e.kind) ?? 'updated'], content: <EventLine event={e} /> }))} />;
}
