// The budget alarms of live batches (issue 27 item 3): every PRODUCT_BUDGET_SECONDS, on one node
// (the 'product budgets' lease), each live batch's budget is computed again (budget.ts) and stored
// for the lists, and an alarm is raised once for each of: a budget's alert share crossed
// (`above:alert`, `below:alert`), a budget exhausted (`above:exhausted`, `below:exhausted`), the
// absolute max or min crossed. product_batches.raised remembers what was raised, so each is raised
// once (changing a batch's profile starts afresh).
//
// Why alarm rows (and not the inbox's notices): an alarm is what the push rules deliver (to the
// inbox, mail, SMS, webhooks), what the alarm screens list, acknowledge and close, and what the
// shipment report counts. A budget alarm is an alarm of type temp_high (time above, absolute max)
// or temp_low (time below, absolute min) on the device that gave the most minutes of that kind
// (for an absolute limit, the device of the extreme reading), with the batch number and profile
// as its policy name, the rule id naming the budget key, the limit as its threshold and the
// extreme reading as its value. It has no policy: it stays active until someone closes it.
//
// A batch is live when it has a profile (its own, or a task's that carries it: service.ts) and a task of it is under way or ended within a day, or
// some of it is in stock (approved in − out > 0), or a warehouse record of it is from the last day.
import { sql } from 'drizzle-orm';
import { budgetAlarmKeys, type BudgetAlarmKey } from '@iotc/shared/excursion-budget';
import { rowsOf, type Tx } from '../../db/client.ts';
import { alarmEvents, alarmLevels, alarms, productBatches, productProfiles } from '../../db/schema.ts';
import { and, asc, eq } from 'drizzle-orm';
import { budgetProfileOf, taskProfilesOf } from './service.ts';
import { computeBudget } from './budget.ts';

const DAY_MS = 86_400_000;

interface LiveBatch {
  id: string;
  org_id: string;
  batch_no: string;
}

async function liveBatches(tx: Tx, now: number): Promise<LiveBatch[]> {
  const since = new Date(now - DAY_MS).toISOString();
  return rowsOf<LiveBatch>(
    await tx.execute(sql`select b.id, b.org_id, b.batch_no from product_batches b
      where (b.profile_id is not null or exists (select 1 from product_batch_tasks bt join product_task_profiles tp on tp.task_id = bt.task_id where bt.batch_id = b.id)) and (
        exists (select 1 from product_batch_tasks bt join transport_tasks t on t.id = bt.task_id
          where bt.batch_id = b.id and t.started_at is not null
            and (t.status in ('in_transit', 'arrived') or coalesce(t.completed_at, t.arrived_at, t.cancelled_at) > ${since}::timestamptz))
        or (select coalesce(sum(case when w.direction = 'in' then w.quantity else -w.quantity end), 0) from warehouse_records w
          where w.org_id = b.org_id and w.batch_no = b.batch_no and w.audit_status = 'approved') > 0
        or exists (select 1 from warehouse_records w where w.org_id = b.org_id and w.batch_no = b.batch_no and w.audit_status = 'approved' and w.time > ${since}::timestamptz)
      )
      order by b.id`),
  );
}

/** One round: answers the ids of the alarms raised (the caller publishes them once the round commits). */
export async function budgetAlarmTick(tx: Tx, now = Date.now()): Promise<string[]> {
  const raisedIds: string[] = [];
  const live = await liveBatches(tx, now);
  const fromTasks = await taskProfilesOf(tx, live.map((l) => l.id));
  for (const l of live) {
    const [row] = await tx.select({ b: productBatches, p: productProfiles }).from(productBatches).leftJoin(productProfiles, eq(productProfiles.id, productBatches.profileId)).where(eq(productBatches.id, l.id));
    const p = row?.p ?? fromTasks.get(l.id);
    if (!row || !p) continue;
    const { b } = row;
    const profile = budgetProfileOf(p);
    const c = await computeBudget(tx, b, profile, now);
    const raised = { ...(b.raised ?? {}) };
    const fresh = budgetAlarmKeys(c.use).filter((k) => !raised[k]);
    const at = new Date(now);
    for (const key of fresh) {
      const id = await raise(tx, b, p.name, key, c, profile, at);
      raised[key] = at.toISOString();
      if (id) raisedIds.push(id);
    }
    await tx
      .update(productBatches)
      .set({ raised, used: c.budget as unknown as Record<string, unknown>, computedAt: at })
      .where(eq(productBatches.id, b.id));
  }
  return raisedIds;
}

async function levelFor(tx: Tx, orgId: string, key: BudgetAlarmKey): Promise<string | null> {
  const wanted = key.endsWith(':alert') ? 'important' : 'urgent';
  const levels = await tx.select({ id: alarmLevels.id, code: alarmLevels.code }).from(alarmLevels).where(and(eq(alarmLevels.orgId, orgId))).orderBy(asc(alarmLevels.priority));
  return (levels.find((l) => l.code === wanted) ?? levels[0])?.id ?? null;
}

async function raise(
  tx: Tx,
  b: typeof productBatches.$inferSelect,
  profileName: string,
  key: BudgetAlarmKey,
  c: Awaited<ReturnType<typeof computeBudget>>,
  profile: ReturnType<typeof budgetProfileOf>,
  at: Date,
): Promise<string | null> {
  const high = key.startsWith('above') || key === 'absoluteMax';
  const extreme = high ? c.use.absoluteMax.extreme : c.use.absoluteMin.extreme;
  const device = key.startsWith('above') ? c.use.above.device : key.startsWith('below') ? c.use.below.device : (extreme?.device ?? null);
  const deviceRef = device ? c.deviceRefs.get(device) : undefined;
  const levelId = await levelFor(tx, b.orgId, key);
  // No device (no reading gave the minutes) or no level: remembered as raised, nothing to show it on.
  if (!deviceRef || !levelId) return null;
  const threshold = key === 'absoluteMax' ? profile.absoluteMaxC : key === 'absoluteMin' ? (profile.absoluteMinC ?? profile.lowC) : high ? profile.highC : profile.lowC;
  const ruleId = `budget-${key.replace(':', '-')}`;
  const policyName = `${b.batchNo} · ${profileName}`;
  const [a] = await tx
    .insert(alarms)
    .values({
      orgId: b.orgId,
      policyId: null,
      policyName,
      ruleId,
      type: high ? 'temp_high' : 'temp_low',
      levelId,
      deviceRef,
      status: 'active',
      startedAt: at,
      lastAt: at,
      threshold,
      value: extreme?.value ?? null,
      peak: extreme?.value ?? null,
      sources: [{ policyId: null, policyName, taskId: null, ruleId, levelId, openedAt: at.toISOString(), clearedAt: null }],
    })
    .returning({ id: alarms.id });
  await tx.insert(alarmEvents).values({ alarmId: a!.id, at, kind: 'created', actor: null, detail: { batchId: b.id, batchNo: b.batchNo, budget: key, above: c.budget.above, below: c.budget.below } });
  return a!.id;
}
