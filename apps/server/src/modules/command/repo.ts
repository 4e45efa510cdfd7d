// The SQL of remote-control commands: rows as the API shows them (organisation, device, requester
// and reviewer names), the story, and the status moves, each conditional on the status it leaves
// so that two reviewers, an acknowledgement and the time-out never both win.
import { alias } from 'drizzle-orm/pg-core';
import { and, asc, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { CommandEventKind, CommandEventRow, CommandFailure, CommandRow, CommandStatus } from '@iotc/shared/command';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/client.ts';
import { isoOrNull } from '../../db/list.ts';
import { commandEvents, commands, devices, orgs, users } from '../../db/schema.ts';

type Q = Db | Tx;

const requesters = alias(users, 'requesters');
const reviewers = alias(users, 'reviewers');

export function selectCommands(q: Q) {
  return q
    .select({
      c: commands,
      orgName: orgs.name,
      deviceId: devices.deviceId,
      deviceName: devices.name,
      requesterName: requesters.name,
      reviewerName: reviewers.name,
    })
    .from(commands)
    .innerJoin(orgs, eq(orgs.id, commands.orgId))
    .innerJoin(devices, eq(devices.id, commands.deviceRef))
    .leftJoin(requesters, eq(requesters.id, commands.requesterId))
    .leftJoin(reviewers, eq(reviewers.id, commands.reviewerId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectCommands>['execute']>>[number];

export function toCommandRow(r: Selected): CommandRow {
  const c = r.c;
  return {
    id: c.id,
    orgId: c.orgId,
    orgName: r.orgName,
    deviceRef: c.deviceRef,
    deviceId: r.deviceId,
    deviceName: r.deviceName,
    kind: c.kind,
    params: c.params as Record<string, unknown>,
    remark: c.remark,
    status: c.status,
    requester: { id: c.requesterId, account: c.requesterAccount, name: r.requesterName ?? c.requesterAccount },
    requestedAt: c.createdAt.toISOString(),
    reviewer: c.reviewerAccount ? { id: c.reviewerId, account: c.reviewerAccount, name: r.reviewerName ?? c.reviewerAccount } : null,
    reviewedAt: isoOrNull(c.reviewedAt),
    reviewReason: c.reviewReason,
    sentAt: isoOrNull(c.sentAt),
    ackAt: isoOrNull(c.ackAt),
    failure: c.failure,
    result: c.result,
    updatedAt: c.updatedAt.toISOString(),
  };
}

export async function commandById(q: Q, id: string): Promise<CommandRow | undefined> {
  const [row] = await selectCommands(q).where(eq(commands.id, id));
  return row ? toCommandRow(row) : undefined;
}

export async function countByStatus(q: Q, where: SQL | undefined): Promise<Record<CommandStatus, number>> {
  const rows = await q.select({ status: commands.status, n: count() }).from(commands).innerJoin(devices, eq(devices.id, commands.deviceRef)).where(where).groupBy(commands.status);
  const out: Record<CommandStatus, number> = { pending_review: 0, rejected: 0, sent: 0, acknowledged: 0, failed: 0, cancelled: 0 };
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}

export async function addEvents(q: Q, commandId: string, actor: string | null, events: { kind: CommandEventKind; detail?: Record<string, unknown>; at?: Date }[]) {
  if (events.length === 0) return;
  await q.insert(commandEvents).values(events.map((e) => ({ commandId, kind: e.kind, actor, detail: e.detail ?? {}, ...(e.at ? { at: e.at } : {}) })));
}

export async function eventsOf(q: Q, commandId: string): Promise<CommandEventRow[]> {
  const rows = await q.select().from(commandEvents).where(eq(commandEvents.commandId, commandId)).orderBy(asc(commandEvents.id));
  return rows.map((r) => ({ id: r.id, at: r.at.toISOString(), kind: r.kind as CommandEventKind, actor: r.actor, detail: r.detail as Record<string, unknown> }));
}

/** Moves a command from `from` with `set`; answers whether it was still in `from`. */
export async function move(q: Q, id: string, from: CommandStatus, set: Partial<typeof commands.$inferInsert>): Promise<boolean> {
  const moved = await q
    .update(commands)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(commands.id, id), eq(commands.status, from)))
    .returning({ id: commands.id });
  return moved.length > 0;
}

/** A sent command fails (the device said no, no acknowledgement in time, or it could not be sent). */
export async function fail(tx: Tx, id: string, failure: CommandFailure, message: string | null, at: Date, ackAt: Date | null = null): Promise<boolean> {
  if (!(await move(tx, id, 'sent', { status: 'failed', failure, result: message, ackAt }))) return false;
  await addEvents(tx, id, null, [{ kind: 'failed', detail: { failure, message }, at }]);
  return true;
}

/** Sent commands whose acknowledgement is overdue at `now`: marked failed with reason `timeout`. */
export async function expireSent(tx: Tx, sentBefore: Date, now: Date): Promise<string[]> {
  const gone = await tx
    .update(commands)
    .set({ status: 'failed', failure: 'timeout', result: 'timeout', updatedAt: now })
    .where(and(eq(commands.status, 'sent'), lt(commands.sentAt, sentBefore)))
    .returning({ id: commands.id });
  if (gone.length) {
    await tx.insert(commandEvents).values(gone.map((g) => ({ commandId: g.id, kind: 'failed', actor: null, at: now, detail: { failure: 'timeout', message: null } })));
  }
  return gone.map((g) => g.id);
}

/** The command with its device's wire id (for the topic), or undefined. */
export async function commandWithDevice(q: Q, id: string) {
  const [row] = await q
    .select({ id: commands.id, status: commands.status, kind: commands.kind, params: commands.params, deviceId: devices.deviceId, protocol: devices.protocol, sentAt: commands.sentAt })
    .from(commands)
    .innerJoin(devices, eq(devices.id, commands.deviceRef))
    .where(eq(commands.id, id));
  return row;
}

/** JT/T 808: the `delivered` event of a command (the frame a node wrote), if any. */
export async function deliveryOf(q: Q, commandId: string) {
  const [row] = await q
    .select({ id: commandEvents.id })
    .from(commandEvents)
    .where(and(eq(commandEvents.commandId, commandId), eq(commandEvents.kind, 'delivered')))
    .limit(1);
  return row;
}

/** JT/T 808: the device's sent command whose delivered frame had this platform serial and message id. */
export async function commandByDelivery(q: Q, deviceRef: string, serial: number, messageId: number): Promise<string | undefined> {
  const [row] = await q
    .select({ id: commands.id })
    .from(commands)
    .innerJoin(commandEvents, and(eq(commandEvents.commandId, commands.id), eq(commandEvents.kind, 'delivered')))
    .where(
      and(
        eq(commands.deviceRef, deviceRef),
        eq(commands.status, 'sent'),
        sql`${commandEvents.detail}->>'serial' = ${String(serial)}`,
        sql`${commandEvents.detail}->>'messageId' = ${String(messageId)}`,
      ),
    )
    .orderBy(desc(commandEvents.id))
    .limit(1);
  return row?.id;
}

/**
 * JT/T 808: the device's sent commands no node has written yet (no `delivered` event) and not
 * yet due for the time-out (sent at or after `sentSince`), oldest first.
 */
export async function undeliveredOf(q: Q, deviceRef: string, sentSince: Date) {
  return q
    .select({ id: commands.id, kind: commands.kind, params: commands.params, sentAt: commands.sentAt })
    .from(commands)
    .where(
      and(
        eq(commands.deviceRef, deviceRef),
        eq(commands.status, 'sent'),
        gte(commands.sentAt, sentSince),
        sql`not exists (select 1 from ${commandEvents} where ${commandEvents.commandId} = ${commands.id} and ${commandEvents.kind} = 'delivered')`,
      ),
    )
    .orderBy(asc(commands.sentAt), asc(commands.id))
    .limit(50);
}

/** Used by where clauses: the device's id or name contains the pattern. */
export const deviceMatches = (pattern: string): SQL => sql`(${devices.deviceId} ilike ${pattern} or ${devices.name} ilike ${pattern})`;
