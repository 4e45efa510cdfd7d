// Retention rules, legal holds and the removals' record, within the caller's organisation tree:
// an organisation's administrators set the rules of their tree and place and release holds on
// its organisations, devices and tasks; the platform organisation's rule (the default of every
// tree) and the floor are the platform administrator's. Changes are audited.
import type { Page } from '@iotc/shared/envelope';
import type {
  LegalHoldBody,
  LegalHoldQuery,
  LegalHoldRow,
  RetentionRemovalQuery,
  RetentionRemovalRow,
  RetentionRuleBody,
  RetentionTree,
} from '@iotc/shared/retention';
import { AppError } from '../../lib/errors.ts';
import { isoOrNull, toPage } from '../../db/list.ts';
import type { Db } from '../../db/client.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ClientMeta } from '../../lib/caller.ts';
import { successRecorder } from '../audit/service.ts';
import type { AuditWriter } from '../audit/repo.ts';
import type { RetentionRepo } from './repo.ts';
import { effectiveOf, floorOf, type Rule } from './rules.ts';

const words = (inherit: boolean, days: number | null) => (inherit ? 'inherit' : days === null ? 'forever' : `${days} days`);

export function retentionService(db: Db, repo: RetentionRepo, audit: AuditWriter) {
  const record = successRecorder(audit);
  const scopeOf = (caller: Caller) => caller.scope.orgs;

  return {
    /** The caller's organisation and its descendants, each with its own settings and effective values. */
    async tree(caller: Caller): Promise<RetentionTree> {
      const scope = await scopeOf(caller);
      const book = await repo.loadRuleBook();
      const inScope = new Set(scope);
      // Parents before children: walk down from the caller's organisation.
      const children = new Map<string, string[]>();
      for (const o of book.orgs.values()) {
        if (o.parentId && inScope.has(o.id)) children.set(o.parentId, [...(children.get(o.parentId) ?? []), o.id]);
      }
      const ordered: string[] = [];
      const visit = (id: string) => {
        ordered.push(id);
        const kids = (children.get(id) ?? []).sort((a, b) => book.orgs.get(a)!.name.localeCompare(book.orgs.get(b)!.name));
        kids.forEach(visit);
      };
      visit(caller.orgId);
      return {
        orgs: ordered.map((id) => {
          const o = book.orgs.get(id)!;
          const r = book.rules.get(id);
          const eff = effectiveOf(book, id);
          return {
            orgId: id,
            parentId: id === caller.orgId ? null : o.parentId,
            code: o.code,
            name: o.name,
            kind: o.kind,
            own: {
              rowsInherit: r?.rowsInherit ?? true,
              rowsDays: r?.rowsDays ?? null,
              packsInherit: r?.packsInherit ?? true,
              packsDays: r?.packsDays ?? null,
              packsFloorDays: o.kind === 'platform' ? (r?.packsFloorDays ?? null) : null,
              updatedAt: isoOrNull(book.updatedAt.get(id)),
            },
            rows: eff.rows,
            packs: eff.packs,
          };
        }),
        floorDays: floorOf(book),
        platformAdmin: caller.isPlatformAdmin,
      };
    },

    async saveRule(caller: Caller, orgId: string, body: RetentionRuleBody, meta: ClientMeta): Promise<void> {
      const scope = await scopeOf(caller);
      if (!scope.includes(orgId)) throw new AppError(404, 'NOT_FOUND');
      const book = await repo.loadRuleBook();
      const org = book.orgs.get(orgId)!;
      const isPlatform = orgId === book.platformId;
      const before = book.rules.get(orgId);
      if (isPlatform && !caller.isPlatformAdmin) throw new AppError(403, 'RETENTION_FLOOR_PLATFORM_ONLY');
      if (!isPlatform && body.packsFloorDays != null) throw new AppError(403, 'RETENTION_FLOOR_PLATFORM_ONLY');
      const rule: Rule = {
        orgId,
        rowsInherit: body.rowsInherit,
        rowsDays: body.rowsInherit ? null : body.rowsDays,
        packsInherit: body.packsInherit,
        packsDays: body.packsInherit ? null : body.packsDays,
        packsFloorDays: isPlatform ? (body.packsFloorDays === undefined ? (before?.packsFloorDays ?? null) : body.packsFloorDays) : null,
      };
      // The floor in force after this change (the platform's own row may be changing it).
      const floor = isPlatform ? rule.packsFloorDays : floorOf(book);
      if (!rule.packsInherit && rule.packsDays !== null && floor !== null && rule.packsDays < floor) {
        throw new AppError(400, 'RETENTION_BELOW_FLOOR', { en: `(floor: ${floor} days)`, zh: `（下限：${floor} 天）` });
      }
      const rules = new Map(book.rules);
      rules.set(orgId, rule);
      const eff = effectiveOf({ ...book, rules }, orgId);
      if (eff.rows.days === null ? eff.packs.days !== null : eff.packs.days !== null && eff.rows.days > eff.packs.days) {
        const f = (d: number | null) => (d === null ? { en: 'forever', zh: '永久' } : { en: `${d} days`, zh: `${d} 天` });
        throw new AppError(400, 'RETENTION_ROWS_OVER_PACKS', {
          en: `(rows: ${f(eff.rows.days).en}, packs: ${f(eff.packs.days).en})`,
          zh: `（明细：${f(eff.rows.days).zh}，归档：${f(eff.packs.days).zh}）`,
        });
      }
      const floorText = isPlatform ? ` floor ${rule.packsFloorDays === null ? 'none' : `${rule.packsFloorDays} days`}` : '';
      await db.transaction(async (tx) => {
        await repo.saveRule(tx, rule, caller.userId);
        await record(tx, caller, orgId, 'retention_rule_update', `${org.name}: rows ${words(rule.rowsInherit, rule.rowsDays)} packs ${words(rule.packsInherit, rule.packsDays)}${floorText}`, meta);
      });
    },

    async holds(caller: Caller, q: LegalHoldQuery): Promise<Page<LegalHoldRow>> {
      const { rows, total } = await repo.holds(await scopeOf(caller), q);
      return toPage(
        rows.map((r) => ({ ...r, placedAt: r.placedAt.toISOString(), releasedAt: isoOrNull(r.releasedAt) })),
        total,
        q,
      );
    },

    /**
     * A hold on an organisation, device or task of the caller's tree. It belongs to the caller's
     * organisation: its users and those above see and release it, not the subject's own (a
     * sub-organisation cannot lift a hold its parent placed on it).
     */
    async placeHold(caller: Caller, body: LegalHoldBody, meta: ClientMeta): Promise<{ id: string }> {
      const subject = await repo.subject(body.subjectKind, body.subjectId);
      if (!subject || !(await scopeOf(caller)).includes(subject.orgId)) throw new AppError(404, 'NOT_FOUND');
      const id = await db.transaction(async (tx) => {
        const made = await repo.placeHold(tx, caller.orgId, body, caller.userId);
        await record(tx, caller, caller.orgId, 'legal_hold_place', `${body.subjectKind} ${subject.name}: ${body.reason}`, meta);
        return made;
      });
      return { id };
    },

    async releaseHold(caller: Caller, id: string, meta: ClientMeta): Promise<void> {
      const hold = await repo.hold(id);
      if (!hold || !(await scopeOf(caller)).includes(hold.orgId)) throw new AppError(404, 'NOT_FOUND');
      if (hold.releasedAt) throw new AppError(409, 'HOLD_RELEASED');
      const subject = await repo.subject(hold.subjectKind, hold.subjectId);
      await db.transaction(async (tx) => {
        if (!(await repo.releaseHold(tx, id, caller.userId))) throw new AppError(409, 'HOLD_RELEASED');
        await record(tx, caller, hold.orgId, 'legal_hold_release', `${hold.subjectKind} ${subject?.name ?? hold.subjectId}: ${hold.reason}`, meta);
      });
    },

    async removals(caller: Caller, q: RetentionRemovalQuery): Promise<Page<RetentionRemovalRow>> {
      const { rows, total } = await repo.removals(await scopeOf(caller), q);
      return toPage(
        rows.map((r) => ({
          ...r,
          readings: Number(r.readings),
          fromTime: r.fromTime.toISOString(),
          toTime: r.toTime.toISOString(),
          removedAt: r.removedAt.toISOString(),
        })),
        total,
        q,
      );
    },
  };
}
export type RetentionService = ReturnType<typeof retentionService>;
