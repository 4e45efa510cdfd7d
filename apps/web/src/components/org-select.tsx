// A form field choosing one organisation of the caller's tree (deactivated ones not
// selectable), for platform management and for the owner of a new device or asset; and the
// pure shapes it is drawn from.
import { useMemo } from 'react';
import { TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OrgNode } from '@iotc/shared/platform';
import { useInfo } from '../api/info.ts';
import { useOrgTree } from '../api/org-tree.ts';
import { usePermission } from '../lib/permissions.ts';

export function allOrgIds(nodes: OrgNode[]): string[] {
  return nodes.flatMap((n) => [n.id, ...allOrgIds(n.children)]);
}

export interface OrgSelectOption {
  value: string;
  title: string;
  disabled?: boolean;
  children: OrgSelectOption[];
}

/** TreeSelect data: every organisation, the deactivated ones not selectable. */
export function toOrgSelectData(nodes: OrgNode[]): OrgSelectOption[] {
  return nodes.map((n) => ({
    value: n.id,
    title: n.name,
    disabled: n.status !== 'active',
    children: toOrgSelectData(n.children),
  }));
}

/** Whether there is a choice to make: the caller sees more than one organisation. */
export function useOrgChoice(): boolean {
  const { data } = useOrgTree(usePermission()('org:read'));
  return !!data && allOrgIds(data).length > 1;
}

export interface OrgSelectProps {
  id?: string;
  value?: string;
  onChange?: (value: string | undefined) => void;
  disabled?: boolean;
  /** The field may be emptied (the server then takes the caller's own organisation). */
  allowClear?: boolean;
  /** The placeholder text; 'please select' by default. */
  placeholder?: string;
  /** The control's name for assistive technology; without a label element pointing at `id`, the placeholder names it. */
  'aria-label'?: string;
}

export function OrgSelect({ id, value, onChange, disabled, allowClear, placeholder, 'aria-label': ariaLabel }: OrgSelectProps) {
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
      aria-label={ariaLabel ?? (id ? undefined : (placeholder ?? t('filter.select')))}
      value={value}
      onChange={onChange}
      disabled={disabled}
      allowClear={allowClear}
      loading={isFetching}
      treeData={treeData}
      treeDefaultExpandedKeys={expanded}
      showSearch={{ treeNodeFilterProp: 'title' }}
      placeholder={placeholder ?? t('filter.select')}
      classNames={{ popup: { root: 'org-select-popup' } }}
      notFoundContent={t('common.noData')}
      style={{ width: '100%' }}
    />
  );
}
