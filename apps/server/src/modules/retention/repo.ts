// SQL of retention: the organisations and their rules, legal holds, and the removals' record.
import { and, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { LegalHoldBody, LegalHoldKind, LegalHoldQuery, RetentionRemovalQuery } from '@iotc/shared/retention';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { inOrgs, limitOffset } from '../../db/list.ts';
import { devices, legalHolds, orgs, retentionRemovals, retentionRules, transportTasks, users } from '../../db/schema.ts';
import type { OrgNode, Rule, RuleBook } from './rules.ts';

/** Every organisation and rule: the rule book the effective values are worked out from. */
export async function loadRuleBook(db: Executor): Promise<RuleBook & { updatedAt: Map<string, Date> }> {
  const orgRows = rowsOf<{ id: string; parent_id: string | null; code: string; name: string; kind: 'platform' | 'tenant' }>(
    await db.execute(sql`select id, parent_id, code, name, kind from orgs`),
  );
  const ruleRows = rowsOf<{
    org_id: string;
    rows_inherit: boolean;
    rows_days: number | null;
    packs_inherit: boolean;
    packs_days: number | null;
    packs_floor_days: number | null;
    updated_at: Date | string;
  }>(await db.execute(sql`select org_id, rows_inherit, rows_days, packs_inherit, packs_days, packs_floor_days, updated_at from retention_rules`));
  const orgMap = new Map<string, OrgNode>(orgRows.map((o) => [o.id, { id: o.id, parentId: o.parent_id, code: o.code, name: o.name, kind: o.kind }]));
  const rules = new Map<string, Rule>(
    ruleRows.map((r) => [
      r.org_id,
      { orgId: r.org_id, rowsInherit: r.rows_inherit, rowsDays: r.rows_days, packsInherit: r.packs_inherit, packsDays: r.packs_days, packsFloorDays: r.packs_floor_days },
    ]),
  );
  const platform = orgRows.find((o) => o.kind === 'platform' && o.parent_id === null) ?? orgRows.find((o) => o.kind === 'platform');
  return { orgs: orgMap, rules, platformId: platform?.id ?? null, updatedAt: new Map(ruleRows.map((r) => [r.org_id, new Date(r.updated_at)])) };
}

const placer = alias(users, 'placer');
const releaser = alias(users, 'releaser');

export function retentionRepo(db: Db) {
  return {
    loadRuleBook: () => loadRuleBook(db),

    /** q: the transaction the change is audited in. */
    async saveRule(q: Db | Tx, rule: Rule, userId: string): Promise<void> {
      const values = {
        rowsInherit: rule.rowsInherit,
        rowsDays: rule.rowsDays,
        packsInherit: rule.packsInherit,
        packsDays: rule.packsDays,
        packsFloorDays: rule.packsFloorDays,
        updatedAt: new Date(),
        updatedBy: userId,
      };
      await q
        .insert(retentionRules)
        .values({ orgId: rule.orgId, ...values })
        .onConflictDoUpdate({ target: retentionRules.orgId, set: values });
    },

    /** The organisation a hold's subject belongs to, and its name (undefined: no such subject). */
    async subject(kind: LegalHoldKind, id: string): Promise<{ orgId: string; name: string } | undefined> {
      if (kind === 'org') {
        const [o] = await db.select({ orgId: orgs.id, name: orgs.name }).from(orgs).where(eq(orgs.id, id));
        return o;
      }
      if (kind === 'device') {
        const [d] = await db.select({ orgId: devices.orgId, deviceId: devices.deviceId, name: devices.name }).from(devices).where(eq(devices.id, id));
        return d && { orgId: d.orgId, name: `${d.deviceId} ${d.name}` };
      }
      const [t] = await db.select({ orgId: transportTasks.orgId, name: transportTasks.code }).from(transportTasks).where(eq(transportTasks.id, id));
      return t;
    },

    async placeHold(q: Db | Tx, orgId: string, body: LegalHoldBody, userId: string): Promise<string> {
      const [row] = await q
        .insert(legalHolds)
        .values({ orgId, subjectKind: body.subjectKind, subjectId: body.subjectId, reason: body.reason, placedBy: userId })
        .returning({ id: legalHolds.id });
      return row!.id;
    },

    async hold(id: string) {
      const [h] = await db.select().from(legalHolds).where(eq(legalHolds.id, id));
      return h;
    },

    /** Releases a hold still in force; false when it was released meanwhile. */
    async releaseHold(q: Db | Tx, id: string, userId: string): Promise<boolean> {
      const r = await q
        .update(legalHolds)
        .set({ releasedAt: new Date(), releasedBy: userId })
        .where(and(eq(legalHolds.id, id), isNull(legalHolds.releasedAt)))
        .returning({ id: legalHolds.id });
      return r.length > 0;
    },

    async holds(scope: readonly string[], q: LegalHoldQuery) {
      const where: SQL | undefined = and(
        inOrgs(legalHolds.orgId, scope),
        q.state === 'active' ? isNull(legalHolds.releasedAt) : q.state === 'released' ? isNotNull(legalHolds.releasedAt) : undefined,
        q.subjectKind ? eq(legalHolds.subjectKind, q.subjectKind) : undefined,
      );
      const { limit, offset } = limitOffset(q);
      const subjectName = sql<string | null>`case ${legalHolds.subjectKind}
        when 'org' then (select name from orgs s where s.id = ${legalHolds.subjectId})
        when 'device' then (select device_id || ' ' || name from devices s where s.id = ${legalHolds.subjectId})
        else (select code from transport_tasks s where s.id = ${legalHolds.subjectId}) end`;
      const rows = await db
        .select({
          id: legalHolds.id,
          orgId: legalHolds.orgId,
          orgName: orgs.name,
          subjectKind: legalHolds.subjectKind,
          subjectId: legalHolds.subjectId,
          subjectName,
          reason: legalHolds.reason,
          placedAt: legalHolds.placedAt,
          placedBy: placer.account,
          releasedAt: legalHolds.releasedAt,
          releasedBy: releaser.account,
        })
        .from(legalHolds)
        .innerJoin(orgs, eq(orgs.id, legalHolds.orgId))
        .leftJoin(placer, eq(placer.id, legalHolds.placedBy))
        .leftJoin(releaser, eq(releaser.id, legalHolds.releasedBy))
        .where(where)
        .orderBy(sql`${legalHolds.releasedAt} is not null`, desc(legalHolds.placedAt), desc(legalHolds.id))
        .limit(limit)
        .offset(offset);
      const [n] = await db.select({ n: sql<number>`count(*)::int` }).from(legalHolds).where(where);
      return { rows, total: Number(n?.n ?? 0) };
    },

    async removals(scope: readonly string[], q: RetentionRemovalQuery) {
      const where = and(inOrgs(retentionRemovals.orgId, scope), q.what ? eq(retentionRemovals.what, q.what) : undefined);
      const { limit, offset } = limitOffset(q);
      const rows = await db
        .select({
          id: retentionRemovals.id,
          orgId: retentionRemovals.orgId,
          orgName: orgs.name,
          deviceRef: retentionRemovals.deviceRef,
          deviceId: devices.deviceId,
          deviceName: devices.name,
          what: retentionRemovals.what,
          fromTime: retentionRemovals.fromTime,
          toTime: retentionRemovals.toTime,
          readings: retentionRemovals.readings,
          policy: retentionRemovals.policy,
          removedAt: retentionRemovals.removedAt,
        })
        .from(retentionRemovals)
        .leftJoin(orgs, eq(orgs.id, retentionRemovals.orgId))
        .leftJoin(devices, eq(devices.id, retentionRemovals.deviceRef))
        .where(where)
        .orderBy(desc(retentionRemovals.removedAt), desc(retentionRemovals.fromTime), desc(retentionRemovals.id))
        .limit(limit)
        .offset(offset);
      const [n] = await db.select({ n: sql<number>`count(*)::int` }).from(retentionRemovals).where(where);
      return { rows, total: Number(n?.n ?? 0) };
    },
  };
}
export type RetentionRepo = ReturnType<typeof retentionRepo>;
