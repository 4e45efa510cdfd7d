// Tabs of a screen (spec section 3, tab item): card-style tabs from { key, name, active } items,
// controlled by the screen through `activeKey` (or the item flagged active) and onChange.
import type { ReactNode } from 'react';
import { Tabs } from 'antd';
import { textShadeOf } from '../lib/color.ts';
import { useLabel } from '../lib/label.ts';
import './tab-bar.css';

export interface TabItem {
  key: string;
  /** i18n key or text. */
  name: string;
  active?: boolean;
  /** Content under the tab; screens that render one body for every tab leave it out. */
  children?: ReactNode;
  /** Shown after the name (a count, a badge). */
  extra?: ReactNode;
  /** `data-testid` of the tab's label; default `tab-<key>`. */
  testId?: string;
}

export interface TabBarProps {
  items: TabItem[];
  /** The open tab; without it the item flagged `active`, else the first. */
  activeKey?: string;
  onChange: (key: string) => void;
  className?: string;
}

export function TabBar({ items, activeKey, onChange, className }: TabBarProps) {
  const label = useLabel();
  const current = activeKey ?? items.find((i) => i.active)?.key ?? items[0]?.key;
  return (
    <Tabs
      type="card"
      className={className}
      data-testid="tab-bar"
      activeKey={current}
      onChange={onChange}
      items={items.map((i) => ({
        key: i.key,
        label: (
          <span data-testid={i.testId ?? `tab-${i.key}`}>
            {label(i.name)}
            {i.extra}
          </span>
        ),
        children: i.children,
      }))}
    />
  );
}

/** A tab's count (`extra` of a status tab): the status colour on a light tint of it; '-' while unknown. */
export function TabCount({ count, color, testId }: { count: number | undefined; color: string; testId: string }) {
  return (
    <span className="iotc-tab-count" data-testid={testId} style={{ color: textShadeOf(color), background: `${color}1f` }}>
      {count ?? '-'}
    </span>
  );
}
