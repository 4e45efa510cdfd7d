// The rules tab's shapes: the flat organisation list (parents first) as a tree for the table, and
// an effective value in words ("90 days", "Forever") with where it comes from.
import type { TFunction } from 'i18next';
import type { EffectiveValue, RetentionOrg } from '@iotc/shared/retention';

export interface RuleTreeRow extends RetentionOrg {
  children?: RuleTreeRow[];
}

/** The organisations as a tree: each under its parent, the caller's own at the top. */
export function toRuleTree(orgs: RetentionOrg[]): RuleTreeRow[] {
  const byId = new Map<string, RuleTreeRow>(orgs.map((o) => [o.orgId, { ...o }]));
  const roots: RuleTreeRow[] = [];
  for (const o of orgs) {
    const row = byId.get(o.orgId)!;
    const parent = o.parentId ? byId.get(o.parentId) : undefined;
    if (parent) (parent.children ??= []).push(row);
    else roots.push(row);
  }
  return roots;
}

export function daysText(t: TFunction, days: number | null): string {
  return days === null ? t('retention.forever') : t('retention.days', { count: days });
}

export function sourceText(t: TFunction, v: EffectiveValue): string {
  switch (v.source) {
    case 'own':
      return t('retention.source.own');
    case 'inherited':
      return t('retention.source.inherited', { name: v.fromOrgName ?? '' });
    case 'platform':
      return t('retention.source.platform');
    case 'default':
      return t('retention.source.default');
    case 'floor':
      return t('retention.source.floor');
  }
}

const POLICY = /^(rows|packs) kept (forever|(\d+) days) \((rule of (.+)|inherited from (.+)|platform rule|built-in default|platform floor)\)$/;

/**
 * A removal's rule, which the server keeps in English words as it was on the day ("packs kept
 * 1825 days (inherited from Acme)"), in the user's language; any other text as it is.
 */
export function policyText(t: TFunction, policy: string): string {
  const m = POLICY.exec(policy);
  if (!m) return policy;
  const days = m[3] === undefined ? null : Number(m[3]);
  const source =
    m[5] !== undefined
      ? t('retention.source.ownOf', { name: m[5] })
      : m[6] !== undefined
        ? t('retention.source.inherited', { name: m[6] })
        : m[4] === 'platform rule'
          ? t('retention.source.platform')
          : m[4] === 'built-in default'
            ? t('retention.source.default')
            : t('retention.source.floor');
  return t(m[1] === 'rows' ? 'retention.policy.rows' : 'retention.policy.packs', { days: daysText(t, days), source });
}
