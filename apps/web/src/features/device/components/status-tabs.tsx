// The status tabs of real-time monitoring: All and the five statuses, each with its count in
// the status colour the map and the table use.
import { memo } from 'react';
import { STATUS_COLORS, type StatusCounts } from '@iotc/shared/live';
import { TabBar } from '../../../components/tab-bar.tsx';
import { STATUS_TABS, type StatusTab } from './monitor-model.ts';

/** "All" is no status: it takes the neutral primary colour. */
export const ALL_COLOR = '#1677ff';

export function tabColor(tab: StatusTab): string {
  return tab === 'all' ? ALL_COLOR : STATUS_COLORS[tab];
}

interface StatusTabsProps {
  active: StatusTab;
  counts: StatusCounts | undefined;
  onChange: (tab: StatusTab) => void;
}

function StatusTabsInner({ active, counts, onChange }: StatusTabsProps) {
  return (
    <TabBar
      className="monitor-tabs"
      activeKey={active}
      onChange={(key) => onChange(key as StatusTab)}
      items={STATUS_TABS.map((tab) => {
        const color = tabColor(tab);
        return {
          key: tab,
          name: `monitor.status.${tab}`,
          testId: `monitor-tab-${tab}`,
          extra: (
            <span className="monitor-tab-count" data-testid={`monitor-tab-${tab}-count`} style={{ color, background: `${color}1f` }}>
              {counts ? counts[tab] : '-'}
            </span>
          ),
        };
      })}
    />
  );
}

/** Drawn again only when its own props change, not on every live update of the table. */
export const StatusTabs = memo(StatusTabsInner);
