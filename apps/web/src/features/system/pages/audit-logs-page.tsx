// system/auditLogs: who signed in or out, when, from where, and why a sign-in was refused;
// filtered, sorted and paged on the server, exported to CSV or Excel.
import { Card } from 'antd';
import { FileExcelOutlined, FileTextOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TableDescriptor } from '../../../components/data-table/types.ts';
import { ServerTable } from '../../../components/data-table/server-table.tsx';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { useLang } from '../../../lib/language.ts';
import { useListParams } from '../../../lib/list-query.ts';
import { useExport } from '../../../lib/use-export.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { exportAuditLogs, useAuditLogs, type AuditLogView } from '../api/audit-logs.ts';

const FILTERS: FilterItem[] = [
  { label: 'audit.account', key: 'account', type: 'input' },
  { label: 'audit.action', key: 'action', type: 'select', source: 'audit_action' },
  { label: 'audit.result', key: 'result', type: 'select', source: 'audit_result' },
  { label: 'audit.time', key: 'time', type: 'datetimerange' },
];

export default function AuditLogsPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const list = useListParams('audit-logs', { sort: 'time,desc' });
  const query = useAuditLogs(list, lang, t('login.period'));
  const { exporting, download } = useExport(
    (format) => exportAuditLogs(format, list),
    (name) => t('audit.exported', { name }),
  );

  const descriptor: TableDescriptor<AuditLogView> = {
    id: 'audit-logs',
    rowKey: 'id',
    columns: [
      { key: 'audit.time', value: 'time', type: 'datetime', sortable: true },
      { key: 'audit.org', value: 'orgName' },
      { key: 'audit.account', value: 'account', sortable: true },
      { key: 'audit.action', value: 'action', type: 'source', source: 'audit_action', sortable: true },
      {
        key: 'audit.result',
        value: 'result',
        type: 'button',
        sortable: true,
        buttons: [
          { key: 'success', text: 'audit.success', butType: 'tag', background: '#f6ffed', color: '#237804' },
          { key: 'failure', text: 'audit.failure', butType: 'tag', background: '#fff1f0', color: '#cf1322' },
        ],
      },
      { key: 'audit.ip', value: 'ip' },
      { key: 'audit.detail', value: 'detailText' },
      { key: 'audit.client', value: 'userAgent', hidden: true },
    ],
    topButtons: [
      { name: 'audit.exportXlsx', icon: <FileExcelOutlined />, onClick: () => void download('xlsx'), disabled: exporting !== null },
      { name: 'audit.exportCsv', icon: <FileTextOutlined />, onClick: () => void download('csv'), disabled: exporting !== null },
    ],
  };

  return (
    <Card title={<span data-testid="screen-title">{t('audit.title')}</span>} data-testid="audit-logs">
      <FilterBar items={FILTERS} value={list.filters} onSearch={list.setFilters} />
      <ServerTable descriptor={descriptor} list={list} query={query} />
    </Card>
  );
}
