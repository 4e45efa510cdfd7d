// The pick lists of the push rule form, each limited to what the server accepts for the rule's
// organisation (it and the organisations below it): alarm policies, alarm levels, users and
// roles. Users and roles need user:read / role:read; without them (or on a 403) the picker is
// disabled, keeps what the rule holds and says why.
import { useCallback, useMemo } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LevelRow } from '@iotc/shared/alarm';
import type { Lang } from '@iotc/shared/i18n';
import type { OrgNode } from '@iotc/shared/platform';
import { ApiError } from '../../../api/client.ts';
import { useOrgTree } from '../../../api/org-tree.ts';
import type { RemoteFetcher } from '../../../components/remote-select.tsx';
import { usePermission } from '../../../lib/permissions.ts';
import { useLevelChoices } from '../api/level-choices.ts';
import { searchPolicies, usePolicyChoices, usePolicyNames } from '../api/policy-choices.ts';
import { useRoleChoices } from '../api/role-choices.ts';
import { searchUsers, useUserChoices } from '../api/user-choices.ts';
import { ChoiceSelect } from './choice-select.tsx';

interface FieldProps {
  id?: string;
  value?: string[];
  onChange?: (ids: string[]) => void;
}

const shortId = (id: string) => id.slice(0, 8);

function subtreeIds(nodes: OrgNode[], orgId: string): string[] | null {
  for (const n of nodes) {
    if (n.id === orgId) {
      const all: string[] = [];
      const walk = (m: OrgNode) => {
        all.push(m.id);
        m.children.forEach(walk);
      };
      walk(n);
      return all;
    }
    const below = subtreeIds(n.children, orgId);
    if (below) return below;
  }
  return null;
}

/** The rule's organisation and those below it (only itself when the tree cannot be read). */
export function useOrgScope(orgId: string | undefined): Set<string> {
  const { data: tree } = useOrgTree(usePermission()('org:read'));
  return useMemo(() => new Set(orgId ? (subtreeIds(tree ?? [], orgId) ?? [orgId]) : []), [tree, orgId]);
}

const isForbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

export function PolicyPicker({ id, value = [], onChange, orgId, open }: FieldProps & { orgId: string | undefined; open: boolean }) {
  const { t } = useTranslation();
  const base = usePolicyChoices(orgId, open && !!orgId);
  const baseIds = useMemo(() => new Set((base.data ?? []).map((o) => o.value)), [base.data]);
  const missing = base.data ? value.filter((v) => !baseIds.has(v)) : [];
  const names = usePolicyNames(missing, open);
  const fetcher = useCallback<RemoteFetcher>((text, signal) => searchPolicies(orgId, text, signal), [orgId]);
  return (
    <ChoiceSelect
      id={id}
      value={value}
      onChange={onChange}
      base={base.data ?? []}
      search={fetcher}
      names={Object.fromEntries((names.data ?? []).map((o) => [o.value, o.label]))}
      unknownLabel={(v) => t('alarmPush.match.unknownPolicy', { id: shortId(v) })}
      loading={base.isFetching}
      placeholder={t('alarmPush.match.any')}
      testId="push-policies"
    />
  );
}

export function levelLabel(level: Pick<LevelRow, 'nameZh' | 'nameEn' | 'orgName'>, lang: Lang, withOrg: boolean): string {
  const name = lang === 'zh' ? level.nameZh : level.nameEn;
  return withOrg ? `${name} · ${level.orgName}` : name;
}

export function LevelPicker({ id, value = [], onChange, orgId, open, lang }: FieldProps & { orgId: string | undefined; open: boolean; lang: Lang }) {
  const { t } = useTranslation();
  const levels = useLevelChoices(open);
  const scope = useOrgScope(orgId);
  const options = useMemo(() => {
    const mine = (levels.data ?? []).filter((l) => scope.has(l.orgId));
    const several = new Set(mine.map((l) => l.orgId)).size > 1;
    return mine.map((l) => ({
      value: l.id,
      label: (
        <span className="push-level-name">
          <span className="push-level-dot" style={{ background: l.color }} />
          {levelLabel(l, lang, several)}
        </span>
      ),
      title: levelLabel(l, lang, several),
    }));
  }, [levels.data, scope, lang]);
  const known = new Set(options.map((o) => o.value));
  const held = value.filter((v) => !known.has(v)).map((v) => ({ value: v, label: <span>{t('alarmPush.match.unknownLevel', { id: shortId(v) })}</span>, title: v }));
  return (
    <Select<string[]>
      id={id}
      mode="multiple"
      data-testid="push-levels"
      value={value}
      onChange={(ids) => onChange?.(ids)}
      options={[...options, ...held]}
      loading={levels.isFetching}
      allowClear
      showSearch={{ optionFilterProp: 'title' }}
      placeholder={t('alarmPush.match.any')}
      notFoundContent={t('common.noData')}
      style={{ width: '100%' }}
    />
  );
}

export function UserPicker({ id, value = [], onChange, orgId, open, testId }: FieldProps & { orgId: string | undefined; open: boolean; testId: string }) {
  const { t } = useTranslation();
  const allowed = usePermission()('user:read');
  const users = useUserChoices(orgId, open && allowed && !!orgId);
  const fetcher = useCallback<RemoteFetcher>((text, signal) => searchUsers(orgId, text, signal), [orgId]);
  const forbidden = !allowed || isForbidden(users.error);
  let hint: string | undefined;
  if (forbidden) hint = t('alarmPush.recipient.usersForbidden');
  else if (users.isError) hint = t('alarmPush.recipient.usersFailed');
  return (
    <ChoiceSelect
      id={id}
      value={value}
      onChange={onChange}
      base={forbidden ? [] : (users.data ?? [])}
      search={forbidden ? undefined : fetcher}
      unknownLabel={(v) => t('alarmPush.recipient.unknownUser', { id: shortId(v) })}
      loading={users.isFetching}
      disabled={forbidden}
      hint={hint}
      placeholder={t('alarmPush.recipient.usersPlaceholder')}
      testId={testId}
    />
  );
}

export function RolePicker({ id, value = [], onChange, orgId, open, lang, testId }: FieldProps & { orgId: string | undefined; open: boolean; lang: Lang; testId: string }) {
  const { t } = useTranslation();
  const allowed = usePermission()('role:read');
  const roles = useRoleChoices(orgId, lang, open && allowed && !!orgId);
  const forbidden = !allowed || isForbidden(roles.error);
  let hint: string | undefined;
  if (forbidden) hint = t('alarmPush.recipient.rolesForbidden');
  else if (roles.isError) hint = t('alarmPush.recipient.rolesFailed');
  return (
    <ChoiceSelect
      id={id}
      value={value}
      onChange={onChange}
      base={forbidden ? [] : (roles.data ?? [])}
      unknownLabel={(v) => t('alarmPush.recipient.unknownRole', { id: shortId(v) })}
      loading={roles.isFetching}
      disabled={forbidden}
      hint={hint}
      placeholder={t('alarmPush.recipient.rolesPlaceholder')}
      testId={testId}
    />
  );
}
