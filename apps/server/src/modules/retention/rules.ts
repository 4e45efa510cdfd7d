// Effective retention of an organisation from the rules of the tree (no database here): each part
// (rows, packs) is the nearest rule up the tree that does not inherit; the platform
// organisation's rule is the default of every tree (a tenant without a parent included), the
// built-in default below it; packs are never kept fewer days than the platform floor.
import { DEFAULT_PACKS_DAYS, DEFAULT_ROWS_DAYS, type EffectiveValue } from '@iotc/shared/retention';

export interface OrgNode {
  id: string;
  parentId: string | null;
  code: string;
  name: string;
  kind: 'platform' | 'tenant';
}

export interface Rule {
  orgId: string;
  rowsInherit: boolean;
  rowsDays: number | null;
  packsInherit: boolean;
  packsDays: number | null;
  packsFloorDays: number | null;
}

export interface Effective {
  rows: EffectiveValue;
  packs: EffectiveValue;
}

export interface RuleBook {
  orgs: ReadonlyMap<string, OrgNode>;
  rules: ReadonlyMap<string, Rule>;
  platformId: string | null;
}

export const floorOf = (book: RuleBook): number | null => (book.platformId ? (book.rules.get(book.platformId)?.packsFloorDays ?? null) : null);

function part(book: RuleBook, orgId: string, which: 'rows' | 'packs'): EffectiveValue {
  const inherit = which === 'rows' ? 'rowsInherit' : 'packsInherit';
  const days = which === 'rows' ? 'rowsDays' : 'packsDays';
  const seen = new Set<string>();
  for (let o: string | null = orgId; o && !seen.has(o); o = book.orgs.get(o)?.parentId ?? null) {
    seen.add(o);
    const r = book.rules.get(o);
    if (r && !r[inherit]) {
      const source = o === orgId ? 'own' : o === book.platformId ? 'platform' : 'inherited';
      return { days: r[days], source, fromOrgId: o, fromOrgName: book.orgs.get(o)?.name ?? null };
    }
  }
  const p = book.platformId ? book.rules.get(book.platformId) : undefined;
  if (p && !p[inherit] && !seen.has(book.platformId!)) {
    return { days: p[days], source: 'platform', fromOrgId: book.platformId, fromOrgName: book.orgs.get(book.platformId!)?.name ?? null };
  }
  return { days: which === 'rows' ? DEFAULT_ROWS_DAYS : DEFAULT_PACKS_DAYS, source: 'default', fromOrgId: null, fromOrgName: null };
}

/** An organisation's effective retention, and where each value comes from. */
export function effectiveOf(book: RuleBook, orgId: string): Effective {
  const rows = part(book, orgId, 'rows');
  let packs = part(book, orgId, 'packs');
  const floor = floorOf(book);
  if (floor !== null && packs.days !== null && packs.days < floor) {
    packs = { days: floor, source: 'floor', fromOrgId: book.platformId, fromOrgName: book.orgs.get(book.platformId!)?.name ?? null };
  }
  return { rows, packs };
}

/** The rule in words, as a removal record keeps it ("packs kept 1825 days (platform floor)"). */
export function policyWords(which: 'rows' | 'packs', v: EffectiveValue): string {
  const kept = `${which} kept ${v.days === null ? 'forever' : `${v.days} days`}`;
  const from = {
    own: `rule of ${v.fromOrgName}`,
    inherited: `inherited from ${v.fromOrgName}`,
    platform: 'platform rule',
    default: 'built-in default',
    floor: 'platform floor',
  }[v.source];
  return `${kept} (${from})`;
}
