// Push rules of the caller's organisation tree: list, create, change, delete, enable and
// disable. A transport task's own rule (task_id set) is kept by the task and is not one of them. The users, roles, policies and levels a rule names belong to its organisation tree.
// Webhook secrets are never read back (MASKED_SECRET); an update that sends the mask back keeps
// the secret stored for the same address.
import { and, count, eq, ilike, inArray, isNull, sql } from 'drizzle-orm';
import { MASKED_SECRET, type PushRuleBody, type PushRuleQuery, type PushRuleRow, type PushStep } from '@iotc/shared/alarm-push';
import type { ErrorCode } from '@iotc/shared/errors';
import type { Page } from '@iotc/shared/envelope';
import type { Db } from '../../db/client.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { alarmLevels, alarmPolicies, orgs, pushRules, roles, users } from '../../db/schema.ts';
import type { ClientMeta } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';

const SORTABLE: Sortable = { name: pushRules.name, createdAt: pushRules.createdAt, updatedAt: pushRules.updatedAt };

const deliveryCount = sql<number>`(select count(*) from deliveries d where d.rule_id = ${pushRules.id})::int`;
const failedCount = sql<number>`(select count(*) from deliveries d where d.rule_id = ${pushRules.id} and d.status = 'failed')::int`;

const masked = (steps: PushStep[]): PushStep[] => steps.map((s) => ({ ...s, webhooks: s.webhooks.map((w) => ({ url: w.url, secret: MASKED_SECRET })) }));

export function pushRuleService(
  db: Db,
  opts: {
    audit: AuditWriter;
    /** Rules changed (the dispatcher reads them again). */
    onChange: () => void;
  },
) {
  const record = successRecorder(opts.audit);

  const select = () =>
    db
      .select({ r: pushRules, orgName: orgs.name, deliveries: deliveryCount, failed: failedCount })
      .from(pushRules)
      .innerJoin(orgs, eq(orgs.id, pushRules.orgId));
  type Selected = Awaited<ReturnType<ReturnType<typeof select>['execute']>>[number];
  const toRow = ({ r, orgName, deliveries, failed }: Selected): PushRuleRow => ({
    id: r.id,
    orgId: r.orgId,
    orgName,
    name: r.name,
    enabled: r.enabled,
    match: r.match as PushRuleRow['match'],
    events: r.events as PushRuleRow['events'],
    language: r.language,
    timezone: r.timezone,
    quietFrom: r.quietFrom,
    quietTo: r.quietTo,
    digestMinutes: r.digestMinutes,
    templates: r.templates as PushRuleRow['templates'],
    steps: masked(r.steps as PushStep[]),
    deliveries: Number(deliveries),
    failed: Number(failed),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  });

  async function visible(caller: Caller, id: string): Promise<Selected> {
    const scope = caller.scope.orgs;
    const [row] = await select().where(and(eq(pushRules.id, id), isNull(pushRules.taskId)));
    if (!row || !scope.includes(row.r.orgId)) throw new AppError(404, 'NOT_FOUND');
    return row;
  }

  /** Users, roles, policies and levels named by the rule belong to its organisation tree. */
  async function check(caller: Caller, orgId: string, body: PushRuleBody) {
    const tree = caller.scope.within(orgId);
    const allKnown = async (ids: string[], table: typeof users | typeof roles | typeof alarmPolicies | typeof alarmLevels, code: ErrorCode) => {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return;
      const [found] = await db.select({ n: count() }).from(table).where(and(inArray(table.id, unique), inOrgs(table.orgId, tree)));
      if (Number(found?.n ?? 0) !== unique.length) throw new AppError(400, code);
    };
    await allKnown(body.steps.flatMap((s) => s.userIds), users, 'PUSH_USER_UNKNOWN');
    await allKnown(body.steps.flatMap((s) => s.roleIds), roles, 'PUSH_ROLE_UNKNOWN');
    await allKnown(body.match.policyIds, alarmPolicies, 'PUSH_POLICY_UNKNOWN');
    await allKnown(body.match.levelIds, alarmLevels, 'ALARM_LEVEL_UNKNOWN');
  }

  /** The steps to store: each masked secret replaced by the one kept for the same address. */
  function withSecrets(steps: PushStep[], before: PushStep[]): PushStep[] {
    const kept = new Map(before.flatMap((s) => s.webhooks.map((w) => [w.url, w.secret] as const)));
    return steps.map((s) => ({
      ...s,
      userIds: [...new Set(s.userIds)],
      roleIds: [...new Set(s.roleIds)],
      webhooks: s.webhooks.map((w) => {
        if (w.secret !== MASKED_SECRET) return w;
        const secret = kept.get(w.url);
        if (!secret) throw new AppError(400, 'WEBHOOK_SECRET_FORMAT');
        return { url: w.url, secret };
      }),
    }));
  }

  const values = (b: PushRuleBody, steps: PushStep[]) => ({
    name: b.name,
    enabled: b.enabled,
    match: { policyIds: [...new Set(b.match.policyIds)], levelIds: [...new Set(b.match.levelIds)], types: [...new Set(b.match.types)] },
    events: b.events,
    language: b.language,
    timezone: b.timezone,
    quietFrom: b.quietFrom,
    quietTo: b.quietTo,
    digestMinutes: b.digestMinutes,
    templates: b.templates,
    steps,
  });

  return {
    async list(caller: Caller, q: PushRuleQuery): Promise<Page<PushRuleRow>> {
      const where = and(
        inOrgs(pushRules.orgId, caller.scope.within(q.orgId)),
        isNull(pushRules.taskId),
        q.keyword ? ilike(pushRules.name, containsPattern(q.keyword)) : undefined,
        q.enabled ? eq(pushRules.enabled, q.enabled === 'true') : undefined,
      );
      const { limit, offset } = limitOffset(q);
      const [rows, [total]] = await Promise.all([
        select()
          .where(where)
          .orderBy(...orderBy(q.sort, SORTABLE, 'updatedAt,desc', pushRules.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(pushRules).where(where),
      ]);
      return toPage(rows.map(toRow), Number(total?.n ?? 0), q);
    },

    async get(caller: Caller, id: string): Promise<PushRuleRow> {
      return toRow(await visible(caller, id));
    },

    async create(caller: Caller, body: PushRuleBody, meta: ClientMeta): Promise<PushRuleRow> {
      const orgId = body.orgId ?? caller.orgId;
      if (!caller.scope.has(orgId)) throw new AppError(404, 'NOT_FOUND');
      await check(caller, orgId, body);
      const row = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(pushRules)
          .values({ orgId, ...values(body, withSecrets(body.steps, [])) })
          .returning({ id: pushRules.id });
        await record(tx, caller, orgId, 'push_rule_create', body.name, meta);
        return made;
      });
      opts.onChange();
      return toRow(await visible(caller, row!.id));
    },

    async update(caller: Caller, id: string, body: PushRuleBody, meta: ClientMeta): Promise<PushRuleRow> {
      const before = await visible(caller, id);
      await check(caller, before.r.orgId, body);
      await db.transaction(async (tx) => {
        await tx
          .update(pushRules)
          .set({ ...values(body, withSecrets(body.steps, before.r.steps as PushStep[])), updatedAt: new Date() })
          .where(eq(pushRules.id, id));
        await record(tx, caller, before.r.orgId, 'push_rule_update', body.name, meta);
      });
      opts.onChange();
      return toRow(await visible(caller, id));
    },

    /** Its deliveries stay in the log (with the rule's name); its escalations end. */
    async remove(caller: Caller, id: string, meta: ClientMeta) {
      const before = await visible(caller, id);
      await db.transaction(async (tx) => {
        await tx.delete(pushRules).where(eq(pushRules.id, id));
        await record(tx, caller, before.r.orgId, 'push_rule_delete', before.r.name, meta);
      });
      opts.onChange();
    },

    /** A disabled rule starts no escalation and sends no further step of running ones. */
    async setEnabled(caller: Caller, id: string, enabled: boolean, meta: ClientMeta): Promise<PushRuleRow> {
      const before = await visible(caller, id);
      await db.transaction(async (tx) => {
        await tx.update(pushRules).set({ enabled, updatedAt: new Date() }).where(eq(pushRules.id, id));
        await record(tx, caller, before.r.orgId, enabled ? 'push_rule_enable' : 'push_rule_disable', before.r.name, meta);
      });
      opts.onChange();
      return toRow(await visible(caller, id));
    },
  };
}
export type PushRuleService = ReturnType<typeof pushRuleService>;
