// system/outbox (issue 21, item 9): the platform administrator reads the mail and texts the
// platform sent or, without SMTP_URL / SMS_GATEWAY_URL, only kept, so a fresh install's
// verification codes can be read while its embedded database is held by the server.
import { Alert, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OutboxRow } from '@iotc/shared/outbox';
import type { TableDescriptor } from '../../../components/data-table/types.ts';
import { ServerTable } from '../../../components/data-table/server-table.tsx';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { useListParams } from '../../../lib/list-query.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useOutboxMessages } from '../api/outbox-messages.ts';
import '../components/system.css';

const FILTERS: FilterItem[] = [
  { label: 'outbox.recipient', key: 'recipient', type: 'input' },
  {
    label: 'outbox.channel',
    key: 'channel',
    type: 'select',
    options: [
      { value: 'email', label: 'outbox.channel.email' },
      { value: 'sms', label: 'outbox.channel.sms' },
    ],
  },
  {
    label: 'outbox.status',
    key: 'status',
    type: 'select',
    options: [
      { value: 'outbox', label: 'outbox.status.outbox' },
      { value: 'sent', label: 'outbox.status.sent' },
      { value: 'failed', label: 'outbox.status.failed' },
    ],
  },
];

export default function OutboxPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const list = useListParams('outbox');
  const query = useOutboxMessages(list);

  const descriptor: TableDescriptor<OutboxRow> = {
    id: 'outbox',
    rowKey: 'id',
    columns: [
      { key: 'outbox.time', value: 'createdAt', type: 'datetime', testId: 'outbox-time' },
      { key: 'outbox.channel', value: 'channel', type: 'map', width: 90, textMap: { email: 'outbox.channel.email', sms: 'outbox.channel.sms' }, testId: 'outbox-channel' },
      { key: 'outbox.recipient', value: 'recipient', width: 220, testId: 'outbox-recipient' },
      { key: 'outbox.subject', value: 'subject', width: 220, testId: 'outbox-subject' },
      { key: 'outbox.body', value: 'body', testId: 'outbox-body' },
      {
        key: 'outbox.status',
        value: 'status',
        type: 'button',
        width: 110,
        testId: 'outbox-status',
        buttons: [
          { key: 'outbox', text: 'outbox.status.outbox', butType: 'tag', background: '#e6f4ff', color: '#0958d9' },
          { key: 'sent', text: 'outbox.status.sent', butType: 'tag', background: '#f6ffed', color: '#237804' },
          { key: 'failed', text: 'outbox.status.failed', butType: 'tag', background: '#fff1f0', color: '#cf1322' },
        ],
      },
      { key: 'outbox.org', value: 'orgName', hidden: true },
      { key: 'outbox.error', value: 'error', hidden: true },
    ],
  };

  return (
    <Card title={<span data-testid="screen-title">{t('outbox.title')}</span>} data-testid="outbox-page" className="outbox-page">
      <Alert type="info" showIcon title={t('outbox.hint')} style={{ marginBottom: 16 }} data-testid="outbox-hint" />
      <FilterBar items={FILTERS} value={list.filters} onSearch={list.setFilters} />
      <ServerTable descriptor={descriptor} list={list} query={query} />
    </Card>
  );
}
