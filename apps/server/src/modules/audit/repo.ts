// SQL of the audit log: appending entries and reading a filtered, sorted page of them within
// the caller's organisation tree.
import { and, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { AuditLogQuery, AuditLogRow } from '@iotc/shared/audit';
import { rowsOf, type Db, type Tx } from '../../db/client.ts';
import { auditLogs, orgs, orgTombstones } from '../../db/schema.ts';
import { cachedCount, containsPattern, inOrgs, limitOffset, orderBy, uuidList, type Sortable } from '../../db/list.ts';

export type AuditEntry = typeof auditLogs.$inferInsert;

/**
 * Writes an audit row through the executor of the change it records (its transaction, or the
 * database for a change of one statement), so the change and its row commit together or not at
 * all; an error is the caller's (the change rolls back and the request fails).
 */
export type AuditWriter = (q: Db | Tx, entry: AuditEntry) => Promise<void>;

export const writeAudit: AuditWriter = async (q, entry) => {
  await q.insert(auditLogs).values(entry);
};

/** API sort names to columns: only these can be sorted. */
const SORTABLE: Sortable = { time: auditLogs.at, account: auditLogs.account, action: auditLogs.action, result: auditLogs.result };

const rowFields = {
  id: auditLogs.id,
  at: auditLogs.at,
  orgId: auditLogs.orgId,
  orgName: sql<string>`coalesce(${orgs.name}, ${orgTombstones.name})`,
  account: auditLogs.account,
  action: auditLogs.action,
  result: auditLogs.result,
  ip: auditLogs.ip,
  userAgent: auditLogs.userAgent,
  detail: auditLogs.detail,
};

function where(scope: readonly string[], q: AuditLogQuery): SQL | undefined {
  return and(
    inOrgs(auditLogs.orgId, scope),
    q.account ? sql`${auditLogs.account} ilike ${containsPattern(q.account)}` : undefined,
    q.action ? eq(auditLogs.action, q.action) : undefined,
    q.result ? eq(auditLogs.result, q.result) : undefined,
    q.timeFrom ? gte(auditLogs.at, new Date(q.timeFrom)) : undefined,
    q.timeTo ? lte(auditLogs.at, new Date(q.timeTo)) : undefined,
  );
}

type Selected = { [K in keyof typeof rowFields]: unknown } & { at: Date; result: 'success' | 'failure' };

function toRow(r: Selected): AuditLogRow {
  const { at, ...rest } = r;
  return { ...(rest as Omit<AuditLogRow, 'time'>), time: at.toISOString() };
}

export function auditRepo(db: Db) {
  async function countWhere(w: SQL | undefined): Promise<number> {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(auditLogs).where(w);
    return row?.n ?? 0;
  }

  async function selectRows(w: SQL | undefined, q: AuditLogQuery, limit: { limit: number; offset: number }): Promise<AuditLogRow[]> {
    const rows = await db
      .select(rowFields)
      .from(auditLogs)
      .leftJoin(orgs, eq(orgs.id, auditLogs.orgId))
      .leftJoin(orgTombstones, eq(orgTombstones.id, auditLogs.orgId))
      .where(w)
      .orderBy(...orderBy(q.sort, SORTABLE, 'time,desc', auditLogs.id))
      .limit(limit.limit)
      .offset(limit.offset);
    return rows.map((r) => toRow(r as Selected));
  }

  /** The scope and the removed organisations under it (a removed organisation's history stays readable above it). */
  async function withRemoved(scope: readonly string[]): Promise<readonly string[]> {
    if (!scope.length) return scope;
    const removed = await db.execute<{ id: string }>(sql`with recursive gone as (
        select id from org_tombstones where parent_id = any(${uuidList(scope)})
        union select t.id from org_tombstones t join gone g on t.parent_id = g.id)
      select id from gone`);
    const ids = rowsOf<{ id: string }>(removed);
    return ids.length ? [...scope, ...ids.map((r) => r.id)] : scope;
  }

  return {
    async count(scope: readonly string[], q: AuditLogQuery): Promise<number> {
      return countWhere(where(await withRemoved(scope), q));
    },

    /** The matching rows in the query's order, without counting them (exports count first). */
    async rows(scope: readonly string[], q: AuditLogQuery, limit: { limit: number; offset: number }): Promise<AuditLogRow[]> {
      return selectRows(where(await withRemoved(scope), q), q, limit);
    },

    async page(scope: readonly string[], q: AuditLogQuery) {
      const w = where(await withRemoved(scope), q);
      const { account, action, result, timeFrom, timeTo } = q;
      const countKey = JSON.stringify(['audit', scope, account, action, result, timeFrom, timeTo]);
      const [rows, total] = await Promise.all([selectRows(w, q, limitOffset(q)), cachedCount(countKey, () => countWhere(w))]);
      return { rows, total };
    },
  };
}
export type AuditRepo = ReturnType<typeof auditRepo>;
