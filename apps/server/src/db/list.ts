// The one list convention of the server: allow-listed sorting, paging, and the organisation
// scope every data row is read through (a caller sees its organisation and its descendants).
import { asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Page } from '@iotc/shared/envelope';
import type { ListQuery } from '@iotc/shared/list';
import { AppError } from '../lib/errors.ts';
import { orgScope, type OrgScope } from '../lib/caller.ts';
import { rowsOf, type Executor } from './client.ts';

/** Sortable fields: columns, or an SQL expression (a status derived when read). */
export type Sortable = Record<string, AnyPgColumn | SQL>;

/**
 * ORDER BY for a `field,dir` sort value; only allow-listed fields (the API names, mapped to
 * columns) can be sorted. A tie-breaker keeps pages stable when sort values repeat.
 */
export function orderBy(sort: string | undefined, sortable: Sortable, fallback: string, tieBreaker: AnyPgColumn): SQL[] {
  const [field, dir] = (sort ?? fallback).split(',') as [string, 'asc' | 'desc'];
  const column = Object.hasOwn(sortable, field) ? sortable[field] : undefined;
  if (!column) {
    const fields = Object.keys(sortable).join(', ');
    throw new AppError(400, 'VALIDATION', {
      en: `Sort order: "${field}" cannot be sorted; sortable: ${fields}`,
      zh: `排序：不能按“${field}”排序；可排序字段：${fields}`,
    });
  }
  const by = dir === 'desc' ? desc : asc;
  return column === tieBreaker ? [by(column)] : [by(column), by(tieBreaker)];
}

export function limitOffset(q: ListQuery): { limit: number; offset: number } {
  return { limit: q.size, offset: (q.page - 1) * q.size };
}

/** A nullable timestamp column as the API writes times (ISO 8601 UTC). */
export const isoOrNull = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

export function toPage<T>(rows: T[], total: number, q: ListQuery): Page<T> {
  return { rows, total, page: q.page, size: q.size };
}

/** The organisation and all its descendants (read through the database or a transaction). */
export async function orgTree(db: Executor, rootOrgId: string): Promise<string[]> {
  const rows = await db.execute<{ id: string }>(
    sql`with recursive tree(id) as (select ${rootOrgId}::uuid union all select o.id from orgs o join tree on o.parent_id = tree.id) select id from tree`,
  );
  return rowsOf<{ id: string }>(rows).map((r) => r.id);
}

/** The scope of a caller in `rootOrgId`: the organisation, its descendants and their parents (one query). */
export async function scopeOf(db: Executor, rootOrgId: string): Promise<OrgScope> {
  const rows = await db.execute<{ id: string; parent_id: string | null }>(
    sql`with recursive tree(id, parent_id) as (select id, parent_id from orgs where id = ${rootOrgId}::uuid union all select o.id, o.parent_id from orgs o join tree on o.parent_id = tree.id) select id, parent_id from tree`,
  );
  return orgScope(
    rootOrgId,
    rowsOf<{ id: string; parent_id: string | null }>(rows).map((r) => ({ id: r.id, parentId: r.parent_id })),
  );
}

/** The organisation and its ancestors, nearest first, from a map of each organisation's parent. */
export function ancestorChain(parents: ReadonlyMap<string, string | null>, orgId: string): string[] {
  const out: string[] = [];
  for (let o: string | null | undefined = orgId; o && !out.includes(o); o = parents.get(o)) out.push(o);
  return out;
}

/**
 * `column` is one of the given organisations. Concrete ids (not a subquery) let the planner
 * read `(org_id, sort column)` indexes in order instead of sorting the whole table.
 */
export function inOrgs(column: AnyPgColumn, ids: readonly string[]): SQL {
  return ids.length === 1 ? eq(column, ids[0]!) : inArray(column, ids);
}

const COUNT_CACHE_MIN = 10_000;
const COUNT_CACHE_MS = 5_000;
const countCache = new Map<string, { n: number; until: number }>();

/**
 * An exact count, except that a large one (10,000 rows or more) is reused for 5 s for the same
 * query: counting a million rows costs a full scan, and paging through one list repeats it.
 */
export async function cachedCount(key: string, count: () => Promise<number>): Promise<number> {
  const now = Date.now();
  const hit = countCache.get(key);
  if (hit && hit.until > now) return hit.n;
  const n = await count();
  if (n >= COUNT_CACHE_MIN) {
    if (countCache.size > 1000) countCache.clear();
    countCache.set(key, { n, until: now + COUNT_CACHE_MS });
  } else {
    countCache.delete(key);
  }
  return n;
}

/** A LIKE pattern that matches `text` literally anywhere (%, _ and \ in the input are not wildcards). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `column` is one of many uuids, bound as one array parameter: an IN list binds a value each,
 * which costs more to build than the query does to run, and stops at 65,535 values.
 */
export function anyUuid(column: AnyPgColumn, ids: string[]): SQL {
  return sql`${column} = any(${uuidList(ids)})`;
}

/** Many uuids bound as one `uuid[]` parameter, for `= any(...)` in raw SQL (see anyUuid). */
export function uuidList(ids: readonly string[]): SQL {
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}

/** An instant bound as a `timestamptz` parameter in raw SQL. */
export function tsParam(t: number | Date): SQL {
  return sql`${new Date(t).toISOString()}::timestamptz`;
}
