import { describe, expect, it } from 'vitest';
import type { RetentionOrg } from '@iotc/shared/retention';
import type { TFunction } from 'i18next';
import { policyText, toRuleTree } from './rules-model.ts';

const org = (orgId: string, parentId: string | null): RetentionOrg => ({
  orgId,
  parentId,
  code: orgId,
  name: orgId,
  kind: 'tenant',
  own: { rowsInherit: true, rowsDays: null, packsInherit: true, packsDays: null, packsFloorDays: null, updatedAt: null },
  rows: { days: 90, source: 'default', fromOrgId: null, fromOrgName: null },
  packs: { days: null, source: 'default', fromOrgId: null, fromOrgName: null },
});

describe('toRuleTree', () => {
  it('puts each organisation under its parent, keeping the order', () => {
    const tree = toRuleTree([org('a', null), org('b', 'a'), org('c', 'b'), org('d', 'a')]);
    expect(tree.map((r) => r.orgId)).toEqual(['a']);
    expect(tree[0]!.children!.map((r) => r.orgId)).toEqual(['b', 'd']);
    expect(tree[0]!.children![0]!.children!.map((r) => r.orgId)).toEqual(['c']);
    expect(tree[0]!.children![1]!.children).toBeUndefined();
  });
});

describe('policyText', () => {
  // A stand-in t that shows the key and its values, so the parse is what is checked.
  const t = ((key: string, v?: Record<string, unknown>) => (v ? `${key}${JSON.stringify(v)}` : key)) as unknown as TFunction;
  it('words the kept rule in the user language', () => {
    expect(policyText(t, 'packs kept 1825 days (inherited from Acme (East))')).toBe(
      'retention.policy.packs{"days":"retention.days{\\"count\\":1825}","source":"retention.source.inherited{\\"name\\":\\"Acme (East)\\"}"}',
    );
    expect(policyText(t, 'rows kept 90 days (built-in default)')).toBe('retention.policy.rows{"days":"retention.days{\\"count\\":90}","source":"retention.source.default"}');
    expect(policyText(t, 'rows kept 30 days (rule of Demo)')).toContain('retention.source.ownOf{\\"name\\":\\"Demo\\"}');
    expect(policyText(t, 'packs kept forever (platform floor)')).toContain('retention.forever');
  });
  it('leaves any other text as it is', () => {
    expect(policyText(t, 'something else')).toBe('something else');
  });
});
