// alarm/policy: the alarm policies of the caller's organisations, filtered by keyword, state and
// organisation: what each applies to, its rule types, whether it runs and how many of its alarms
// are open. Writers switch a policy on and off in its row (switching off clears its open alarms,
// so it asks first), edit it in a drawer, copy it, delete it, and move policies between
// organisations as a JSON file (export of the selected rows or all, import).
import { useMemo, useState, type Key } from 'react';
import { App, Card } from 'antd';
import { CopyOutlined, DeleteOutlined, DownloadOutlined, EditOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { ButtonLookupItem, TableColumn, TableDescriptor } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useListParams } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useLang } from '../../../lib/language.ts';
import { apiErrorText } from '../../../lib/api-error.ts';
import { usePolicies, type PolicyView } from '../api/policies.ts';
import { useCopyPolicy, useDeletePolicy, useSetPolicyEnabled } from '../api/policy-actions.ts';
import { exportPolicies } from '../api/policy-file.ts';
import { ImportPoliciesModal } from '../components/import-policies-modal.tsx';
import { useOrgFilter } from '../../../components/org-filter.ts';
import { PolicyDrawer, type PolicyFormTarget } from '../components/policy-drawer.tsx';
import { isAssetKind, KIND_LABELS, ruleTypes } from '../components/policy-form-model.ts';
import '../components/alarm-config.css';

/** A row as the table shows it: the scope and the rule types as texts of the user's language. */
interface PolicyTableRow extends PolicyView {
  scopeText: string;
  ruleTexts: string[];
}

const ENABLED_TAGS: ButtonLookupItem[] = [
  { key: true, text: 'alarmConfig.policy.on', butType: 'tag', background: '#f6ffed', color: '#237804' },
  { key: false, text: 'alarmConfig.policy.off', butType: 'tag', background: '#fafafa', color: 'rgba(0, 0, 0, 0.6)' },
];

export default function AlarmPoliciesPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const can = usePermission();
  const writable = can('alarm:write');
  const list = useListParams('alarm-policies', { sort: 'updatedAt,desc' });
  const query = usePolicies(list);
  const orgFilter = useOrgFilter('alarmConfig.org');
  const filters = useMemo(
    (): FilterItem[] => [
      { label: 'alarmConfig.policy.keyword', key: 'keyword', type: 'input' },
      {
        label: 'alarmConfig.policy.state',
        key: 'enabled',
        type: 'select',
        options: [
          { value: 'true', label: 'alarmConfig.policy.on' },
          { value: 'false', label: 'alarmConfig.policy.off' },
        ],
        width: 140,
      },
      ...(orgFilter ? [orgFilter] : []),
    ],
    [orgFilter],
  );

  const drawer = useDialog<PolicyFormTarget>();
  const importer = useDialog<true>();
  const confirm = useConfirmAction();
  const setEnabled = useSetPolicyEnabled();
  const copy = useCopyPolicy();
  const remove = useDeletePolicy();
  const [selected, setSelected] = useState<Key[]>([]);
  const [exporting, setExporting] = useState(false);

  const rows = useMemo(
    (): PolicyTableRow[] =>
      (query.data?.rows ?? []).map((r) => {
        let scopeText: string;
        if (r.scope === 'all') scopeText = t('alarmConfig.scope.summaryAll');
        else if (r.scope === 'devices') scopeText = t('alarmConfig.scope.summaryDevices', { count: r.targets.length });
        else if (r.scope === 'assets') scopeText = t('alarmConfig.scope.summaryAssets', { count: r.targets.length });
        else scopeText = t('alarmConfig.scope.summaryKinds', { kinds: r.targets.map((k) => (isAssetKind(k) ? t(KIND_LABELS[k]) : k)).join(lang === 'zh' ? '、' : ', ') });
        return { ...r, scopeText, ruleTexts: ruleTypes(r.rules).map((type) => t(`alarmConfig.type.${type}`)) };
      }),
    [query.data, t, lang],
  );

  const toggle = (row: PolicyTableRow, enabled: boolean) => {
    if (enabled) {
      setEnabled.mutateAsync({ id: row.id, enabled: true }).then(
        () => void message.success(t('alarmConfig.policy.enabledDone', { name: row.name })),
        (error: unknown) => void message.error({ content: apiErrorText(error, lang), className: 'action-error' }),
      );
      return;
    }
    confirm({
      title: t('alarmConfig.policy.disableTitle'),
      content: <div data-testid="policy-disable-content">{t('alarmConfig.policy.disableContent', { name: row.name, count: row.activeAlarms })}</div>,
      okText: t('alarmConfig.policy.disable'),
      danger: true,
      action: () => setEnabled.mutateAsync({ id: row.id, enabled: false }),
      success: t('alarmConfig.policy.disabledDone', { name: row.name }),
    });
  };

  const runExport = async () => {
    setExporting(true);
    try {
      const name = await exportPolicies(selected.map(String));
      void message.success(t('alarmConfig.policy.exported', { name }));
    } catch {
      // The HTTP client has already shown the server's reason.
    } finally {
      setExporting(false);
    }
  };

  const enabledColumn: TableColumn<PolicyTableRow> = writable
    ? { key: 'alarmConfig.policy.enabled', value: 'enabled', type: 'switch', testId: 'policy-enabled-cell' }
    : { key: 'alarmConfig.policy.enabled', value: 'enabled', type: 'button', buttons: ENABLED_TAGS, testId: 'policy-enabled-cell' };

  const descriptor: TableDescriptor<PolicyTableRow> = {
    id: 'alarm-policies',
    rowKey: 'id',
    selection: true,
    // Cells wrap (rule tags too), so the table fits the page at 1280 px rather than scrolling sideways.
    columns: [
      { key: 'alarmConfig.policy.name', value: 'name', sortable: true },
      { key: 'alarmConfig.policy.description', value: 'description' },
      { key: 'alarmConfig.scope.label', value: 'scopeText', testId: 'policy-scope-cell' },
      { key: 'alarmConfig.policy.rules', value: 'ruleTexts', type: 'tags', testId: 'policy-rules-cell' },
      enabledColumn,
      // Open alarms show in red.
      { key: 'alarmConfig.policy.activeAlarms', value: 'activeAlarms', type: 'limit', maxValue: 0 },
      { key: 'alarmConfig.org', value: 'orgName' },
      { key: 'alarmConfig.updatedAt', value: 'updatedAt', type: 'datetime', sortable: true },
    ],
    topButtons: [
      ...(writable
        ? [
            { name: 'alarmConfig.policy.new', icon: <PlusOutlined />, primary: true, testId: 'policy-new', onClick: () => drawer.show({ mode: 'create', orgId: list.filters.orgId }) },
            { name: 'alarmConfig.import.button', icon: <UploadOutlined />, testId: 'policy-import', onClick: () => importer.show(true) },
          ]
        : []),
      {
        name: selected.length ? t('alarmConfig.policy.exportSelected', { count: selected.length }) : t('alarmConfig.policy.exportAll'),
        icon: <DownloadOutlined />,
        testId: 'policy-export',
        disabled: exporting,
        onClick: () => void runExport(),
      },
    ],
    rowButtons: writable
      ? [
          { name: 'alarmConfig.edit', icon: <EditOutlined />, showtype: 'i', testId: 'policy-action-edit', onClick: (r) => drawer.show({ mode: 'edit', row: r }) },
          {
            name: 'alarmConfig.policy.copy',
            icon: <CopyOutlined />,
            showtype: 'i',
            testId: 'policy-action-copy',
            onClick: (r) =>
              confirm({
                title: t('alarmConfig.policy.copyTitle'),
                content: t('alarmConfig.policy.copyContent', { name: r.name }),
                okText: t('alarmConfig.policy.copy'),
                action: async () => {
                  const made = await copy.mutateAsync(r.id);
                  void message.success(t('alarmConfig.policy.copied', { name: made.name }));
                },
              }),
          },
          {
            name: 'alarmConfig.delete',
            icon: <DeleteOutlined />,
            showtype: 'i',
            danger: true,
            testId: 'policy-action-delete',
            onClick: (r) =>
              confirm({
                title: t('alarmConfig.policy.deleteTitle'),
                content: <div data-testid="policy-delete-content">{t('alarmConfig.policy.deleteContent', { name: r.name, count: r.activeAlarms })}</div>,
                okText: t('alarmConfig.delete'),
                danger: true,
                action: () => remove.mutateAsync(r.id),
                success: t('alarmConfig.deleted'),
                onDone: () => setSelected((keys) => keys.filter((k) => k !== r.id)),
              }),
          },
        ]
      : [],
  };

  if (!can('alarm:read')) return <Forbidden />;

  return (
    <Card title={<span data-testid="screen-title">{t('alarmConfig.policy.title')}</span>} data-testid="alarm-policies-page" className="alarm-config-page">
      <FilterBar items={filters} value={list.filters} onSearch={list.setFilters} />
      <DataTable
        descriptor={descriptor}
        rows={rows}
        total={query.data?.total ?? 0}
        page={list.page}
        size={list.size}
        sort={list.sort}
        onChange={list.setTable}
        loading={query.isFetching}
        error={query.error}
        onRetry={() => void query.refetch()}
        selectedKeys={selected}
        onSelect={(keys) => setSelected(keys)}
        onSwitch={(row, _column, checked) => toggle(row, checked)}
      />
      <PolicyDrawer target={drawer.target} open={drawer.open} onClose={drawer.hide} afterClose={drawer.afterClose} />
      <ImportPoliciesModal open={importer.open} onClose={importer.hide} orgId={list.filters.orgId} />
    </Card>
  );
}
