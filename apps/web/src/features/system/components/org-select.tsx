// A form field choosing one organisation of the caller's tree (deactivated ones not selectable).
import { useMemo } from 'react';
import { TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { useInfo } from '../../../api/info.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { useOrgTree } from '../api/org-tree.ts';
import { allOrgIds, toOrgSelectData, type OrgSelectOption } from './org-tree-model.ts';

export interface OrgSelectProps {
  id?: string;
  value?: string;
  onChange?: (value: string | undefined) => void;
  disabled?: boolean;
}

export function OrgSelect({ id, value, onChange, disabled }: OrgSelectProps) {
  const { t } = useTranslation();
  const allowed = usePermission()('org:read');
  const { data: me } = useInfo();
  const { data: tree, isFetching } = useOrgTree(allowed);
  const treeData = useMemo((): OrgSelectOption[] => {
    if (allowed) return toOrgSelectData(tree ?? []);
    // Without org:read there is no tree to ask for: the user's own organisation is the choice.
    return me ? [{ value: me.orgId, title: me.orgName, children: [] }] : [];
  }, [allowed, tree, me]);
  const expanded = useMemo(() => allOrgIds(tree ?? []), [tree]);
  return (
    <TreeSelect
      id={id}
      value={value}
      onChange={onChange}
      disabled={disabled}
      loading={isFetching}
      treeData={treeData}
      treeDefaultExpandedKeys={expanded}
      showSearch={{ treeNodeFilterProp: 'title' }}
      placeholder={t('filter.select')}
      classNames={{ popup: { root: 'org-select-popup' } }}
      notFoundContent={t('common.noData')}
      style={{ width: '100%' }}
    />
  );
}
