// The owning organisation of a new device or asset: a tree of the caller's organisations
// (deactivated ones not selectable). Left empty, the server uses the caller's own.
import { useMemo } from 'react';
import { TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OrgNode } from '@iotc/shared/platform';
import { usePermission } from '../../../lib/permissions.ts';
import { useOrgTree } from '../api/org-tree.ts';

interface OrgOption {
  value: string;
  title: string;
  disabled: boolean;
  children: OrgOption[];
}

function toOptions(nodes: OrgNode[]): OrgOption[] {
  return nodes.map((n) => ({ value: n.id, title: n.name, disabled: n.status !== 'active', children: toOptions(n.children) }));
}

function allIds(nodes: OrgNode[]): string[] {
  return nodes.flatMap((n) => [n.id, ...allIds(n.children)]);
}

/** Whether there is a choice to make: the caller sees more than one organisation. */
export function useOrgChoice(): boolean {
  const { data } = useOrgTree(usePermission()('org:read'));
  return !!data && allIds(data).length > 1;
}

export interface OrgFieldProps {
  id?: string;
  value?: string;
  onChange?: (value: string | undefined) => void;
}

export function OrgField({ id, value, onChange }: OrgFieldProps) {
  const { t } = useTranslation();
  const { data, isFetching } = useOrgTree(usePermission()('org:read'));
  const treeData = useMemo(() => toOptions(data ?? []), [data]);
  const expanded = useMemo(() => allIds(data ?? []), [data]);
  return (
    <TreeSelect
      id={id}
      value={value}
      onChange={onChange}
      allowClear
      loading={isFetching}
      treeData={treeData}
      treeDefaultExpandedKeys={expanded}
      showSearch={{ treeNodeFilterProp: 'title' }}
      placeholder={t('asset.orgDefault')}
      classNames={{ popup: { root: 'asset-org-popup' } }}
      notFoundContent={t('common.noData')}
      style={{ width: '100%' }}
    />
  );
}
