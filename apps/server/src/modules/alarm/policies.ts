// Alarm policies of the caller's organisation tree: list, create, change, delete, enable and
// disable, copy, and export / import as a JSON file that names levels by code and targets by
// device id or asset kind and code, so that it moves between organisations. A rule that goes
// away (deleted, disabled, its policy disabled or deleted) ends its open alarms as cleared.
import { and, count, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import { ASSET_KINDS } from '@iotc/shared/asset';
import {
  POLICY_FILE_FORMAT,
  policyBodySchema,
  policyFileSchema,
  type AlarmRule,
  type PolicyBody,
  type PolicyQuery,
  type PolicyRow,
} from '@iotc/shared/alarm';
import type { Page } from '@iotc/shared/envelope';
import { isErrorCode } from '@iotc/shared/errors';
import { PATTERNS } from '@iotc/shared/validation';
import type { Lang } from '@iotc/shared/i18n';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/client.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { alarmLevels, alarmPolicies, assets, devices, orgs } from '../../db/schema.ts';
import type { ClientMeta } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import { endAlarmsOf } from './records.ts';
import { checkPlaceRefs } from '../place/repo.ts';

const SORTABLE: Sortable = { name: alarmPolicies.name, createdAt: alarmPolicies.createdAt, updatedAt: alarmPolicies.updatedAt };

const activeAlarms = sql<number>`(select count(*) from alarms a where a.policy_id = ${alarmPolicies.id} and a.status = 'active')::int`;

const COPY_SUFFIX: Record<Lang, string> = { zh: '（副本）', en: ' (copy)' };

/**
 * Open alarms of a policy's rules that no longer run (not among `keep`, or disabled) end as
 * cleared, their states going with them. Also used by the policy a transport task runs.
 */
export async function retireRules(db: Db | Tx, policyId: string, keep: AlarmRule[], actor: string | null): Promise<string[]> {
  const running = new Set(keep.filter((r) => r.enabled).map((r) => r.id));
  return endAlarmsOf(db, policyId, (ruleId) => !running.has(ruleId), actor);
}

export function policyService(
  db: Db,
  opts: {
    audit: AuditWriter;
    /** Policies changed (the engine reloads them); `ended`: alarms ended because their rule stopped. */
    onChange: (ended: string[]) => void;
  },
) {
  const record = successRecorder(opts.audit);

  const select = () =>
    db
      .select({
        id: alarmPolicies.id,
        orgId: alarmPolicies.orgId,
        orgName: orgs.name,
        name: alarmPolicies.name,
        description: alarmPolicies.description,
        enabled: alarmPolicies.enabled,
        scope: alarmPolicies.scope,
        targets: alarmPolicies.targets,
        rules: alarmPolicies.rules,
        activeAlarms,
        createdAt: alarmPolicies.createdAt,
        updatedAt: alarmPolicies.updatedAt,
      })
      .from(alarmPolicies)
      .innerJoin(orgs, eq(orgs.id, alarmPolicies.orgId));
  type Selected = Awaited<ReturnType<ReturnType<typeof select>['execute']>>[number];
  const toRow = (r: Selected): PolicyRow => ({
    ...r,
    rules: r.rules as AlarmRule[],
    activeAlarms: Number(r.activeAlarms),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  });

  async function visible(caller: Caller, id: string): Promise<PolicyRow> {
    const scope = caller.scope.orgs;
    // A transport task's own policy is kept by the task, not here.
    const [row] = await select().where(and(eq(alarmPolicies.id, id), isNull(alarmPolicies.taskId)));
    if (!row || !scope.includes(row.orgId)) throw new AppError(404, 'NOT_FOUND');
    return toRow(row);
  }

  /** Levels of the rules belong to the policy's organisation; targets to its tree. */
  async function check(caller: Caller, orgId: string, body: Pick<PolicyBody, 'scope' | 'targets' | 'rules'>) {
    const levels = await db.select({ id: alarmLevels.id }).from(alarmLevels).where(eq(alarmLevels.orgId, orgId));
    const known = new Set(levels.map((l) => l.id));
    if (body.rules.some((r) => !known.has(r.levelId))) throw new AppError(400, 'ALARM_LEVEL_UNKNOWN');
    await checkPlaceRefs(db, caller, body.rules.flatMap((r) => r.places.map((p) => p.placeId)));
    const ids = [...new Set(body.targets)];
    if (body.scope === 'all' || ids.length === 0) return;
    if (body.scope === 'asset_kinds') {
      if (ids.some((k) => !(ASSET_KINDS as readonly string[]).includes(k))) throw new AppError(400, 'POLICY_TARGET_UNKNOWN');
      return;
    }
    const tree = caller.scope.within(orgId);
    if (ids.some((id) => !PATTERNS.uuid.test(id))) throw new AppError(400, 'POLICY_TARGET_UNKNOWN');
    const table = body.scope === 'devices' ? devices : assets;
    const [found] = await db.select({ n: count() }).from(table).where(and(inArray(table.id, ids), inOrgs(table.orgId, tree)));
    if (Number(found?.n ?? 0) !== ids.length) throw new AppError(400, 'POLICY_TARGET_UNKNOWN');
  }

  const values = (b: PolicyBody) => ({
    name: b.name,
    description: b.description,
    enabled: b.enabled,
    scope: b.scope,
    targets: b.scope === 'all' ? [] : [...new Set(b.targets)],
    rules: b.rules,
  });

  const retire = (q: Db | Tx, policyId: string, keep: AlarmRule[], actor: string) => retireRules(q, policyId, keep, actor);

  async function insert(caller: Caller, orgId: string, body: PolicyBody, meta: ClientMeta, action = 'alarm_policy_create') {
    await check(caller, orgId, body);
    const row = await db.transaction(async (tx) => {
      const [made] = await tx.insert(alarmPolicies).values({ orgId, ...values(body) }).returning({ id: alarmPolicies.id });
      await record(tx, caller, orgId, action, body.name, meta);
      return made;
    });
    opts.onChange([]);
    return row!.id;
  }

  return {
    async list(caller: Caller, q: PolicyQuery): Promise<Page<PolicyRow>> {
      const where = and(
        inOrgs(alarmPolicies.orgId, caller.scope.within(q.orgId)),
        isNull(alarmPolicies.taskId),
        q.keyword ? or(ilike(alarmPolicies.name, containsPattern(q.keyword)), ilike(alarmPolicies.description, containsPattern(q.keyword))) : undefined,
        q.enabled ? eq(alarmPolicies.enabled, q.enabled === 'true') : undefined,
      );
      const { limit, offset } = limitOffset(q);
      const [rows, [total]] = await Promise.all([
        select()
          .where(where)
          .orderBy(...orderBy(q.sort, SORTABLE, 'updatedAt,desc', alarmPolicies.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(alarmPolicies).where(where),
      ]);
      return toPage(rows.map(toRow), Number(total?.n ?? 0), q);
    },

    get: visible,

    async create(caller: Caller, body: PolicyBody, meta: ClientMeta): Promise<PolicyRow> {
      const orgId = body.orgId ?? caller.orgId;
      if (!caller.scope.has(orgId)) throw new AppError(404, 'NOT_FOUND');
      return visible(caller, await insert(caller, orgId, body, meta));
    },

    async update(caller: Caller, id: string, body: PolicyBody, meta: ClientMeta): Promise<PolicyRow> {
      const before = await visible(caller, id);
      await check(caller, before.orgId, body);
      const ended = await db.transaction(async (tx) => {
        await tx
          .update(alarmPolicies)
          .set({ ...values(body), updatedAt: new Date() })
          .where(eq(alarmPolicies.id, id));
        const stopped = await retire(tx, id, body.enabled ? body.rules : [], caller.account);
        await record(tx, caller, before.orgId, 'alarm_policy_update', body.name, meta);
        return stopped;
      });
      opts.onChange(ended);
      return visible(caller, id);
    },

    async setEnabled(caller: Caller, id: string, enabled: boolean, meta: ClientMeta): Promise<PolicyRow> {
      const before = await visible(caller, id);
      const ended = await db.transaction(async (tx) => {
        await tx.update(alarmPolicies).set({ enabled, updatedAt: new Date() }).where(eq(alarmPolicies.id, id));
        const stopped = enabled ? [] : await retire(tx, id, [], caller.account);
        await record(tx, caller, before.orgId, enabled ? 'alarm_policy_enable' : 'alarm_policy_disable', before.name, meta);
        return stopped;
      });
      opts.onChange(ended);
      return visible(caller, id);
    },

    /** A disabled copy, named after the original, in the same organisation. */
    async copy(caller: Caller, id: string, lang: Lang, meta: ClientMeta): Promise<PolicyRow> {
      const p = await visible(caller, id);
      const name = `${p.name}${COPY_SUFFIX[lang]}`.slice(0, 100);
      const body = policyBodySchema.parse({ ...p, name, enabled: false, orgId: undefined });
      return visible(caller, await insert(caller, p.orgId, body, meta, 'alarm_policy_copy'));
    },

    async remove(caller: Caller, id: string, meta: ClientMeta) {
      const before = await visible(caller, id);
      const ended = await db.transaction(async (tx) => {
        const stopped = await retire(tx, id, [], caller.account);
        await tx.delete(alarmPolicies).where(eq(alarmPolicies.id, id));
        await record(tx, caller, before.orgId, 'alarm_policy_delete', before.name, meta);
        return stopped;
      });
      opts.onChange(ended);
    },

    /** The policies (the given ids, or all the caller sees) as the JSON file of POLICY_FILE_FORMAT. */
    async exportFile(caller: Caller, ids: string[] | undefined) {
      const scope = caller.scope.orgs;
      const rows = await select()
        .where(and(inOrgs(alarmPolicies.orgId, scope), isNull(alarmPolicies.taskId), ids?.length ? inArray(alarmPolicies.id, ids) : undefined))
        .orderBy(desc(alarmPolicies.updatedAt));
      const levelCodes = new Map(
        (await db.select({ id: alarmLevels.id, code: alarmLevels.code }).from(alarmLevels).where(inOrgs(alarmLevels.orgId, scope))).map((l) => [l.id, l.code]),
      );
      const targetKeys = await externalKeys(rows.flatMap((r) => (r.scope === 'devices' || r.scope === 'assets' ? r.targets : [])));
      return {
        format: POLICY_FILE_FORMAT,
        exportedAt: new Date().toISOString(),
        policies: rows.map((r) => ({
          name: r.name,
          description: r.description,
          enabled: r.enabled,
          scope: r.scope,
          targets: r.scope === 'devices' || r.scope === 'assets' ? r.targets.map((t) => targetKeys.get(t)).filter((k): k is string => Boolean(k)) : r.targets,
          rules: (r.rules as AlarmRule[]).map(({ levelId, ...rule }) => ({ ...rule, levelCode: levelCodes.get(levelId) ?? '' })),
        })),
      };
    },

    /** Creates the policies of an exported file in the caller's organisation (or `orgId` of its tree): all of them, or with any error none. */
    async importFile(caller: Caller, file: unknown, orgId: string | undefined, meta: ClientMeta): Promise<{ created: number }> {
      const target = orgId ?? caller.orgId;
      const tree = caller.scope.orgs;
      if (!tree.includes(target)) throw new AppError(404, 'NOT_FOUND');
      const parsed = policyFileSchema.safeParse(file);
      if (!parsed.success) {
        // A rule's own error (a threshold out of range) as it is; anything else: not our file.
        const issue = parsed.error.issues[0]!;
        throw new AppError(400, isErrorCode(issue.message) ? issue.message : 'POLICY_FILE_FORMAT', isErrorCode(issue.message) ? undefined : issue.path.join('.'));
      }
      const levels = new Map(
        (await db.select({ id: alarmLevels.id, code: alarmLevels.code }).from(alarmLevels).where(eq(alarmLevels.orgId, target))).map((l) => [l.code, l.id]),
      );
      const subtree = caller.scope.within(target);
      const bodies: PolicyBody[] = [];
      for (const p of parsed.data.policies) {
        const rules = p.rules.map(({ levelCode, ...r }) => {
          const levelId = levels.get(levelCode);
          if (!levelId) throw new AppError(400, 'ALARM_LEVEL_UNKNOWN');
          return { ...r, levelId };
        });
        const targets = p.scope === 'devices' || p.scope === 'assets' ? await internalIds(p.scope, p.targets, subtree) : p.targets;
        bodies.push(policyBodySchema.parse({ ...p, rules, targets, orgId: undefined }));
      }
      for (const b of bodies) await check(caller, target, b);
      await db.transaction(async (tx) => {
        await tx.insert(alarmPolicies).values(bodies.map((b) => ({ orgId: target, ...values(b) })));
        await record(tx, caller, target, 'alarm_policy_import', `+${bodies.length}`, meta);
      });
      opts.onChange([]);
      return { created: bodies.length };
    },
  };

  /** Device ids (IMEI) and `kind:code` of assets for row ids, as a file names them. */
  async function externalKeys(ids: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (ids.length === 0) return out;
    for (const d of await db.select({ id: devices.id, key: devices.deviceId }).from(devices).where(inArray(devices.id, ids))) out.set(d.id, d.key);
    for (const a of await db.select({ id: assets.id, kind: assets.kind, code: assets.code }).from(assets).where(inArray(assets.id, ids))) out.set(a.id, `${a.kind}:${a.code}`);
    return out;
  }

  /** Row ids of the devices or assets a file names, in the organisation tree; any unknown one is an error. */
  async function internalIds(scope: 'devices' | 'assets', keys: string[], tree: string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    if (scope === 'devices') {
      const rows = await db.select({ id: devices.id }).from(devices).where(and(inArray(devices.deviceId, keys), inOrgs(devices.orgId, tree)));
      if (rows.length !== new Set(keys).size) throw new AppError(400, 'POLICY_TARGET_UNKNOWN');
      return rows.map((r) => r.id);
    }
    const ids: string[] = [];
    for (const key of new Set(keys)) {
      const [kind, ...code] = key.split(':');
      const [row] = await db
        .select({ id: assets.id })
        .from(assets)
        .where(and(eq(assets.kind, kind as (typeof ASSET_KINDS)[number]), eq(assets.code, code.join(':')), inOrgs(assets.orgId, tree)));
      if (!row) throw new AppError(400, 'POLICY_TARGET_UNKNOWN');
      ids.push(row.id);
    }
    return ids;
  }
}
export type PolicyService = ReturnType<typeof policyService>;
