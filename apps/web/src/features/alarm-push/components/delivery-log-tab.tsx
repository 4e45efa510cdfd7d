// The delivery log: every notification the push rules made, newest first, filtered by time,
// status, channel, rule and organisation; a row opens the delivery with every attempt. Users who
// may handle alarms send a failed delivery, or one kept in the outbox, again (after confirming)
// from its row or its details. Address: the list's params under `push-deliveries.` and
// `delivery` (the delivery whose details are open).
import { useCallback, useMemo } from 'react';
import { SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { DELIVERY_STATUSES, PUSH_CHANNELS, PUSH_EVENTS, type DeliveryRow } from '@iotc/shared/alarm-push';
import { PATTERNS } from '@iotc/shared/validation';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { ButtonLookupItem, TableDescriptor } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import type { ListParams, ListState } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDeliveries } from '../api/deliveries.ts';
import { useResendDelivery } from '../api/delivery-resend.ts';
import { useRuleChoices } from '../api/push-rules.ts';
import { canResend, DELIVERY_STATUS_COLORS, deliveryFilters, formatTime, resultText, targetText, TIME_FILTER } from './delivery-model.ts';
import { DeliveryDrawer } from './delivery-drawer.tsx';
import { useOrgFilter } from '../../../components/org-filter.ts';

/** A row as the table shows it: `createdAt` in the user's time zone (the sort key stays the API's), the summaries as texts. */
interface DeliveryTableRow extends DeliveryRow {
  alarmText: string;
  stepText: string;
  targetText: string;
  resultText: string;
}

const STATUS_TAGS: ButtonLookupItem[] = DELIVERY_STATUSES.map((s) => ({ key: s, text: `alarmPush.status.${s}`, butType: 'tag', ...DELIVERY_STATUS_COLORS[s] }));

export const DETAIL_PARAM = 'delivery';

export function DeliveryLogTab({ list }: { list: ListParams }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const canHandle = usePermission()('alarm:handle');
  const confirm = useConfirmAction();
  const resend = useResendDelivery();
  const rules = useRuleChoices();
  const orgFilter = useOrgFilter('alarmPush.rule.org');

  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: list.sort, filters: deliveryFilters(list.filters) }), [list.page, list.size, list.sort, list.filters]);
  const query = useDeliveries(state);

  const filters = useMemo(
    (): FilterItem[] => [
      { label: 'alarmPush.delivery.time', key: TIME_FILTER, type: 'datetimerange' },
      { label: 'alarmPush.delivery.status', key: 'status', type: 'multiselect', width: 220, options: DELIVERY_STATUSES.map((s) => ({ value: s, label: `alarmPush.status.${s}` })) },
      { label: 'alarmPush.delivery.channel', key: 'channel', type: 'multiselect', width: 220, options: PUSH_CHANNELS.map((c) => ({ value: c, label: `alarm.channel.${c}` })) },
      { label: 'alarmPush.delivery.rule', key: 'ruleId', type: 'select', width: 220, options: rules.data ?? [] },
      ...(orgFilter ? [orgFilter] : []),
    ],
    [rules.data, orgFilter],
  );

  const rows = useMemo(
    (): DeliveryTableRow[] =>
      (query.data?.rows ?? []).map((r) => ({
        ...r,
        createdAt: formatTime(r.createdAt),
        alarmText: `${r.alarm.device.name} (${r.alarm.device.deviceId}) · ${t(`alarm.type.${r.alarm.type}`)}`,
        stepText: r.round > 0 ? t('alarmPush.delivery.stepRound', { step: r.step, round: r.round }) : t('alarmPush.delivery.stepOnly', { step: r.step }),
        targetText: targetText(r),
        resultText: resultText(r),
      })),
    [query.data, t],
  );

  const raw = params.get(DETAIL_PARAM)?.trim();
  const detailId = raw && PATTERNS.uuid.test(raw) ? raw : null;
  const setDetail = useCallback(
    (id: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (id) next.set(DETAIL_PARAM, id);
          else next.delete(DETAIL_PARAM);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const askResend = (d: Pick<DeliveryRow, 'id' | 'channel' | 'target' | 'user'>) =>
    confirm({
      title: t('alarmPush.delivery.resendTitle'),
      content: <div data-testid="push-resend-content">{t('alarmPush.delivery.resendContent', { channel: t(`alarm.channel.${d.channel}`), target: targetText(d) })}</div>,
      okText: t('alarmPush.delivery.resend'),
      action: () => resend.mutateAsync(d.id),
      success: t('alarmPush.delivery.resent'),
    });

  const descriptor: TableDescriptor<DeliveryTableRow> = {
    id: 'push-deliveries',
    rowKey: 'id',
    // Cells wrap so the log fits 1280 px; event, step and attempts are behind custom columns.
    columns: [
      { key: 'alarmPush.delivery.createdAt', value: 'createdAt', type: 'datetime', sortable: true },
      { key: 'alarmPush.delivery.alarm', value: 'alarmText', width: 220, testId: 'push-delivery-alarm-cell' },
      { key: 'alarmPush.delivery.rule', value: 'ruleName', width: 130 },
      { key: 'alarmPush.delivery.event', value: 'event', width: 110, hidden: true, type: 'map', textMap: Object.fromEntries(PUSH_EVENTS.map((e) => [e, `alarmPush.event.${e}`])) },
      { key: 'alarmPush.delivery.step', value: 'stepText', width: 90, hidden: true, testId: 'push-delivery-step-cell' },
      { key: 'alarmPush.delivery.channel', value: 'channel', width: 90, type: 'map', textMap: Object.fromEntries(PUSH_CHANNELS.map((c) => [c, `alarm.channel.${c}`])) },
      { key: 'alarmPush.delivery.target', value: 'targetText', width: 220, testId: 'push-delivery-target-cell' },
      { key: 'alarmPush.delivery.status', value: 'status', width: 100, type: 'button', buttons: STATUS_TAGS, testId: 'push-delivery-status-cell' },
      { key: 'alarmPush.delivery.attempts', value: 'attempts', sortable: true, width: 90, hidden: true },
      { key: 'alarmPush.delivery.lastResult', value: 'resultText', width: 200, testId: 'push-delivery-result-cell' },
    ],
    rowButtons: canHandle
      ? [
          {
            name: 'alarmPush.delivery.resend',
            icon: <SendOutlined />,
            showtype: 'i',
            testId: 'push-delivery-action-resend',
            hidden: (r) => !canResend(r),
            onClick: (r) => askResend(r),
          },
        ]
      : [],
  };

  return (
    <>
      <FilterBar items={filters} value={list.filters} onSearch={list.setFilters} />
      <DataTable<DeliveryTableRow>
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
        onRowClick={(r) => setDetail(r.id)}
        activeRowKey={detailId}
        emptyText={<span data-testid="push-deliveries-empty">{t('alarmPush.delivery.none')}</span>}
      />
      <DeliveryDrawer id={detailId} onClose={() => setDetail(null)} canHandle={canHandle} onResend={askResend} />
    </>
  );
}
