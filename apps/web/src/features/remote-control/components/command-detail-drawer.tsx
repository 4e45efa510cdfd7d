// The details of one command in a drawer: its fields and its full story (requested, reviewed,
// sent, acknowledged or failed), read again every 5 s while it is out at the device.
import { Descriptions, Drawer, Empty, Tag, Timeline } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { COMMAND_FAILURES, type CommandEventRow } from '@iotc/shared/command';
import { SignatureList } from '../../../components/signature-list.tsx';
import { useCommandEvents } from '../api/command-events.ts';
import { formatTime, STATUS_COLORS, type CommandView } from './command-model.ts';

function eventText(t: TFunction, e: CommandEventRow): string {
  const d = e.detail;
  const who = e.actor ?? t('remoteControl.event.device');
  switch (e.kind) {
    case 'approved':
    case 'rejected':
      return [t(`remoteControl.event.${e.kind}`, { who }), d.reason ? String(d.reason) : ''].filter(Boolean).join(': ');
    case 'sent':
      return d.channel === 'jt808' ? t('remoteControl.event.sentJt808') : t('remoteControl.event.sent', { topic: String(d.topic ?? '') });
    case 'delivered':
      return t('remoteControl.event.delivered', {
        node: String(d.node ?? ''),
        message: `0x${Number(d.messageId ?? 0).toString(16).padStart(4, '0')}`,
        serial: String(d.serial ?? ''),
      });
    case 'acknowledged':
      return [t('remoteControl.event.acknowledged'), d.message ? String(d.message) : ''].filter(Boolean).join(': ');
    case 'failed': {
      const failure = COMMAND_FAILURES.find((f) => f === d.failure);
      const why = failure ? t(`remoteControl.failure.${failure}`) : '';
      return [t('remoteControl.event.failed'), why, d.message && d.failure !== 'timeout' ? String(d.message) : ''].filter(Boolean).join(': ');
    }
    default:
      return t(`remoteControl.event.${e.kind}`, { who });
  }
}

export function CommandDetailDrawer({ view, onClose }: { view: CommandView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const live = view?.status === 'sent';
  const events = useCommandEvents(view?.id ?? null, live);
  return (
    <Drawer open={!!view} onClose={onClose} size={520} title={t('remoteControl.detail.title')} destroyOnHidden>
      {view ? (
        <div data-testid="rc-detail">
          <Descriptions
            size="small"
            column={1}
            bordered
            styles={{ label: { width: 130 } }}
            items={[
              { key: 'device', label: t('remoteControl.col.device'), children: view.device },
              { key: 'command', label: t('remoteControl.col.command'), children: view.command },
              {
                key: 'status',
                label: t('remoteControl.col.status'),
                children: (
                  <Tag color={STATUS_COLORS[view.status]} data-testid="rc-detail-status">
                    {t(`remoteControl.status.${view.status}`)}
                  </Tag>
                ),
              },
              { key: 'requester', label: t('remoteControl.col.requester'), children: `${view.requester} · ${view.requestedAt}` },
              ...(view.row.remark ? [{ key: 'remark', label: t('remoteControl.request.remark'), children: view.row.remark }] : []),
              { key: 'reviewer', label: t('remoteControl.col.reviewer'), children: view.reviewer ? `${view.reviewer} · ${formatTime(view.row.reviewedAt)}` : '-' },
              { key: 'sentAt', label: t('remoteControl.col.sentAt'), children: view.sentAt || '-' },
              { key: 'ackAt', label: t('remoteControl.col.ackAt'), children: view.ackAt || '-' },
              { key: 'result', label: t('remoteControl.col.result'), children: view.result || '-' },
              { key: 'org', label: t('remoteControl.detail.org'), children: view.row.orgName },
            ]}
          />
          <h4 style={{ margin: '16px 0 12px' }}>{t('signature.title')}</h4>
          <SignatureList recordType="command" recordId={view.id} />
          <h4 style={{ margin: '16px 0 12px' }}>{t('remoteControl.detail.story')}</h4>
          {events.data?.length ? (
            <Timeline
              data-testid="rc-detail-story"
              items={events.data.map((e) => ({
                key: e.id,
                color: e.kind === 'failed' || e.kind === 'rejected' ? 'red' : e.kind === 'acknowledged' ? 'green' : 'blue',
                content: (
                  <div data-testid="rc-event" data-kind={e.kind}>
                    <div>{eventText(t, e)}</div>
                    <div style={{ color: '#8c8c8c', fontSize: 12 }}>{formatTime(e.at)}</div>
                  </div>
                ),
              }))}
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
          )}
        </div>
      ) : null}
    </Drawer>
  );
}
