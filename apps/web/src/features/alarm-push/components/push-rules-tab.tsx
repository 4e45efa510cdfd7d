// The push rules of the caller's organisations, filtered by keyword, state and organisation:
// what each matches, its channels and steps, how many deliveries it made and how many failed.
// Writers switch a rule on and off in its row (off asks first: running escalations stop), edit
// it in a drawer and delete it; anyone may open the rule's deliveries in the log.
import { useMemo } from 'react';
import { App } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { PushRuleRow } from '@iotc/shared/alarm-push';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { ButtonLookupItem, TableColumn, TableDescriptor } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import type { ListParams } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useLevelChoices } from '../api/level-choices.ts';
import { useDeletePushRule, useSetPushRuleEnabled } from '../api/push-rule-actions.ts';
import { usePushRules } from '../api/push-rules.ts';
import { useOrgFilter } from '../../../components/org-filter.ts';
import { PushRuleDrawer, type PushRuleTarget } from './push-rule-drawer.tsx';
import { ruleChannels } from './push-form-model.ts';

/** A row as the table shows it: `updatedAt` in the user's time zone (the sort key stays the API's), the summaries as texts. */
interface RuleTableRow extends PushRuleRow {
  matchText: string;
  channelTexts: string[];
  stepsText: string;
}

const ENABLED_TAGS: ButtonLookupItem[] = [
  { key: true, text: 'alarmPush.rule.on', butType: 'tag', background: '#f6ffed', color: '#237804' },
  { key: false, text: 'alarmPush.rule.off', butType: 'tag', background: '#fafafa', color: 'rgba(0, 0, 0, 0.6)' },
];

export interface PushRulesTabProps {
  list: ListParams;
  /** Opens the delivery log filtered to the rule. */
  onShowDeliveries: (row: PushRuleRow) => void;
}

export function PushRulesTab({ list, onShowDeliveries }: PushRulesTabProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const writable = usePermission()('alarm:write');
  const query = usePushRules(list);
  const levels = useLevelChoices(true);
  const orgFilter = useOrgFilter('alarmPush.rule.org');
  const filters = useMemo(
    (): FilterItem[] => [
      { label: 'alarmPush.rule.keyword', key: 'keyword', type: 'input' },
      {
        label: 'alarmPush.rule.state',
        key: 'enabled',
        type: 'select',
        options: [
          { value: 'true', label: 'alarmPush.rule.on' },
          { value: 'false', label: 'alarmPush.rule.off' },
        ],
        width: 140,
      },
      ...(orgFilter ? [orgFilter] : []),
    ],
    [orgFilter],
  );

  const drawer = useDialog<PushRuleTarget>();
  const confirm = useConfirmAction();
  const setEnabled = useSetPushRuleEnabled();
  const remove = useDeletePushRule();

  const rows = useMemo((): RuleTableRow[] => {
    const sep = lang === 'zh' ? '、' : ', ';
    const levelName = (id: string) => {
      const l = levels.data?.find((x) => x.id === id);
      return l ? (lang === 'zh' ? l.nameZh : l.nameEn) : null;
    };
    return (query.data?.rows ?? []).map((r) => {
      const parts: string[] = [];
      const { policyIds, levelIds, types } = r.match;
      if (policyIds.length) parts.push(t('alarmPush.match.summaryPolicies', { count: policyIds.length }));
      if (levelIds.length) {
        const names = levelIds.map(levelName);
        parts.push(
          names.every((n): n is string => n !== null)
            ? t('alarmPush.match.summaryLevelNames', { names: names.join(sep) })
            : t('alarmPush.match.summaryLevels', { count: levelIds.length }),
        );
      }
      if (types.length) parts.push(t('alarmPush.match.summaryTypes', { names: types.map((ty) => t(`alarm.type.${ty}`)).join(sep) }));
      const last = r.steps[r.steps.length - 1];
      const steps = t('alarmPush.rule.stepsCount', { count: r.steps.length });
      return {
        ...r,
        updatedAt: dayjs(r.updatedAt).format(DATETIME_FORMAT),
        matchText: parts.length ? parts.join(lang === 'zh' ? '；' : '; ') : t('alarmPush.match.summaryAny'),
        channelTexts: ruleChannels(r.steps).map((c) => t(`alarm.channel.${c}`)),
        stepsText: last?.repeatMinutes ? `${steps} · ${t('alarmPush.rule.repeats', { minutes: last.repeatMinutes })}` : steps,
      };
    });
  }, [query.data, levels.data, t, lang]);

  const toggle = (row: RuleTableRow, enabled: boolean) => {
    if (enabled) {
      setEnabled.mutateAsync({ id: row.id, enabled: true }).then(
        () => void message.success(t('alarmPush.rule.enabledDone', { name: row.name })),
        (error: unknown) => void message.error({ content: apiErrorText(error, lang), className: 'action-error' }),
      );
      return;
    }
    confirm({
      title: t('alarmPush.rule.disableTitle'),
      content: <div data-testid="push-rule-disable-content">{t('alarmPush.rule.disableContent', { name: row.name })}</div>,
      okText: t('alarmPush.rule.disable'),
      danger: true,
      action: () => setEnabled.mutateAsync({ id: row.id, enabled: false }),
      success: t('alarmPush.rule.disabledDone', { name: row.name }),
    });
  };

  const enabledColumn: TableColumn<RuleTableRow> = writable
    ? { key: 'alarmPush.rule.enabled', value: 'enabled', type: 'switch', testId: 'push-rule-enabled-cell' }
    : { key: 'alarmPush.rule.enabled', value: 'enabled', type: 'button', buttons: ENABLED_TAGS, testId: 'push-rule-enabled-cell' };

  const descriptor: TableDescriptor<RuleTableRow> = {
    id: 'push-rules',
    rowKey: 'id',
    columns: [
      { key: 'alarmPush.rule.name', value: 'name', sortable: true, testId: 'push-rule-name-cell' },
      { key: 'alarmPush.rule.org', value: 'orgName' },
      enabledColumn,
      { key: 'alarmPush.rule.matches', value: 'matchText', width: 260, testId: 'push-rule-match-cell' },
      { key: 'alarmPush.rule.channels', value: 'channelTexts', type: 'tags', testId: 'push-rule-channels-cell' },
      { key: 'alarmPush.rule.steps', value: 'stepsText', testId: 'push-rule-steps-cell' },
      { key: 'alarmPush.rule.deliveries', value: 'deliveries', hidden: true },
      // Failed deliveries show in red.
      { key: 'alarmPush.rule.failed', value: 'failed', type: 'limit', maxValue: 0, testId: 'push-rule-failed-cell' },
      { key: 'alarmPush.rule.updatedAt', value: 'updatedAt', type: 'datetime', sortable: true },
    ],
    topButtons: writable
      ? [{ name: 'alarmPush.rule.new', icon: <PlusOutlined />, primary: true, testId: 'push-rule-new', onClick: () => drawer.show({ mode: 'create', orgId: list.filters.orgId }) }]
      : [],
    rowButtons: [
      { name: 'alarmPush.rule.showDeliveries', icon: <UnorderedListOutlined />, showtype: 'i', testId: 'push-rule-action-log', onClick: (r) => onShowDeliveries(r) },
      ...(writable
        ? [
            { name: 'alarmPush.edit', icon: <EditOutlined />, showtype: 'i' as const, testId: 'push-rule-action-edit', onClick: (r: RuleTableRow) => drawer.show({ mode: 'edit', row: r }) },
            {
              name: 'alarmPush.delete',
              icon: <DeleteOutlined />,
              showtype: 'i' as const,
              danger: true,
              testId: 'push-rule-action-delete',
              onClick: (r: RuleTableRow) =>
                confirm({
                  title: t('alarmPush.rule.deleteTitle'),
                  content: <div data-testid="push-rule-delete-content">{t('alarmPush.rule.deleteContent', { name: r.name })}</div>,
                  okText: t('alarmPush.delete'),
                  danger: true,
                  action: () => remove.mutateAsync(r.id),
                  success: t('alarmPush.deleted'),
                }),
            },
          ]
        : []),
    ],
  };

  return (
    <>
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
        error={query.isError && !query.data ? query.error : undefined}
        onRetry={() => void query.refetch()}
        onSwitch={(row, _column, checked) => toggle(row, checked)}
        emptyText={<span data-testid="push-rules-empty">{t('alarmPush.rule.none')}</span>}
      />
      <PushRuleDrawer target={drawer.target} open={drawer.open} onClose={drawer.hide} afterClose={drawer.afterClose} />
    </>
  );
}
