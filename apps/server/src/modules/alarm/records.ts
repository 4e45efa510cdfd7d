// Alarm records as the API and the live channel show them (with level, device, asset,
// organisation, the transport task and the work order holding them), their timeline entries, and ending the open alarms of rules that stopped running.
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { ALARM_TYPE_INFO, type AlarmRow, type AlarmType } from '@iotc/shared/alarm';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/client.ts';
import { anyUuid, isoOrNull } from '../../db/list.ts';
import { alarmEvents, alarmLevels, alarmRuleStates, alarms, assets, devices, orgs, transportTasks, users, workOrderAlarms, workOrders } from '../../db/schema.ts';

export type { AlarmEventKind } from '@iotc/shared/alarm';

export function selectAlarms(db: Db) {
  return db
    .select({
      a: alarms,
      orgName: orgs.name,
      level: { id: alarmLevels.id, code: alarmLevels.code, nameZh: alarmLevels.nameZh, nameEn: alarmLevels.nameEn, color: alarmLevels.color, priority: alarmLevels.priority, sound: alarmLevels.sound },
      device: { id: devices.id, deviceId: devices.deviceId, name: devices.name },
      assetId: assets.id,
      assetKind: assets.kind,
      assetCode: assets.code,
      assetName: assets.name,
      taskCode: transportTasks.code,
      assigneeAccount: users.account,
      assigneeName: users.name,
      workOrderId: workOrders.id,
      workOrderCode: workOrders.code,
      workOrderStatus: workOrders.status,
    })
    .from(alarms)
    .innerJoin(orgs, eq(orgs.id, alarms.orgId))
    .innerJoin(alarmLevels, eq(alarmLevels.id, alarms.levelId))
    .innerJoin(devices, eq(devices.id, alarms.deviceRef))
    .leftJoin(assets, eq(assets.id, alarms.assetRef))
    .leftJoin(transportTasks, eq(transportTasks.id, alarms.taskId))
    .leftJoin(users, eq(users.id, alarms.assigneeId))
    // An alarm is in at most one work order (unique alarm_id), so these joins never add rows.
    .leftJoin(workOrderAlarms, eq(workOrderAlarms.alarmId, alarms.id))
    .leftJoin(workOrders, eq(workOrders.id, workOrderAlarms.workOrderId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectAlarms>['execute']>>[number];


export function toAlarmRow(r: Selected): AlarmRow {
  const a = r.a;
  return {
    id: a.id,
    orgId: a.orgId,
    orgName: r.orgName,
    type: a.type as AlarmType,
    status: a.status,
    level: r.level,
    policyId: a.policyId,
    policyName: a.policyName,
    ruleId: a.ruleId,
    device: r.device,
    asset: r.assetId ? { id: r.assetId, kind: r.assetKind!, code: r.assetCode!, name: r.assetName! } : null,
    taskId: a.taskId,
    task: a.taskId && r.taskCode !== null ? { id: a.taskId, code: r.taskCode } : null,
    startedAt: a.startedAt.toISOString(),
    lastAt: a.lastAt.toISOString(),
    endedAt: isoOrNull(a.endedAt),
    lat: a.lat,
    lon: a.lon,
    threshold: a.threshold,
    unit: ALARM_TYPE_INFO[a.type as AlarmType]?.unit ?? '',
    value: a.value,
    peak: a.peak,
    count: a.count,
    acknowledgedAt: isoOrNull(a.acknowledgedAt),
    acknowledgedBy: a.acknowledgedBy,
    closedBy: a.closedBy,
    closeReason: a.closeReason,
    assignee: a.assigneeId ? { id: a.assigneeId, account: r.assigneeAccount!, name: r.assigneeName! } : null,
    workOrder: r.workOrderId ? { id: r.workOrderId, code: r.workOrderCode!, status: r.workOrderStatus! } : null,
    sources: a.sources ?? [],
  };
}

export async function alarmRows(db: Db, where: SQL | undefined): Promise<AlarmRow[]> {
  return (await selectAlarms(db).where(where)).map(toAlarmRow);
}

export async function alarmsByIds(db: Db, ids: string[]): Promise<AlarmRow[]> {
  return ids.length ? alarmRows(db, anyUuid(alarms.id, ids)) : [];
}

/**
 * Ends as cleared the open alarms of a policy's rules that stopped running (the rule deleted or
 * disabled, the policy disabled or deleted) and forgets those rules' states. Answers the ids ended.
 */
export async function endAlarmsOf(db: Db | Tx, policyId: string, retired: (ruleId: string) => boolean, actor: string | null): Promise<string[]> {
  // The open alarms this policy's rules are behind (the first rule's, or one that joined).
  const open = await db
    .select({ id: alarms.id, ruleId: alarms.ruleId, policyId: alarms.policyId, sources: alarms.sources })
    .from(alarms)
    .where(and(eq(alarms.status, 'active'), or(eq(alarms.policyId, policyId), sql`${alarms.sources} @> ${JSON.stringify([{ policyId }])}::jsonb`)));
  const states = await db.select({ ruleId: alarmRuleStates.ruleId }).from(alarmRuleStates).where(eq(alarmRuleStates.policyId, policyId));
  const gone = [...new Set(states.map((s) => s.ruleId).filter(retired))];
  if (gone.length) await db.delete(alarmRuleStates).where(and(eq(alarmRuleStates.policyId, policyId), inArray(alarmRuleStates.ruleId, gone)));
  const now = new Date();
  const ids: string[] = [];
  for (const a of open) {
    const sources = (a.sources ?? []).map((s) => ({ ...s }));
    let hit = false;
    for (const s of sources) {
      if (s.policyId === policyId && retired(s.ruleId) && s.clearedAt === null) {
        s.clearedAt = now.toISOString();
        hit = true;
      }
    }
    if (sources.length === 0) hit = a.policyId === policyId && retired(a.ruleId);
    if (!hit) continue;
    // It ends when no rule is left behind it; else it only forgets this one.
    if (sources.every((s) => s.clearedAt !== null)) {
      await db.update(alarms).set({ status: 'cleared', endedAt: now, sources }).where(eq(alarms.id, a.id));
      ids.push(a.id);
    } else {
      await db.update(alarms).set({ sources }).where(eq(alarms.id, a.id));
    }
  }
  if (ids.length === 0) return [];
  await db.insert(alarmEvents).values(ids.map((alarmId) => ({ alarmId, at: now, kind: 'cleared', actor, detail: { reason: 'rule_stopped' } })));
  return ids;
}
