// ledger/verify: choose a transport task, a device and a time range, or a warehouse batch (a
// single warehouse record still opens from an older address); the screen loads its logged records (every page, up to MAX_VERIFY_RECORDS) and checks them in the
// browser (lib/verify.ts): the summary of the signed tree head and the overall result, then each
// record with its result. "Share and certificate" publishes the same scope as a public link that
// ends when the maker chose; the "Share links" tab (`view=shares`) lists the organisation's links
// and revokes one; the "Tracking links" tab (`view=tracking`, for those who may read transport
// tasks) lists the consignee tracking links of the organisation's tasks the same way. Address: `scope` and the picked ids / range (components/scope-model.ts), the
// tab, and the link list's page and filters.
import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Card, DatePicker, Empty, Progress, Segmented, Skeleton, Space, Typography } from 'antd';
import { ShareAltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import dayjs from 'dayjs';
import type { ShareBody } from '@iotc/shared/ledger/api';
import { Forbidden } from '../../../components/forbidden.tsx';
import { RemoteSelect } from '../../../components/remote-select.tsx';
import { TabBar } from '../../../components/tab-bar.tsx';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { PICKER_SEARCH, usePickedLabel, type PickerKind } from '../api/pickers.ts';
import { MAX_VERIFY_RECORDS, useLedgerRecords, type LedgerScope } from '../api/records.ts';
import { RecordsTable } from '../components/records-table.tsx';
import { defaultRange, parseScope, scopeOf, writeScope, type ScopeChoice } from '../components/scope-model.ts';
import { ShareDialog } from '../components/share-dialog.tsx';
import { ShareList } from '../components/share-list.tsx';
import { TrackingLinkList } from '../../../components/tracking-links/tracking-link-list.tsx';
import { useVerification } from '../components/use-verification.ts';
import { VerifySummary } from '../components/verify-summary.tsx';
import '../components/ledger.css';

const PERMISSION = { task: 'transport:read', device: 'device:read', warehouse: 'warehouse:read' } as const;

/** The screen's tabs: checking records, and the share links made of them. */
type View = 'verify' | 'shares' | 'tracking';

/** The id whose label is looked up: a task, a device, or a single warehouse record while no batch is picked. */
function pickedId(choice: ScopeChoice): string | undefined {
  if (choice.kind === 'task') return choice.taskId;
  if (choice.kind === 'device') return choice.deviceId;
  return choice.batch ? undefined : choice.recordId;
}

export function Verification({ scope }: { scope: LedgerScope }) {
  const { t } = useTranslation();
  const records = useLedgerRecords(scope);
  const pages = records.isError ? undefined : records.data?.pages;
  const verification = useVerification('screen', pages, records.dataUpdatedAt);
  const [sharing, setSharing] = useState(false);
  // Every scope of the screen is a share's scope too.
  const body: ShareBody = scope;

  if (records.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('ledger.loadFailed')}
        action={
          <Button size="small" onClick={() => void records.refetch()}>
            {t('common.retry')}
          </Button>
        }
        data-testid="ledger-error"
      />
    );
  }
  if (records.isFetching || !records.data) {
    return (
      <div data-testid="ledger-loading">
        <Typography.Text type="secondary">{t('ledger.loading', { n: records.loaded })}</Typography.Text>
        <Progress percent={Math.min(99, Math.round((records.loaded / MAX_VERIFY_RECORDS) * 100))} showInfo={false} status="active" size="small" />
        <Skeleton active paragraph={{ rows: 6 }} />
      </div>
    );
  }
  const total = records.data.pages.reduce((n, p) => n + p.items.length, 0);
  if (total === 0) {
    return <Empty description={<Space orientation="vertical" size={4}><span>{t('ledger.empty')}</span><Typography.Text type="secondary">{t('ledger.emptyHint')}</Typography.Text></Space>} data-testid="ledger-empty" />;
  }
  if (!verification.data) {
    return (
      <div data-testid="ledger-verifying">
        <Typography.Text type="secondary">{t('ledger.verifying')}</Typography.Text>
        <Skeleton active paragraph={{ rows: 6 }} />
      </div>
    );
  }
  const v = verification.data;
  return (
    <div className="ledger-body">
      <VerifySummary
        verification={v}
        extra={
          <Button type="primary" icon={<ShareAltOutlined />} onClick={() => setSharing(true)} data-testid="ledger-share">
            {t('ledger.share.button')}
          </Button>
        }
      >
        {records.data.truncated ? <Alert type="warning" showIcon style={{ marginTop: 12 }} title={t('ledger.truncated', { n: total })} data-testid="ledger-truncated" /> : null}
      </VerifySummary>
      <RecordsTable records={v.records} />
      <ShareDialog body={body} open={sharing} onClose={() => setSharing(false)} />
    </div>
  );
}

export default function VerifyPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const can = usePermission();
  const [params, setParams] = useSearchParams();
  const mayTrack = can('transport:read');
  const asked = params.get('view');
  const view: View = asked === 'shares' ? 'shares' : asked === 'tracking' && mayTrack ? 'tracking' : 'verify';
  const choice = useMemo(() => parseScope(params), [params]);
  const scope = useMemo(() => scopeOf(choice), [choice]);
  const set = useCallback((next: ScopeChoice) => setParams((prev) => writeScope(prev, next)), [setParams]);
  const id = pickedId(choice);
  const picked = usePickedLabel(choice.kind, id);
  // The select's value: the batch, else the single record of an older address (shown by its label).
  const value = choice.kind === 'warehouse' ? (choice.batch ?? id) : id;
  const known =
    choice.kind === 'warehouse' && choice.batch
      ? [{ value: choice.batch, label: choice.batch }]
      : id && picked.data
        ? [{ value: id, label: choice.kind === 'warehouse' ? `${t('ledger.scope.record')}: ${picked.data}` : picked.data }]
        : [];
  const kinds = (['task', 'device', 'warehouse'] as const).filter((k) => can(PERMISSION[k]));

  if (kinds.length === 0) return <Forbidden />;

  const pick = (next: string | undefined) => {
    if (choice.kind === 'task') set({ kind: 'task', taskId: next });
    // Picking the single record again keeps it; anything else is a batch number.
    else if (choice.kind === 'warehouse') set(next && next === choice.recordId && !choice.batch ? choice : { kind: 'warehouse', batch: next });
    else set({ ...choice, deviceId: next, ...(choice.from && choice.to ? {} : defaultRange()) });
  };
  const switchKind = (kind: PickerKind) => set(kind === 'device' ? { kind, ...defaultRange() } : { kind });

  const placeholder = { task: t('ledger.pick.task'), device: t('ledger.pick.device'), warehouse: t('ledger.pick.batch') }[choice.kind];
  const toolbar = (
    <Space wrap size={[16, 8]} className="ledger-toolbar" data-testid="ledger-filters">
      <Segmented<PickerKind>
        aria-label={t('ledger.scope.label')}
        value={choice.kind}
        onChange={switchKind}
        options={kinds.map((k) => ({ value: k, label: <span data-testid={`ledger-scope-${k}`}>{t(`ledger.scope.${k}`)}</span> }))}
      />
      <RemoteSelect
        key={`${choice.kind}:${known[0]?.label ?? ''}`}
        fetcher={PICKER_SEARCH[choice.kind]}
        value={value}
        onChange={pick}
        placeholder={placeholder}
        initialOptions={known}
        style={{ width: 380 }}
        data-testid="ledger-pick"
      />
      {choice.kind === 'device' ? (
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          allowClear={false}
          value={choice.from && choice.to ? [dayjs(choice.from), dayjs(choice.to)] : null}
          onChange={(range) => {
            if (range?.[0] && range[1]) set({ ...choice, from: range[0].second(0).millisecond(0).toISOString(), to: range[1].second(0).millisecond(0).toISOString() });
          }}
          data-testid="ledger-range"
        />
      ) : null}
    </Space>
  );

  const switchView = (next: string) =>
    setParams((prev) => {
      const out = new URLSearchParams(prev);
      if (next === 'shares' || next === 'tracking') out.set('view', next);
      else out.delete('view');
      return out;
    });

  return (
    <Card className="ledger-page" title={<span data-testid="screen-title">{t('ledger.verify.title')}</span>} data-testid="ledger-verify-page">
      <TabBar
        activeKey={view}
        onChange={switchView}
        items={[
          { key: 'verify', name: 'ledger.tab.verify', testId: 'ledger-tab-verify' },
          { key: 'shares', name: 'ledger.tab.shares', testId: 'ledger-tab-shares' },
          // The consignee tracking links of the organisation's tasks, for those who may read tasks.
          ...(mayTrack ? [{ key: 'tracking', name: 'ledger.tab.tracking', testId: 'ledger-tab-tracking' }] : []),
        ]}
      />
      {view === 'shares' ? (
        <ShareList />
      ) : view === 'tracking' ? (
        <TrackingLinkList />
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('ledger.verify.intro')}</Typography.Paragraph>
          {toolbar}
          {scope ? <Verification key={JSON.stringify(scope)} scope={scope} /> : <Empty description={t('ledger.pick.first')} data-testid="ledger-pick-first" />}
        </>
      )}
    </Card>
  );
}
