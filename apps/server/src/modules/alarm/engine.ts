// The real-time alarm engine. Every stored reading is evaluated against the enabled rules of the
// policies that apply to its device (policies of the device's organisation and its ancestors,
// scoped to all devices, the device, its asset or its asset's kind); each rule's state per device
// lives in `alarm_rule_states`, so it survives a restart and several server processes share it.
// A batch is judged once without locks (most readings change nothing and write nothing); the
// devices with a change are then locked (transaction-scoped advisory locks, taken in one order),
// their states read again, judged again and written in that one transaction, so two processes
// never write one device's rule states from the same old state. One alarm per device and rule is
// open while its condition holds; repeats update its last time, peak and count; it is cleared
// when the clear condition holds. A scheduler tick raises the time-based alarms (offline, stay
// timeout) when no report arrives; one node runs each tick (a transaction-scoped advisory lock).
//
// Readings are evaluated after they are stored, in the order batches were stored, one batch at a
// time per process; readings that arrive meanwhile are evaluated together by the next batch.
// Policies, organisations and who each device is (its organisation and asset) are read at most
// every POLICY_CACHE_MS; a change made on this node applies at once, one made on another node
// within that time.
import { randomUUID } from 'node:crypto';
import { and, eq, lte, or, sql } from 'drizzle-orm';
import { ALARM_TYPE_INFO, type AlarmRow, type AlarmRule } from '@iotc/shared/alarm';
import { evaluateRule, evaluateTick, TICKED_KINDS, type RuleEvent, type RuleSample, type RuleState } from '@iotc/shared/alarm-rules';
import type { SensorValues } from '@iotc/shared/sensors';
import { terminalAlarmWord } from '@iotc/shared/terminal-alarms';
import type { FastifyBaseLogger } from 'fastify';
import { LOCKS, xactLockKeys, type Db, type Tx } from '../../db/client.ts';
import { leases, type Lease } from '../../db/lease.ts';
import { CURRENT_BINDING } from '../../db/devices.ts';
import { ancestorChain, anyUuid, isoOrNull } from '../../db/list.ts';
import { alarmLevels, alarmPolicies, alarmRuleStates, alarms, deviceBindings, devices, deviceStates, orgs, type alarmEvents } from '../../db/schema.ts';
import type { AlarmSourceJson } from '../../db/schema.ts';
import { alarmsByIds } from './records.ts';
import { batchQueue } from '../../lib/batch-queue.ts';

/** Advisory lock namespaces (the first key of the two-key form). */
/** Enabled policies are re-read at least this often (other nodes' changes arrive within it). */
const POLICY_CACHE_MS = 5_000;

export interface EngineReading {
  orgId: string;
  deviceRef: string;
  time: Date;
  lat?: number | null;
  lon?: number | null;
  speed?: number | null;
  sensors: unknown;
  /** The report's raw blocks: a JT/T 808 terminal's alarm word is in block `jt808`. */
  raw?: unknown;
}

interface LivePolicy {
  id: string;
  orgId: string;
  name: string;
  scope: 'all' | 'devices' | 'assets' | 'asset_kinds';
  targets: Set<string>;
  rules: AlarmRule[];
  /** The transport task whose policy it is: its alarms carry the task. */
  taskId: string | null;
}

interface DeviceMeta {
  id: string;
  orgId: string;
  assetId: string | null;
  assetKind: string | null;
}

type StateKey = string;
const stateKey = (deviceRef: string, policyId: string, ruleId: string): StateKey => `${deviceRef}|${policyId}|${ruleId}`;

/** An alarm the changes of one transaction may touch, as they leave it. */
interface LiveAlarm {
  id: string;
  deviceRef: string;
  type: string;
  status: 'active' | 'cleared' | 'closed';
  levelId: string;
  taskId: string | null;
  sources: AlarmSourceJson[];
  /** Opened by these changes (not stored yet). */
  fresh: boolean;
  dirty: boolean;
}

interface Change {
  deviceRef: string;
  policy: LivePolicy;
  rule: AlarmRule;
  before: { state: RuleState | null; alarmId: string | null };
  state: RuleState | null;
  alarmId: string | null;
  events: { event: RuleEvent; sample: RuleSample | null }[];
}

const toSample = (r: EngineReading): RuleSample => ({
  time: r.time.getTime(),
  lat: r.lat ?? null,
  lon: r.lon ?? null,
  speed: r.speed ?? null,
  sensors: (r.sensors ?? {}) as SensorValues,
  terminalAlarm: terminalAlarmWord(r.raw),
});

export function alarmEngine(
  db: Db,
  opts: {
    log: FastifyBaseLogger;
    publish: (rows: AlarmRow[]) => void;
    now?: () => number;
    /** Metrics: after a commit, the reading that opened each alarm opened by it. */
    opened?: (readings: EngineReading[]) => void;
    /** The node's leases (the jobs plugin's): the tick runs on one node at a time. */
    lease?: Lease;
  },
) {
  const now = opts.now ?? (() => Date.now());
  const lease = opts.lease ?? leases(db);
  interface Loaded {
    until: number;
    policies: LivePolicy[];
    parents: Map<string, string | null>;
    /** Policies by organisation (scope all or asset kinds), by device and by asset named in them. */
    byOrg: Map<string, LivePolicy[]>;
    byTarget: Map<string, LivePolicy[]>;
  }
  let cache: Loaded | null = null;
  let loading: Promise<Loaded> | null = null;
  /** Bumped by invalidate(): a read begun before a change is not kept. */
  let generation = 0;

  /**
   * The policies in force. A stale read is used while a fresh one is fetched in the background
   * (a reload must not hold up the readings waiting behind it); after invalidate() the next
   * evaluation waits for the fresh read.
   */
  async function load(): Promise<Loaded> {
    if (cache && cache.until > now()) return cache;
    if (cache) {
      void reload().catch((err: unknown) => opts.log.warn({ err }, 'alarm policies reload failed'));
      return cache;
    }
    return reload();
  }

  function reload(): Promise<Loaded> {
    const started = generation;
    loading ??= (async (): Promise<Loaded> => {
      const [rows, orgRows] = await Promise.all([
        db.select().from(alarmPolicies).where(eq(alarmPolicies.enabled, true)),
        db.select({ id: orgs.id, parentId: orgs.parentId }).from(orgs),
      ]);
      const policies = rows
        .map((p) => ({ id: p.id, orgId: p.orgId, name: p.name, scope: p.scope, targets: new Set(p.targets), rules: (p.rules as AlarmRule[]).filter((r) => r.enabled), taskId: p.taskId }))
        .filter((p) => p.rules.length > 0);
      const byOrg = new Map<string, LivePolicy[]>();
      const byTarget = new Map<string, LivePolicy[]>();
      const push = (m: Map<string, LivePolicy[]>, k: string, p: LivePolicy) => (m.get(k) ?? m.set(k, []).get(k)!).push(p);
      for (const p of policies) {
        if (p.scope === 'all' || p.scope === 'asset_kinds') push(byOrg, p.orgId, p);
        else for (const t of p.targets) push(byTarget, t, p);
      }
      const loaded: Loaded = { until: now() + POLICY_CACHE_MS, policies, parents: new Map(orgRows.map((o) => [o.id, o.parentId])), byOrg, byTarget };
      if (started === generation) cache = loaded;
      return loaded;
    })().finally(() => (loading = null));
    return loading;
  }

  /** The policies of the device's organisation and its ancestors that name all devices, it, its asset or its asset's kind. */
  function applicable(c: Loaded, d: DeviceMeta): LivePolicy[] {
    const chain = ancestorChain(c.parents, d.orgId);
    const out: LivePolicy[] = [];
    for (const org of chain) {
      for (const p of c.byOrg.get(org) ?? []) if (p.scope === 'all' || (d.assetKind !== null && p.targets.has(d.assetKind))) out.push(p);
    }
    for (const key of [d.id, d.assetId]) {
      if (key === null) continue;
      for (const p of c.byTarget.get(key) ?? []) if (chain.includes(p.orgId) && (p.scope === 'devices' ? key === d.id : key === d.assetId)) out.push(p);
    }
    return out;
  }

  async function lockDevices(tx: Tx, refs: string[]) {
    await xactLockKeys(tx, LOCKS.alarmDevice, refs);
  }

  async function loadStates(q: Db | Tx, refs: string[]) {
    const rows = await q.select().from(alarmRuleStates).where(anyUuid(alarmRuleStates.deviceRef, refs));
    const map = new Map<StateKey, { state: RuleState; alarmId: string | null }>();
    for (const r of rows) {
      map.set(stateKey(r.deviceRef, r.policyId, r.ruleId), {
        state: { phase: r.phase, since: r.since.getTime(), lastAt: r.lastAt.getTime(), peak: r.peak },
        alarmId: r.alarmId,
      });
    }
    return map;
  }

  /**
   * The alarms the changes may touch: those their rules hold, and the open alarms of the devices
   * where a rule opens (a rule that sees a condition an open alarm of the device already shows
   * joins it), with the priorities of the levels involved.
   */
  async function liveAlarms(tx: Tx, changes: Change[]) {
    const held = [...new Set(changes.map((c) => c.before.alarmId).filter((id): id is string => id !== null))];
    const opening = [...new Set(changes.filter((c) => c.events.some((e) => e.event.kind === 'open')).map((c) => c.deviceRef))];
    const live = new Map<string, LiveAlarm>();
    if (held.length || opening.length) {
      const rows = await tx
        .select({ id: alarms.id, deviceRef: alarms.deviceRef, type: alarms.type, status: alarms.status, levelId: alarms.levelId, taskId: alarms.taskId, sources: alarms.sources })
        .from(alarms)
        .where(or(held.length ? anyUuid(alarms.id, held) : undefined, opening.length ? and(anyUuid(alarms.deviceRef, opening), eq(alarms.status, 'active')) : undefined));
      for (const r of rows) live.set(r.id, { ...r, sources: r.sources ?? [], fresh: false, dirty: false });
    }
    const levelIds = [...new Set([...changes.map((c) => c.rule.levelId), ...[...live.values()].map((a) => a.levelId)])];
    const priority = new Map((await tx.select({ id: alarmLevels.id, priority: alarmLevels.priority }).from(alarmLevels).where(anyUuid(alarmLevels.id, levelIds))).map((l) => [l.id, l.priority]));
    return { live, priority };
  }

  /** Writes the changes of one transaction; answers the alarms opened, updated or cleared. */
  async function persist(tx: Tx, changes: Change[], meta: Map<string, DeviceMeta>): Promise<string[]> {
    const touched = new Set<string>();
    const opened = new Map<string, typeof alarms.$inferInsert>();
    const events: (typeof alarmEvents.$inferInsert)[] = [];
    const updates = new Map<string, { id: string; lastAt: Date; peak: number | null; value?: number | null; repeats: number; clearedAt: Date | null }>();
    const { live, priority } = await liveAlarms(tx, changes);
    // Level priority 1 is the highest; an unknown level counts as the lowest.
    const rank = (levelId: string) => priority.get(levelId) ?? Number.MAX_SAFE_INTEGER;
    const sourceOf = (a: LiveAlarm, c: Change) => a.sources.find((s) => s.policyId === c.policy.id && s.ruleId === c.rule.id);
    // Events go in time order across the rules, so that a rule opening while another rule's alarm of
    // the device is open joins it, and a rule opening after that alarm cleared opens a new one.
    const held = new Map(changes.map((c) => [c, c.before.alarmId]));
    const timeline = changes.flatMap((c, n) => c.events.map((e, i) => ({ c, n, i, ...e }))).sort((x, y) => x.event.at - y.event.at || x.n - y.n || x.i - y.i);
    const clearAlarm = (a: LiveAlarm, at: number, value: number | null) => {
      a.status = 'cleared';
      const row = opened.get(a.id);
      if (row) {
        row.status = 'cleared';
        row.endedAt = new Date(at);
        if (at > (row.lastAt as Date).getTime()) row.lastAt = new Date(at);
      } else {
        const update = updates.get(a.id) ?? { id: a.id, lastAt: new Date(at), peak: null, repeats: 0, clearedAt: null };
        if (at > update.lastAt.getTime()) update.lastAt = new Date(at);
        update.clearedAt = new Date(at);
        updates.set(a.id, update);
      }
      events.push({ alarmId: a.id, at: new Date(at), kind: 'cleared', actor: null, detail: { value } });
    };
    for (const { c, event, sample } of timeline) {
      let alarmId = held.get(c) ?? null;
      if (event.kind === 'open') {
        const at = new Date(event.startedAt).toISOString();
        const source: AlarmSourceJson = { policyId: c.policy.id, policyName: c.policy.name, taskId: c.policy.taskId, ruleId: c.rule.id, levelId: c.rule.levelId, openedAt: at, clearedAt: null };
        const joined = [...live.values()].find((a) => a.deviceRef === c.deviceRef && a.type === c.rule.type && a.status === 'active');
        if (joined) {
          // One alarm per problem: the rule joins the open alarm of the same condition.
          alarmId = joined.id;
          const had = sourceOf(joined, c);
          if (had) had.clearedAt = null;
          else joined.sources.push(source);
          if (rank(c.rule.levelId) < rank(joined.levelId)) joined.levelId = c.rule.levelId;
          joined.taskId ??= c.policy.taskId;
          joined.dirty = true;
          events.push({ alarmId, at: new Date(event.at), kind: 'merged', actor: null, detail: { policyId: c.policy.id, policyName: c.policy.name, ruleId: c.rule.id, value: event.value } });
          touched.add(alarmId);
          held.set(c, alarmId);
          continue;
        }
        alarmId = randomUUID();
        held.set(c, alarmId);
        const d = meta.get(c.deviceRef)!;
        live.set(alarmId, { id: alarmId, deviceRef: c.deviceRef, type: c.rule.type, status: 'active', levelId: c.rule.levelId, taskId: c.policy.taskId, sources: [source], fresh: true, dirty: true });
        opened.set(alarmId, {
          id: alarmId,
          orgId: d.orgId,
          policyId: c.policy.id,
          policyName: c.policy.name,
          ruleId: c.rule.id,
          type: c.rule.type,
          levelId: c.rule.levelId,
          deviceRef: c.deviceRef,
          assetRef: d.assetId,
          taskId: c.policy.taskId,
          status: 'active',
          startedAt: new Date(event.startedAt),
          lastAt: new Date(event.at),
          lat: sample?.lat ?? null,
          lon: sample?.lon ?? null,
          threshold: c.rule.threshold,
          value: event.value,
          peak: event.peak,
          count: 1,
        });
        events.push({ alarmId, at: new Date(event.at), kind: 'created', actor: null, detail: { value: event.value } });
        touched.add(alarmId);
      } else if (alarmId) {
        const a = live.get(alarmId);
        if (event.kind === 'clear') {
          // This rule no longer sees it; the alarm clears when every rule behind it has.
          const mine = a ? sourceOf(a, c) : undefined;
          if (mine) mine.clearedAt = new Date(event.at).toISOString();
          if (a) {
            a.dirty = true;
            if (a.status === 'active' && a.sources.every((s) => s.clearedAt !== null)) clearAlarm(a, event.at, event.value);
          }
          touched.add(alarmId);
          continue;
        }
        const row = opened.get(alarmId);
        if (row) {
          // Opened and changed within the batch: change the row before it is inserted.
          row.lastAt = new Date(event.at);
          if (event.kind === 'repeat') {
            row.peak = event.peak;
            row.count = (row.count ?? 1) + 1;
          } else {
            row.value = event.value;
            row.peak = event.peak;
          }
        } else {
          const update = updates.get(alarmId) ?? { id: alarmId, lastAt: new Date(event.at), peak: null, repeats: 0, clearedAt: null };
          updates.set(alarmId, update);
          if (event.at > update.lastAt.getTime()) update.lastAt = new Date(event.at);
          if (event.kind === 'repeat') {
            update.peak = event.peak;
            update.repeats++;
          } else {
            update.value = event.value;
            update.peak = event.peak;
          }
        }
        touched.add(alarmId);
      }
    }
    for (const c of changes) c.alarmId = c.state ? (held.get(c) ?? null) : null;

    // The merged alarms' sources, levels and tasks.
    const changedSources: LiveAlarm[] = [];
    for (const a of live.values()) {
      if (!a.dirty) continue;
      const row = opened.get(a.id);
      if (row) {
        row.levelId = a.levelId;
        row.taskId = a.taskId;
        row.sources = a.sources;
      } else changedSources.push(a);
    }
    if (changedSources.length) {
      const json = JSON.stringify(changedSources.map((a) => ({ id: a.id, level_id: a.levelId, task_id: a.taskId, sources: a.sources })));
      await tx.execute(sql`update alarms a set level_id = x.level_id, task_id = x.task_id, sources = x.sources
        from jsonb_to_recordset(${json}::jsonb) as x(id uuid, level_id uuid, task_id uuid, sources jsonb)
        where a.id = x.id and a.status = 'active'`);
    }

    // Rows go in as one JSON parameter each: thousands of rows would pass PostgreSQL's 65,535 bound values.
    if (opened.size) {
      const json = JSON.stringify(
        [...opened.values()].map((a) => ({
          id: a.id,
          org_id: a.orgId,
          policy_id: a.policyId,
          policy_name: a.policyName,
          rule_id: a.ruleId,
          type: a.type,
          level_id: a.levelId,
          device_ref: a.deviceRef,
          asset_ref: a.assetRef,
          task_id: a.taskId ?? null,
          status: a.status,
          started_at: isoOrNull(a.startedAt),
          last_at: isoOrNull(a.lastAt),
          ended_at: isoOrNull(a.endedAt),
          lat: a.lat,
          lon: a.lon,
          threshold: a.threshold,
          value: a.value,
          peak: a.peak,
          count: a.count,
          sources: a.sources,
        })),
      );
      await tx.execute(sql`insert into alarms (id, org_id, policy_id, policy_name, rule_id, type, level_id, device_ref, asset_ref, task_id, status, started_at, last_at, ended_at, lat, lon, threshold, value, peak, count, sources)
        select id, org_id, policy_id, policy_name, rule_id, type, level_id, device_ref, asset_ref, task_id, status, started_at, last_at, ended_at, lat, lon, threshold, value, peak, count, sources
        from jsonb_to_recordset(${json}::jsonb) as x(id uuid, org_id uuid, policy_id uuid, policy_name text, rule_id text, type text, level_id uuid, device_ref uuid, asset_ref uuid, task_id uuid,
          status text, started_at timestamptz, last_at timestamptz, ended_at timestamptz, lat float8, lon float8, threshold float8, value float8, peak float8, count int, sources jsonb)`);
    }
    if (updates.size) {
      // Only an open alarm changes (one closed by hand stays as it was closed).
      const json = JSON.stringify(
        [...updates.values()].map((u) => ({ id: u.id, last_at: u.lastAt.toISOString(), peak: u.peak, grows: u.value !== undefined, value: u.value ?? null, repeats: u.repeats, cleared_at: u.clearedAt?.toISOString() ?? null })),
      );
      await tx.execute(sql`update alarms a set
          last_at = x.last_at,
          peak = case when x.repeats > 0 or x.grows then x.peak else a.peak end,
          value = case when x.grows then x.value else a.value end,
          count = a.count + x.repeats,
          status = case when x.cleared_at is not null then 'cleared' else a.status end,
          ended_at = coalesce(x.cleared_at, a.ended_at)
        from jsonb_to_recordset(${json}::jsonb) as x(id uuid, last_at timestamptz, peak float8, grows boolean, value float8, repeats int, cleared_at timestamptz)
        where a.id = x.id and a.status = 'active'`);
    }
    if (events.length) {
      const json = JSON.stringify(events.map((e) => ({ alarm_id: e.alarmId, at: (e.at as Date).toISOString(), kind: e.kind, actor: e.actor ?? null, detail: e.detail ?? {} })));
      await tx.execute(sql`insert into alarm_events (alarm_id, at, kind, actor, detail)
        select alarm_id, at, kind, actor, detail from jsonb_to_recordset(${json}::jsonb) as x(alarm_id uuid, at timestamptz, kind text, actor text, detail jsonb)`);
    }

    const gone = changes.filter((c) => !c.state && c.before.state);
    if (gone.length) {
      const json = JSON.stringify(gone.map((c) => ({ device_ref: c.deviceRef, policy_id: c.policy.id, rule_id: c.rule.id })));
      await tx.execute(sql`delete from alarm_rule_states s using jsonb_to_recordset(${json}::jsonb) as x(device_ref uuid, policy_id uuid, rule_id text)
        where s.device_ref = x.device_ref and s.policy_id = x.policy_id and s.rule_id = x.rule_id`);
    }
    const kept = changes.filter((c) => c.state);
    if (kept.length) {
      const json = JSON.stringify(
        kept.map((c) => ({
          device_ref: c.deviceRef,
          policy_id: c.policy.id,
          rule_id: c.rule.id,
          phase: c.state!.phase,
          since: new Date(c.state!.since).toISOString(),
          last_at: new Date(c.state!.lastAt).toISOString(),
          peak: c.state!.peak,
          alarm_id: c.alarmId,
        })),
      );
      await tx.execute(sql`insert into alarm_rule_states (device_ref, policy_id, rule_id, phase, since, last_at, peak, alarm_id)
        select device_ref, policy_id, rule_id, phase, since, last_at, peak, alarm_id
        from jsonb_to_recordset(${json}::jsonb) as x(device_ref uuid, policy_id uuid, rule_id text, phase text, since timestamptz, last_at timestamptz, peak float8, alarm_id uuid)
        on conflict (device_ref, policy_id, rule_id) do update set phase = excluded.phase, since = excluded.since, last_at = excluded.last_at, peak = excluded.peak, alarm_id = excluded.alarm_id`);
    }
    return [...touched];
  }

  // Who a device is (organisation, asset) changes rarely: kept as long as the policies are.
  const metaCache = new Map<string, { meta: DeviceMeta; until: number }>();
  // Stale entries are used while they are read again in the background, as the policies are.
  let refreshing: Promise<void> | null = null;
  const stale = new Set<string>();
  async function fetchMeta(refs: string[]) {
    const t = now();
    if (metaCache.size > 200_000) metaCache.clear();
    const found = await deviceMeta(db, refs);
    for (const [ref, meta] of found) metaCache.set(ref, { meta, until: t + POLICY_CACHE_MS });
    return found;
  }
  async function cachedMeta(refs: string[]): Promise<Map<string, DeviceMeta>> {
    const out = new Map<string, DeviceMeta>();
    const missing: string[] = [];
    const t = now();
    for (const ref of refs) {
      const hit = metaCache.get(ref);
      if (hit) out.set(ref, hit.meta);
      else missing.push(ref);
      if (hit && hit.until <= t) stale.add(ref);
    }
    if (stale.size && !refreshing) {
      const batch = [...stale];
      stale.clear();
      refreshing = fetchMeta(batch)
        .then(() => undefined, (err: unknown) => opts.log.warn({ err }, 'device identities reload failed'))
        .finally(() => (refreshing = null));
    }
    if (missing.length) for (const [ref, meta] of await fetchMeta(missing)) out.set(ref, meta);
    return out;
  }

  async function deviceMeta(q: Db | Tx, refs: string[]): Promise<Map<string, DeviceMeta>> {
    const rows = await q
      .select({ id: devices.id, orgId: devices.orgId, assetId: deviceBindings.assetRef, assetKind: deviceBindings.assetKind })
      .from(devices)
      .leftJoin(deviceBindings, CURRENT_BINDING)
      .where(anyUuid(devices.id, refs));
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Evaluates stored readings; answers the ids of the alarms that changed. */
  async function evaluate(readings: EngineReading[]): Promise<string[]> {
    const c = await load();
    if (c.policies.length === 0 || readings.length === 0) return [];
    const byDevice = new Map<string, EngineReading[]>();
    for (const r of readings) {
      const list = byDevice.get(r.deviceRef) ?? [];
      list.push(r);
      byDevice.set(r.deviceRef, list);
    }
    const meta = await cachedMeta([...byDevice.keys()]);
    const plan = new Map<string, LivePolicy[]>();
    for (const [ref] of byDevice) {
      const d = meta.get(ref);
      const ps = d ? applicable(c, d) : [];
      if (ps.length) plan.set(ref, ps);
    }
    if (plan.size === 0) return [];

    // Which reading each sample came from, for `opened` only.
    const readingOf = opts.opened ? new Map<RuleSample, EngineReading>() : null;
    const sampleOf = (r: EngineReading) => {
      const s = toSample(r);
      readingOf?.set(s, r);
      return s;
    };
    const judge = (states: Awaited<ReturnType<typeof loadStates>>, refs: Iterable<string>) => {
      const changes: Change[] = [];
      for (const ref of refs) {
        const samples = byDevice
          .get(ref)!
          .map(sampleOf)
          .sort((a, b) => a.time - b.time);
        for (const p of plan.get(ref)!) {
          for (const rule of p.rules) {
            const kept = states.get(stateKey(ref, p.id, rule.id));
            const change: Change = { deviceRef: ref, policy: p, rule, before: { state: kept?.state ?? null, alarmId: kept?.alarmId ?? null }, state: kept?.state ?? null, alarmId: kept?.alarmId ?? null, events: [] };
            for (const s of samples) {
              const out = evaluateRule(rule, change.state, s);
              change.state = out.state;
              if (out.event) change.events.push({ event: out.event, sample: s });
            }
            if (change.events.length || !sameState(change.before.state, change.state)) changes.push(change);
          }
        }
      }
      return changes;
    };

    // Optimistic first pass without locks: most readings change nothing (no rule waiting or
    // firing) and need no write. Only the devices with a change are locked, read again and
    // judged again under the lock, which is what is written.
    const first = judge(await loadStates(db, [...plan.keys()]), plan.keys());
    if (first.length === 0) return [];
    const refs = [...new Set(first.map((c) => c.deviceRef))];
    let written: Change[] = [];
    const touched = await db.transaction(async (tx) => {
      await lockDevices(tx, refs);
      const changes = judge(await loadStates(tx, refs), refs);
      written = changes;
      return changes.length ? persist(tx, changes, meta) : [];
    });
    if (readingOf) {
      const opening = written.flatMap((c) => c.events.filter((e) => e.event.kind === 'open' && e.sample).map((e) => readingOf.get(e.sample!)!));
      if (opening.length) opts.opened!(opening);
    }
    return touched;
  }

  /** The time-based rules at `at`: offline devices and vehicles that stayed too long, without a report. */
  async function tick(at: number = now()): Promise<string[]> {
    const c = await load();
    const timed = c.policies.filter((p) => p.rules.some((r) => TICKED_KINDS.has(ALARM_TYPE_INFO[r.type].kind)));
    if (timed.length === 0) return [];
    return lease('alarm tick', async (tx) => {
      // Candidates: devices silent past the shortest offline threshold (one read for all policies),
      // and the devices of every waiting rule of a policy with time-based rules (a stay).
      const offline = timed.flatMap((p) => p.rules.filter((r) => ALARM_TYPE_INFO[r.type].kind === 'silence'));
      const withOffline = new Set(timed.filter((p) => p.rules.some((r) => ALARM_TYPE_INFO[r.type].kind === 'silence')).map((p) => p.id));
      const silent = new Set<string>();
      if (offline.length) {
        const shortest = Math.min(...offline.map((r) => r.threshold));
        const rows = await tx.select({ id: deviceStates.deviceRef }).from(deviceStates).where(lte(deviceStates.receivedAt, new Date(at - shortest * 1000)));
        for (const r of rows) silent.add(r.id);
      }
      const timedIds = new Set(timed.map((p) => p.id));
      const waiting = new Map<string, Set<string>>();
      for (const w of await tx.select({ deviceRef: alarmRuleStates.deviceRef, policyId: alarmRuleStates.policyId }).from(alarmRuleStates).where(eq(alarmRuleStates.phase, 'pending'))) {
        if (timedIds.has(w.policyId)) (waiting.get(w.deviceRef) ?? waiting.set(w.deviceRef, new Set()).get(w.deviceRef)!).add(w.policyId);
      }
      const refs = [...new Set([...silent, ...waiting.keys()])];
      if (refs.length === 0) return [];

      const meta = await deviceMeta(tx, refs);
      const seen = new Map(
        (await tx.select({ id: deviceStates.deviceRef, receivedAt: deviceStates.receivedAt }).from(deviceStates).where(anyUuid(deviceStates.deviceRef, refs))).map((r) => [
          r.id,
          r.receivedAt.getTime(),
        ]),
      );
      await lockDevices(tx, refs);
      const states = await loadStates(tx, refs);
      const changes: Change[] = [];
      for (const ref of refs) {
        const d = meta.get(ref);
        if (!d) continue;
        for (const p of applicable(c, d)) {
          if (!timedIds.has(p.id)) continue;
          for (const rule of p.rules) {
            const kind = ALARM_TYPE_INFO[rule.type].kind;
            // A silent device, for the time-based rules of its policies with an offline rule; a
            // waiting stay, for its policy's.
            const due = (silent.has(ref) && withOffline.has(p.id)) || (kind === 'stay' && waiting.get(ref)?.has(p.id));
            if (!TICKED_KINDS.has(kind) || !due) continue;
            const kept = states.get(stateKey(ref, p.id, rule.id));
            const out = evaluateTick(rule, kept?.state ?? null, at, seen.get(ref) ?? null);
            if (!out.event && sameState(kept?.state ?? null, out.state)) continue;
            changes.push({
              deviceRef: ref,
              policy: p,
              rule,
              before: { state: kept?.state ?? null, alarmId: kept?.alarmId ?? null },
              state: out.state,
              alarmId: kept?.alarmId ?? null,
              // A tick confirms nothing: it opens, or lets an open silence or stay grow, never counts a repeat.
              events: out.event && out.event.kind !== 'repeat' ? [{ event: out.event, sample: null }] : [],
            });
          }
        }
      }
      return changes.length ? persist(tx, changes, meta) : [];
    }, []);
  }

  // One batch at a time per process, in the order they were stored.
  const batches = batchQueue<EngineReading>(
    async (batch) => {
      const changed = await evaluate(batch);
      if (changed.length) opts.publish(await alarmsByIds(db, changed));
    },
    (err, size) => opts.log.error({ err, readings: size }, 'alarm evaluation failed'),
  );

  return {
    /** Evaluates stored readings (after the batch before them). */
    submit(readings: EngineReading[]) {
      batches.push(readings);
    },
    /** Resolves when everything submitted so far is evaluated. */
    settled: () => batches.settled(),
    /** Runs the scheduler's check now and pushes what changed. */
    async tick(at?: number) {
      const changed = await tick(at);
      if (changed.length) opts.publish(await alarmsByIds(db, changed));
      return changed;
    },
    /** Policies changed: read them again before the next evaluation. */
    invalidate() {
      metaCache.clear();
      generation++;
      cache = null;
      loading = null;
    },
  };
}
export type AlarmEngine = ReturnType<typeof alarmEngine>;

function sameState(a: RuleState | null, b: RuleState | null): boolean {
  if (a === null || b === null) return a === b;
  return a.phase === b.phase && a.since === b.since && a.lastAt === b.lastAt && a.peak === b.peak;
}

