// system/retention (issue 24, item 3): how long the caller's organisations keep their readings,
// as rows and as packs, with where each value comes from and an editor per organisation; legal
// holds (place with a reason, release after confirming); and what retention removed. The tab
// lives in the address (`tab`), each list's state too.
import type { HTMLAttributes } from 'react';
import { Alert, Button, Card, Empty, Skeleton, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { EffectiveValue, RetentionOrg } from '@iotc/shared/retention';
import type { TableDescriptor } from '../../../components/data-table/types.ts';
import { ServerTable } from '../../../components/data-table/server-table.tsx';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useListParams } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useRetentionRules } from '../api/retention-rules.ts';
import { useLegalHolds, type LegalHoldView } from '../api/legal-holds.ts';
import { useReleaseLegalHold } from '../api/legal-hold-release.ts';
import { useRetentionRemovals, type RemovalView } from '../api/retention-removals.ts';
import { RuleModal } from '../components/rule-modal.tsx';
import { HoldModal } from '../components/hold-modal.tsx';
import { daysText, sourceText, toRuleTree, type RuleTreeRow } from '../components/rules-model.ts';

const TABS = ['rules', 'holds', 'removals'] as const;
type Tab = (typeof TABS)[number];

function Effective({ v, testId }: { v: EffectiveValue; testId: string }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap data-testid={testId} data-days={v.days ?? 'forever'} data-source={v.source}>
      <Typography.Text strong>{daysText(t, v.days)}</Typography.Text>
      <Tag color={v.source === 'own' ? 'blue' : v.source === 'floor' ? 'orange' : 'default'}>{sourceText(t, v)}</Tag>
    </Space>
  );
}

function RulesTab({ writable }: { writable: boolean }) {
  const { t } = useTranslation();
  const { data, isPending, isError } = useRetentionRules();
  const dialog = useDialog<RetentionOrg>();
  if (isPending) return <Skeleton active data-testid="retention-rules-loading" />;
  if (isError || !data) return <Empty description={t('common.noData')} />;
  const tree = toRuleTree(data.orgs);
  const editing = dialog.target;
  return (
    <>
      <Alert type="info" showIcon title={t('retention.rulesHint')} style={{ marginBottom: 16 }} data-testid="retention-rules-hint" />
      {data.floorDays !== null ? (
        <Typography.Paragraph data-testid="retention-floor">{t('retention.floorNote', { days: daysText(t, data.floorDays) })}</Typography.Paragraph>
      ) : null}
      <Table<RuleTreeRow>
        rowKey="orgId"
        size="middle"
        dataSource={tree}
        pagination={false}
        expandable={{ defaultExpandAllRows: true }}
        data-testid="retention-rules"
        locale={{ emptyText: <Empty description={t('common.noData')} /> }}
        onRow={(r) => ({ 'data-org': r.name }) as HTMLAttributes<HTMLElement>}
        columns={[
          { key: 'name', title: t('retention.org'), dataIndex: 'name' },
          { key: 'rows', title: t('retention.rows'), render: (_, r) => <Effective v={r.rows} testId="retention-rows" /> },
          { key: 'packs', title: t('retention.packs'), render: (_, r) => <Effective v={r.packs} testId="retention-packs" /> },
          ...(writable
            ? [
                {
                  key: 'action',
                  title: t('retention.action'),
                  width: 110,
                  render: (_: unknown, r: RuleTreeRow) => {
                    const locked = r.kind === 'platform' && !data.platformAdmin;
                    const button = (
                      <Button type="link" icon={<EditOutlined />} disabled={locked} onClick={() => dialog.show(r)} data-testid="retention-edit">
                        {t('retention.edit')}
                      </Button>
                    );
                    return locked ? <Tooltip title={t('retention.platformOnly')}>{button}</Tooltip> : button;
                  },
                },
              ]
            : []),
        ]}
      />
      <RuleModal
        org={editing ?? null}
        open={dialog.open}
        floorDays={data.floorDays}
        withFloor={!!editing && editing.kind === 'platform' && data.platformAdmin}
        onClose={dialog.hide}
        afterClose={dialog.afterClose}
        onSaved={() => undefined}
      />
    </>
  );
}

const HOLD_FILTERS: FilterItem[] = [
  {
    label: 'retention.hold.state',
    key: 'state',
    type: 'select',
    options: [
      { value: 'active', label: 'retention.hold.active' },
      { value: 'released', label: 'retention.hold.released' },
    ],
  },
  {
    label: 'retention.hold.subjectKind',
    key: 'subjectKind',
    type: 'select',
    options: [
      { value: 'org', label: 'retention.hold.kind.org' },
      { value: 'device', label: 'retention.hold.kind.device' },
      { value: 'task', label: 'retention.hold.kind.task' },
    ],
  },
];

function HoldsTab({ writable }: { writable: boolean }) {
  const { t } = useTranslation();
  const list = useListParams('holds', { scoped: true });
  const query = useLegalHolds(list);
  const dialog = useDialog<true>();
  const confirm = useConfirmAction();
  const release = useReleaseLegalHold();
  const descriptor: TableDescriptor<LegalHoldView> = {
    id: 'holds',
    rowKey: 'id',
    topButtons: writable ? [{ name: 'retention.hold.place', icon: <PlusOutlined />, primary: true, onClick: () => dialog.show(true), testId: 'retention-hold-add' }] : [],
    columns: [
      {
        key: 'retention.hold.state',
        value: 'active',
        type: 'button',
        width: 100,
        testId: 'hold-state',
        buttons: [
          { key: true, text: 'retention.hold.active', butType: 'tag', background: '#fff7e6', color: '#d46b08' },
          { key: false, text: 'retention.hold.released', butType: 'tag', background: '#f5f5f5', color: '#595959' },
        ],
      },
      { key: 'retention.hold.subjectKind', value: 'subjectKind', type: 'map', width: 110, textMap: { org: 'retention.hold.kind.org', device: 'retention.hold.kind.device', task: 'retention.hold.kind.task' } },
      { key: 'retention.hold.subject', value: 'subjectName', width: 200, testId: 'hold-subject' },
      { key: 'retention.hold.reason', value: 'reason', testId: 'hold-reason' },
      { key: 'retention.hold.placedAt', value: 'placedAt', type: 'datetime' },
      { key: 'retention.hold.placedBy', value: 'placedBy', width: 120 },
      { key: 'retention.hold.releasedAt', value: 'releasedAt', type: 'datetime' },
      { key: 'retention.hold.releasedBy', value: 'releasedBy', width: 120, hidden: true },
      { key: 'retention.org', value: 'orgName', hidden: true },
    ],
    rowButtons: writable
      ? [
          {
            name: 'retention.hold.release',
            showtype: 't',
            testId: 'hold-release',
            hidden: (r) => !r.active,
            onClick: (r) =>
              confirm({
                title: t('retention.hold.releaseTitle'),
                content: t('retention.hold.releaseContent', { name: r.subjectName ?? r.subjectId }),
                okText: t('retention.hold.release'),
                danger: true,
                action: () => release.mutateAsync(r.id),
                success: t('retention.hold.releasedMessage'),
              }),
          },
        ]
      : [],
  };
  return (
    <>
      <Alert type="info" showIcon title={t('retention.hold.hint')} style={{ marginBottom: 16 }} />
      <FilterBar items={HOLD_FILTERS} value={list.filters} onSearch={list.setFilters} />
      <ServerTable descriptor={descriptor} list={list} query={query} />
      <HoldModal open={dialog.open} onClose={dialog.hide} afterClose={dialog.afterClose} onPlaced={() => undefined} />
    </>
  );
}

const REMOVAL_FILTERS: FilterItem[] = [
  {
    label: 'retention.removal.what',
    key: 'what',
    type: 'select',
    options: [
      { value: 'rows', label: 'retention.removal.rows' },
      { value: 'packs', label: 'retention.removal.packs' },
    ],
  },
];

function RemovalsTab() {
  const { t } = useTranslation();
  const list = useListParams('removals', { scoped: true });
  const query = useRetentionRemovals(list);
  const descriptor: TableDescriptor<RemovalView> = {
    id: 'removals',
    rowKey: 'id',
    columns: [
      { key: 'retention.removal.removedAt', value: 'removedAt', type: 'datetime', testId: 'removal-time' },
      { key: 'retention.removal.device', value: 'device', width: 200, testId: 'removal-device' },
      {
        key: 'retention.removal.what',
        value: 'what',
        type: 'button',
        width: 130,
        testId: 'removal-what',
        buttons: [
          { key: 'rows', text: 'retention.removal.rows', butType: 'tag', background: '#e6f4ff', color: '#0958d9' },
          { key: 'packs', text: 'retention.removal.packs', butType: 'tag', background: '#fff1f0', color: '#cf1322' },
        ],
      },
      { key: 'retention.removal.from', value: 'fromTime', type: 'datetime' },
      { key: 'retention.removal.to', value: 'toTime', type: 'datetime' },
      { key: 'retention.removal.readings', value: 'readings', width: 90 },
      { key: 'retention.removal.policy', value: 'policy', width: 260, testId: 'removal-policy' },
      { key: 'retention.org', value: 'orgName', hidden: true },
    ],
  };
  return (
    <>
      <Alert type="info" showIcon title={t('retention.removal.hint')} style={{ marginBottom: 16 }} />
      <FilterBar items={REMOVAL_FILTERS} value={list.filters} onSearch={list.setFilters} />
      <ServerTable descriptor={descriptor} list={list} query={query} />
    </>
  );
}

export default function RetentionPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const can = usePermission();
  const [params, setParams] = useSearchParams();
  if (!can('org:read')) return <Forbidden />;
  const writable = can('org:write');
  const asked = params.get('tab') as Tab | null;
  const tab: Tab = asked && TABS.includes(asked) ? asked : 'rules';
  const setTab = (key: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (key === 'rules') next.delete('tab');
        else next.set('tab', key);
        return next;
      },
      { replace: true },
    );
  return (
    <Card title={<span data-testid="screen-title">{t('retention.title')}</span>} data-testid="retention-page" className="retention-page">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyOnHidden
        items={[
          { key: 'rules', label: <span data-testid="retention-tab-rules">{t('retention.tab.rules')}</span>, children: <RulesTab writable={writable} /> },
          { key: 'holds', label: <span data-testid="retention-tab-holds">{t('retention.tab.holds')}</span>, children: <HoldsTab writable={writable} /> },
          { key: 'removals', label: <span data-testid="retention-tab-removals">{t('retention.tab.removals')}</span>, children: <RemovalsTab /> },
        ]}
      />
    </Card>
  );
}
