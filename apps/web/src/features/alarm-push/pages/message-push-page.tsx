// alarm/push: message push for alarms, in two tabs. "Push rules": which alarms notify whom, over
// which channels, in which language, escalating step by step until someone acknowledges;
// writers create, change, switch on and off and delete them. "Delivery log": every notification
// sent, with each attempt; handlers send failed ones again. Address: `tab` (`rules` by default,
// or `deliveries`), the rules list's params, the log's under `push-deliveries.`, and `delivery`.
import { useCallback } from 'react';
import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { PushRuleRow } from '@iotc/shared/alarm-push';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useListParams, writeListParams } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { DeliveryLogTab } from '../components/delivery-log-tab.tsx';
import { PushRulesTab } from '../components/push-rules-tab.tsx';
import '../components/alarm-push.css';

const TABS = ['rules', 'deliveries'] as const;
type Tab = (typeof TABS)[number];
const DELIVERIES_TABLE = 'push-deliveries';
const RULES_SORT = 'updatedAt,desc';

export default function MessagePushPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const can = usePermission();
  const [params, setParams] = useSearchParams();
  const rules = useListParams('push-rules', { sort: RULES_SORT });
  const deliveries = useListParams(DELIVERIES_TABLE, { scoped: true });
  const asked = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(asked ?? '') ? (asked as Tab) : 'rules';

  const setTab = useCallback(
    (next: string) =>
      setParams((prev) => {
        const p = new URLSearchParams(prev);
        if (next === 'rules') p.delete('tab');
        else p.set('tab', next);
        return p;
      }),
    [setParams],
  );

  // One address change: the log's tab, filtered to the rule, from its first page.
  const showDeliveries = useCallback(
    (row: PushRuleRow) =>
      setParams((prev) => {
        const p = writeListParams(prev, { page: 1, size: deliveries.size, sort: deliveries.sort, filters: { ruleId: row.id } }, {}, `${DELIVERIES_TABLE}.`);
        p.set('tab', 'deliveries');
        return p;
      }),
    [setParams, deliveries.size, deliveries.sort],
  );

  if (!can('alarm:read')) return <Forbidden />;

  return (
    <Card title={<span data-testid="screen-title">{t('alarmPush.title')}</span>} data-testid="message-push-page" className="push-page">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        data-testid="push-tabs"
        items={[
          { key: 'rules', label: <span data-testid="push-tab-rules">{t('alarmPush.tab.rules')}</span>, children: <PushRulesTab list={rules} onShowDeliveries={showDeliveries} /> },
          { key: 'deliveries', label: <span data-testid="push-tab-deliveries">{t('alarmPush.tab.deliveries')}</span>, children: <DeliveryLogTab list={deliveries} /> },
        ]}
      />
    </Card>
  );
}
