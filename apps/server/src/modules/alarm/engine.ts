// The real-time alarm engine. Every stored reading is evaluated against the enabled rules of the
// policies that apply to its device (policies of the device's organisation and its ancestors,
// scoped to all devices, the device, its asset or its asset's kind); each rule's state per device
// lives in `alarm_rule_states`, so it survives a restart and several server processes share it:
// the states of a batch's devices are read and written in one transaction holding a lock per
// device (transaction-scoped advisory locks, taken in one order). One alarm per device and rule is
// open while its condition holds; repeats update its last time, peak and count; it is cleared
// when the clear condition holds. A scheduler tick raises the time-based alarms (offline, stay
// timeout) when no report arrives; one node runs each tick (a transaction-scoped advisory lock).
//
// Readings are evaluated after they are stored, in the order batches were stored, one batch at a
// time per process; readings that arrive meanwhile are evaluated together by the next batch.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { ALARM_TYPE_INFO, type AlarmRow, type AlarmRule } from '@iotc/shared/alarm';
import { evaluateRule, evaluateTick, TICKED_KINDS, type RuleEvent, type RuleSample, type RuleState } from '@iotc/shared/alarm-rules';
import type { SensorValues } from '@iotc/shared/sensors';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/seed.ts';
import { CURRENT_BINDING } from '../../db/devices.ts';
import { alarmEvents, alarmPolicies, alarmRuleStates, alarms, deviceBindings, devices, deviceStates, orgs } from '../../db/schema.ts';
import { alarmsByIds } from './records.ts';

/** Advisory lock namespaces (the first key of the two-key form). */
const LOCK_DEVICE = 72_001;
const LOCK_TICK = 72_002;
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
}

interface LivePolicy {
  id: string;
  orgId: string;
  name: string;
  scope: 'all' | 'devices' | 'assets' | 'asset_kinds';
  targets: Set<string>;
  rules: AlarmRule[];
}

interface DeviceMeta {
  id: string;
  orgId: string;
  assetId: string | null;
  assetKind: string | null;
}

type StateKey = string;
const stateKey = (deviceRef: string, policyId: string, ruleId: string): StateKey => `${deviceRef}|${policyId}|${ruleId}`;

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
});

export function alarmEngine(db: Db, opts: { log: FastifyBaseLogger; publish: (rows: AlarmRow[]) => void; now?: () => number }) {
  const now = opts.now ?? (() => Date.now());
  interface Loaded {
    until: number;
    policies: LivePolicy[];
    parents: Map<string, string | null>;
  }
  let cache: Loaded | null = null;
  let loading: Promise<Loaded> | null = null;
  /** Bumped by invalidate(): a read begun before a change is not kept. */
  let generation = 0;

  async function load(): Promise<Loaded> {
    if (cache && cache.until > now()) return cache;
    const started = generation;
    loading ??= (async (): Promise<Loaded> => {
      const [rows, orgRows] = await Promise.all([
        db.select().from(alarmPolicies).where(eq(alarmPolicies.enabled, true)),
        db.select({ id: orgs.id, parentId: orgs.parentId }).from(orgs),
      ]);
      const policies = rows
        .map((p) => ({ id: p.id, orgId: p.orgId, name: p.name, scope: p.scope, targets: new Set(p.targets), rules: (p.rules as AlarmRule[]).filter((r) => r.enabled) }))
        .filter((p) => p.rules.length > 0);
      const loaded: Loaded = { until: now() + POLICY_CACHE_MS, policies, parents: new Map(orgRows.map((o) => [o.id, o.parentId])) };
      if (started === generation) cache = loaded;
      return loaded;
    })().finally(() => (loading = null));
    return loading;
  }

  function applicable(c: Loaded, d: DeviceMeta): LivePolicy[] {
    const chain = new Set<string>();
    for (let o: string | null | undefined = d.orgId; o && !chain.has(o); o = c.parents.get(o)) chain.add(o);
    return c.policies.filter((p) => {
      if (!chain.has(p.orgId)) return false;
      switch (p.scope) {
        case 'all':
          return true;
        case 'devices':
          return p.targets.has(d.id);
        case 'assets':
          return d.assetId !== null && p.targets.has(d.assetId);
        case 'asset_kinds':
          return d.assetKind !== null && p.targets.has(d.assetKind);
      }
    });
  }

  async function lockDevices(tx: Tx, refs: string[]) {
    const sorted = [...refs].sort();
    await tx.execute(sql`select count(pg_advisory_xact_lock(${LOCK_DEVICE}, hashtext(x))) from unnest(${`{${sorted.join(',')}}`}::text[]) as x`);
  }

  async function loadStates(tx: Tx, refs: string[]) {
    const rows = await tx.select().from(alarmRuleStates).where(inArray(alarmRuleStates.deviceRef, refs));
    const map = new Map<StateKey, { state: RuleState; alarmId: string | null }>();
    for (const r of rows) {
      map.set(stateKey(r.deviceRef, r.policyId, r.ruleId), {
        state: { phase: r.phase, since: r.since.getTime(), lastAt: r.lastAt.getTime(), peak: r.peak },
        alarmId: r.alarmId,
      });
    }
    return map;
  }

  /** Writes the changes of one transaction; answers the alarms opened, updated or cleared. */
  async function persist(tx: Tx, changes: Change[], meta: Map<string, DeviceMeta>): Promise<string[]> {
    const touched = new Set<string>();
    const opened: (typeof alarms.$inferInsert)[] = [];
    const events: (typeof alarmEvents.$inferInsert)[] = [];
    const updates: { id: string; lastAt: Date; peak: number | null; repeats: number; lat?: number | null; lon?: number | null; clearedAt: Date | null }[] = [];
    for (const c of changes) {
      let alarmId = c.before.alarmId;
      let update: (typeof updates)[number] | null = null;
      for (const { event, sample } of c.events) {
        if (event.kind === 'open') {
          alarmId = randomUUID();
          const d = meta.get(c.deviceRef)!;
          opened.push({
            id: alarmId,
            orgId: d.orgId,
            policyId: c.policy.id,
            policyName: c.policy.name,
            ruleId: c.rule.id,
            type: c.rule.type,
            levelId: c.rule.levelId,
            deviceRef: c.deviceRef,
            assetRef: d.assetId,
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
          update = null;
        } else if (alarmId) {
          const row = opened.find((o) => o.id === alarmId);
          if (row) {
            // Opened and changed within the batch: change the row before it is inserted.
            row.lastAt = new Date(event.at);
            if (event.kind === 'repeat') {
              row.peak = event.peak;
              row.count = (row.count ?? 1) + 1;
            } else {
              row.status = 'cleared';
              row.endedAt = new Date(event.at);
              events.push({ alarmId, at: new Date(event.at), kind: 'cleared', actor: null, detail: { value: event.value } });
            }
          } else {
            update ??= { id: alarmId, lastAt: new Date(event.at), peak: null, repeats: 0, clearedAt: null };
            update.lastAt = new Date(event.at);
            if (event.kind === 'repeat') {
              update.peak = event.peak;
              update.repeats++;
            } else {
              update.clearedAt = new Date(event.at);
              events.push({ alarmId, at: new Date(event.at), kind: 'cleared', actor: null, detail: { value: event.value } });
            }
          }
          touched.add(alarmId);
        }
      }
      if (update) updates.push(update);
      c.alarmId = c.state ? alarmId : null;
    }

    if (opened.length) await tx.insert(alarms).values(opened);
    for (const u of updates) {
      // Only an open alarm changes (one closed by hand stays as it was closed).
      await tx
        .update(alarms)
        .set({
          lastAt: u.lastAt,
          ...(u.repeats ? { peak: u.peak, count: sql`${alarms.count} + ${u.repeats}` } : {}),
          ...(u.clearedAt ? { status: 'cleared' as const, endedAt: u.clearedAt } : {}),
        })
        .where(and(eq(alarms.id, u.id), eq(alarms.status, 'active')));
    }
    if (events.length) await tx.insert(alarmEvents).values(events);

    const gone = changes.filter((c) => !c.state && c.before.state);
    for (const c of gone) {
      await tx
        .delete(alarmRuleStates)
        .where(and(eq(alarmRuleStates.deviceRef, c.deviceRef), eq(alarmRuleStates.policyId, c.policy.id), eq(alarmRuleStates.ruleId, c.rule.id)));
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

  async function deviceMeta(q: Db | Tx, refs: string[]): Promise<Map<string, DeviceMeta>> {
    const rows = await q
      .select({ id: devices.id, orgId: devices.orgId, assetId: deviceBindings.assetRef, assetKind: deviceBindings.assetKind })
      .from(devices)
      .leftJoin(deviceBindings, CURRENT_BINDING)
      .where(inArray(devices.id, refs));
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
    const meta = await deviceMeta(db, [...byDevice.keys()]);
    const plan = new Map<string, LivePolicy[]>();
    for (const [ref] of byDevice) {
      const d = meta.get(ref);
      const ps = d ? applicable(c, d) : [];
      if (ps.length) plan.set(ref, ps);
    }
    if (plan.size === 0) return [];
    const refs = [...plan.keys()];
    return db.transaction(async (tx) => {
      await lockDevices(tx, refs);
      const states = await loadStates(tx, refs);
      const changes: Change[] = [];
      for (const [ref, ps] of plan) {
        const samples = byDevice
          .get(ref)!
          .map(toSample)
          .sort((a, b) => a.time - b.time);
        for (const p of ps) {
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
      return changes.length ? persist(tx, changes, meta) : [];
    });
  }

  /** The time-based rules at `at`: offline devices and vehicles that stayed too long, without a report. */
  async function tick(at: number = now()): Promise<string[]> {
    const c = await load();
    const timed = c.policies.filter((p) => p.rules.some((r) => TICKED_KINDS.has(ALARM_TYPE_INFO[r.type].kind)));
    if (timed.length === 0) return [];
    return db.transaction(async (tx) => {
      const lease = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${LOCK_TICK}, 0) as ok`);
      if (!(lease as unknown as { rows: { ok: boolean }[] }).rows[0]?.ok) return [];
      // Candidates: devices silent past an offline threshold with no state yet, and every waiting stay.
      const candidates = new Map<string, Set<string>>();
      const add = (ref: string, policyId: string) => (candidates.get(ref) ?? candidates.set(ref, new Set()).get(ref)!).add(policyId);
      for (const p of timed) {
        const offline = p.rules.filter((r) => ALARM_TYPE_INFO[r.type].kind === 'silence');
        if (offline.length === 0) continue;
        const shortest = Math.min(...offline.map((r) => r.threshold));
        const silent = await tx
          .select({ id: deviceStates.deviceRef })
          .from(deviceStates)
          .where(lte(deviceStates.receivedAt, new Date(at - shortest * 1000)));
        for (const s of silent) add(s.id, p.id);
      }
      const waiting = await tx.select({ deviceRef: alarmRuleStates.deviceRef, policyId: alarmRuleStates.policyId }).from(alarmRuleStates).where(eq(alarmRuleStates.phase, 'pending'));
      for (const w of waiting) if (timed.some((p) => p.id === w.policyId)) add(w.deviceRef, w.policyId);
      if (candidates.size === 0) return [];

      const refs = [...candidates.keys()];
      const meta = await deviceMeta(tx, refs);
      const seen = new Map(
        (await tx.select({ id: deviceStates.deviceRef, receivedAt: deviceStates.receivedAt }).from(deviceStates).where(inArray(deviceStates.deviceRef, refs))).map((r) => [
          r.id,
          r.receivedAt.getTime(),
        ]),
      );
      await lockDevices(tx, refs);
      const states = await loadStates(tx, refs);
      const changes: Change[] = [];
      for (const [ref, policyIds] of candidates) {
        const d = meta.get(ref);
        if (!d) continue;
        for (const p of applicable(c, d)) {
          if (!policyIds.has(p.id)) continue;
          for (const rule of p.rules) {
            if (!TICKED_KINDS.has(ALARM_TYPE_INFO[rule.type].kind)) continue;
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
              // A tick confirms nothing: it opens, or moves a peak, never counts a repeat.
              events: out.event && out.event.kind !== 'repeat' ? [{ event: out.event, sample: null }] : [],
            });
          }
        }
      }
      return changes.length ? persist(tx, changes, meta) : [];
    });
  }

  // One batch at a time per process, in the order they were stored.
  let queue: EngineReading[] = [];
  let running: Promise<void> | null = null;
  async function drain() {
    while (queue.length) {
      const batch = queue;
      queue = [];
      try {
        const changed = await evaluate(batch);
        if (changed.length) opts.publish(await alarmsByIds(db, changed));
      } catch (err) {
        opts.log.error({ err, readings: batch.length }, 'alarm evaluation failed');
      }
    }
  }

  return {
    /** Evaluates stored readings (after the batch before them). */
    submit(readings: EngineReading[]) {
      if (readings.length === 0) return;
      queue.push(...readings);
      running ??= drain().finally(() => (running = null));
    },
    /** Resolves when everything submitted so far is evaluated. */
    async settled() {
      while (running) await running;
    },
    /** Runs the scheduler's check now and pushes what changed. */
    async tick(at?: number) {
      const changed = await tick(at);
      if (changed.length) opts.publish(await alarmsByIds(db, changed));
      return changed;
    },
    /** Policies changed: read them again before the next evaluation. */
    invalidate() {
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

