// The menu items of a role as a form field: one checkable tree per scenario type, each on a
// tab named after its scenario; the value is every granted id across the trees.
import { useMemo } from 'react';
import { Empty, Tabs, Tree } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MenuItem } from '@iotc/shared/auth';
import { DEFAULT_SCENARIO } from '@iotc/shared/constants';
import type { Grantables } from '@iotc/shared/platform';
import { getScenarioType } from '../../../lib/session.ts';
import { checkedLeaves, menuIdsOf, replaceTreeGrants, toMenuTreeData } from './menu-grants-model.ts';

/** Scenario names by type (spec section 2), shared with the services screen's texts. */
const SCENARIO_KEYS = {
  101: 'services.transport',
  102: 'services.device',
  103: 'services.container',
  104: 'services.vehicle',
} as const;

function scenarioKey(type: number) {
  return Object.hasOwn(SCENARIO_KEYS, type) ? SCENARIO_KEYS[type as keyof typeof SCENARIO_KEYS] : undefined;
}

function ScenarioTree({ items, value, onChange }: { items: MenuItem[]; value: string[]; onChange: (next: string[]) => void }) {
  const treeData = useMemo(() => toMenuTreeData(items), [items]);
  const checked = useMemo(() => checkedLeaves(items, value), [items, value]);
  return (
    <Tree
      checkable
      selectable={false}
      defaultExpandAll
      className="role-menu-tree"
      treeData={treeData}
      checkedKeys={checked}
      titleRender={(node) => <span data-testid={`menu-node-${String(node.key)}`}>{String(node.title)}</span>}
      onCheck={(keys) => {
        const list = Array.isArray(keys) ? keys : keys.checked;
        onChange(replaceTreeGrants(value, items, list.map(String)));
      }}
    />
  );
}

export interface MenuGrantsProps {
  menus: Grantables['menus'];
  value?: string[];
  onChange?: (value: string[]) => void;
}

export function MenuGrants({ menus, value = [], onChange }: MenuGrantsProps) {
  const { t } = useTranslation();
  if (menus.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('system.roles.noMenus')} />;
  const granted = new Set(value);
  // The scenario the console is showing opens first.
  const current = String(getScenarioType() ?? DEFAULT_SCENARIO);
  return (
    <Tabs
      size="small"
      data-testid="role-menus"
      defaultActiveKey={menus.some((m) => String(m.type) === current) ? current : undefined}
      items={menus.map((m) => {
        const key = scenarioKey(m.type);
        const count = [...menuIdsOf(m.items)].filter((id) => granted.has(id)).length;
        return {
          key: String(m.type),
          label: (
            <span data-testid={`role-menus-tab-${m.type}`}>
              {key ? t(key) : String(m.type)}
              {count ? <span className="role-menu-count"> ({count})</span> : null}
            </span>
          ),
          children: <ScenarioTree items={m.items} value={value} onChange={(next) => onChange?.(next)} />,
        };
      })}
    />
  );
}
