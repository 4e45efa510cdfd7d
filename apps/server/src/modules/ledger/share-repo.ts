// SQL of the ledger's share links (ledger_shares): one by token hash or id, the insert, the
// revocation, and a page of an organisation tree's links with what each covers in words.
import { and, count, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { ShareKind, ShareQuery, ShareRow, ShareStatus } from '@iotc/shared/ledger/api';
import type { Db } from '../../db/client.ts';
import { inOrgs, isoOrNull, limitOffset, orderBy, type Sortable } from '../../db/list.ts';
import { devices, ledgerShares, orgs, transportTasks, warehouseRecords } from '../../db/schema.ts';
import { linkStatusAt } from '../../lib/public-link.ts';

export type ShareRecord = typeof ledgerShares.$inferSelect;
export type NewShare = typeof ledgerShares.$inferInsert;

export async function shareByTokenHash(db: Db, tokenHash: string): Promise<ShareRecord | undefined> {
  return (await db.select().from(ledgerShares).where(eq(ledgerShares.tokenHash, tokenHash)))[0];
}

export async function shareById(db: Db, id: string): Promise<ShareRecord | undefined> {
  return (await db.select().from(ledgerShares).where(eq(ledgerShares.id, id)))[0];
}

export async function insertShare(db: Db, values: NewShare): Promise<ShareRecord> {
  return (await db.insert(ledgerShares).values(values).returning())[0]!;
}

/** Marks the link revoked unless it already is; the row as it is after, and whether this call revoked it. */
export async function revokeShare(db: Db, id: string, by: string, at: Date): Promise<{ row: ShareRecord; changed: boolean }> {
  const [row] = await db
    .update(ledgerShares)
    .set({ revokedAt: at, revokedBy: by })
    .where(and(eq(ledgerShares.id, id), isNull(ledgerShares.revokedAt)))
    .returning();
  if (row) return { row, changed: true };
  return { row: (await shareById(db, id))!, changed: false };
}

/** Language-neutral words for what a link covers; '' when its subject is gone. */
const subjectText = sql<string>`coalesce(case ${ledgerShares.kind}
  when 'task' then ${transportTasks.code} || ' · ' || ${transportTasks.goodsName}
  when 'device' then ${devices.deviceId} || ' · ' || ${devices.name}
  when 'batch' then ${ledgerShares.scope}->>'warehouseBatch'
  else ${warehouseRecords.goodsName} || coalesce(' · ' || nullif(${warehouseRecords.batchNo}, ''), '') end, '')`;

const SORTABLE: Sortable = { createdAt: ledgerShares.createdAt, expiresAt: ledgerShares.expiresAt };

type RawRow = {
  id: string;
  kind: string;
  scope: unknown;
  subject: string;
  orgName: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  revokedBy: string | null;
  status: ShareStatus;
};

function toRow(r: RawRow): ShareRow {
  const scope = r.scope as { from?: string; to?: string };
  return {
    id: r.id,
    kind: r.kind as ShareKind,
    subject: r.subject,
    from: r.kind === 'device' && scope.from ? new Date(scope.from).toISOString() : null,
    to: r.kind === 'device' && scope.to ? new Date(scope.to).toISOString() : null,
    orgName: r.orgName,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    revokedAt: isoOrNull(r.revokedAt),
    revokedBy: r.revokedBy,
    status: r.status,
  };
}

/** The links matching `where` as the list shows them, in `sort` order. */
async function readRows(db: Db, where: SQL | undefined, now: Date, page: { sort?: string; limit: number; offset: number }): Promise<ShareRow[]> {
  const rows = await db
    .select({
      id: ledgerShares.id,
      kind: ledgerShares.kind,
      scope: ledgerShares.scope,
      subject: subjectText,
      orgName: orgs.name,
      createdBy: ledgerShares.createdBy,
      createdAt: ledgerShares.createdAt,
      expiresAt: ledgerShares.expiresAt,
      revokedAt: ledgerShares.revokedAt,
      revokedBy: ledgerShares.revokedBy,
      status: linkStatusAt<ShareStatus>(ledgerShares, now),
    })
    .from(ledgerShares)
    .innerJoin(orgs, eq(orgs.id, ledgerShares.orgId))
    .leftJoin(transportTasks, and(eq(ledgerShares.kind, 'task'), sql`${transportTasks.id} = (${ledgerShares.scope}->>'taskId')::uuid`))
    .leftJoin(devices, and(eq(ledgerShares.kind, 'device'), sql`${devices.id} = (${ledgerShares.scope}->>'deviceId')::uuid`))
    .leftJoin(warehouseRecords, and(eq(ledgerShares.kind, 'warehouseRecord'), sql`${warehouseRecords.id} = (${ledgerShares.scope}->>'warehouseRecordId')::uuid`))
    .where(where)
    .orderBy(...orderBy(page.sort, SORTABLE, 'createdAt,desc', ledgerShares.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(toRow);
}

/** One link as the list shows it. */
export async function shareRow(db: Db, id: string, now: Date): Promise<ShareRow | undefined> {
  return (await readRows(db, eq(ledgerShares.id, id), now, { limit: 1, offset: 0 }))[0];
}

/** A page of the links of `orgIds` whose kind is one of `kinds`, newest first unless sorted. */
export async function sharePage(db: Db, q: ShareQuery, orgIds: readonly string[], kinds: readonly ShareKind[], now: Date): Promise<{ rows: ShareRow[]; total: number }> {
  const where = and(
    inOrgs(ledgerShares.orgId, orgIds),
    inArray(ledgerShares.kind, [...kinds]),
    q.kind ? eq(ledgerShares.kind, q.kind) : undefined,
    q.status ? sql`${linkStatusAt<ShareStatus>(ledgerShares, now)} = ${q.status}` : undefined,
  );
  const [rows, [total]] = await Promise.all([readRows(db, where, now, { sort: q.sort, ...limitOffset(q) }), db.select({ n: count() }).from(ledgerShares).where(where)]);
  return { rows, total: Number(total?.n ?? 0) };
}
