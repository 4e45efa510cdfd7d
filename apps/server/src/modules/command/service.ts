// Remote control of the caller's organisation tree: the query with its per-status counts, one
// command and its story, export, and the steps: request (a device of the tree), cancel (the
// requester, while pending), review (someone else: approve sends it at once, reject needs a
// reason). The device link (ingest/mqtt.ts) is attached from outside: the service hands it
// commands to publish and takes the devices' acknowledgements; sent commands nobody
// acknowledges within the time-out fail, checked by one node at a time.
import { and, count, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  commandAckSchema,
  commandTopic,
  type CommandEventRow,
  type CommandKind,
  type CommandMessage,
  type CommandPage,
  type CommandQuery,
  type CommandRequest,
  type CommandReview,
  type CommandRow,
  type CommandStatus,
  commandKindsFor,
} from '@iotc/shared/command';
import type { Lang } from '@iotc/shared/i18n';
import { MAX_EXPORT_ROWS, type ExportFormat } from '@iotc/shared/list';
import type { Db } from '../../db/client.ts';
import { leases, type Lease } from '../../db/lease.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { commands, devices } from '../../db/schema.ts';
import { exportRows, type ExportFile } from '../../lib/export.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import { DEFAULT_MEANING } from '@iotc/shared/signature';
import type { SignatureService } from '../signature/service.ts';
import { writeAudit } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import { addEvents, commandByDelivery, commandById, commandWithDevice, countByStatus, deliveryOf, deviceMatches, eventsOf, expireSent, fail, move, selectCommands, toCommandRow, undeliveredOf } from './repo.ts';

/**
 * What publishes a command to a device: the MQTT link (embedded broker or external one) for JSON
 * devices, the JT/T 808 downlink (modules/jt808/downlink.ts, through the live event bus to the
 * node holding the terminal's connection) for jt808 ones.
 */
export type CommandChannel = 'mqtt' | 'jt808';

/** A JT/T 808 terminal's answer to a command frame the platform wrote (0x0001, or 0x0201 to a position query). */
export interface WireAnswer {
  /** Platform serial and message id the terminal answers. */
  serial: number;
  messageId: number;
  ok: boolean;
  message: string | null;
}

export interface CommandSender {
  /** Publishes `message` (JSON text) on the device's command topic, QoS 1; rejects when it could not. */
  sendCommand(deviceId: string, message: string): Promise<void>;
}

const SORTABLE: Sortable = { requestedAt: commands.createdAt, updatedAt: commands.updatedAt, sentAt: commands.sentAt };

const STATUS_NAMES: Record<CommandStatus, { zh: string; en: string }> = {
  pending_review: { zh: '待审核', en: 'Pending review' },
  rejected: { zh: '已驳回', en: 'Rejected' },
  sent: { zh: '已下发', en: 'Sent' },
  acknowledged: { zh: '已确认', en: 'Acknowledged' },
  failed: { zh: '失败', en: 'Failed' },
  cancelled: { zh: '已撤销', en: 'Cancelled' },
};
const KIND_NAMES: Record<CommandKind, { zh: string; en: string }> = {
  report_interval: { zh: '设置上报间隔', en: 'Set report interval' },
  set_point: { zh: '设置温度设定值', en: 'Set temperature set point' },
  lock: { zh: '上锁', en: 'Lock' },
  unlock: { zh: '解锁', en: 'Unlock' },
  reboot: { zh: '重启', en: 'Reboot' },
  custom: { zh: '自定义指令', en: 'Custom command' },
  position_query: { zh: '位置查询', en: 'Position query' },
  text_message: { zh: '文本信息下发', en: 'Text message' },
  terminal_control: { zh: '终端控制', en: 'Terminal control' },
};
const CONTROL_NAMES: Record<string, { zh: string; en: string }> = {
  power_off: { zh: '关机', en: 'Power off' },
  reset: { zh: '复位', en: 'Reset' },
  factory_reset: { zh: '恢复出厂设置', en: 'Factory reset' },
  close_data_link: { zh: '关闭数据通信', en: 'Close data link' },
  close_wireless: { zh: '关闭所有无线通信', en: 'Close all wireless' },
};
const FAILURE_NAMES = { timeout: { zh: '超时', en: 'Time-out' }, device: { zh: '设备执行失败', en: 'Refused by the device' }, send: { zh: '下发失败', en: 'Could not be sent' } } as const;

/** The parameters in words, as the export shows them. */
function paramsText(kind: CommandKind, params: Record<string, unknown>, lang: Lang): string {
  if (kind === 'report_interval') return lang === 'zh' ? `${String(params.seconds)} 秒` : `${String(params.seconds)} s`;
  if (kind === 'set_point') return `${String(params.celsius)} °C`;
  if (kind === 'custom') return `${String(params.name)} ${JSON.stringify(params.payload ?? {})}`;
  if (kind === 'text_message') return String(params.text);
  if (kind === 'terminal_control') return CONTROL_NAMES[String(params.action)]?.[lang] ?? String(params.action);
  return '';
}

/** Requests and cancels are audited in their transaction (a review's audit row comes with its signature). */
const audit = successRecorder(writeAudit);

export function commandService(
  db: Db,
  opts: {
    log: FastifyBaseLogger;
    timeoutMs: number;
    /** The node's leases (the jobs plugin's): the time-out check runs on one node at a time. */
    lease?: Lease;
    /** Reviews are signed (modules/signature). */
    signatures: SignatureService;
  },
) {
  const lease = opts.lease ?? leases(db);
  const senders = new Map<CommandChannel, CommandSender>();
  const pending = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    void p.finally(() => pending.delete(p)).catch(() => undefined);
    return p;
  };

  async function where(caller: Caller, q: Omit<CommandQuery, 'page' | 'size' | 'sort'>, withStatus = true): Promise<SQL | undefined> {
    const scope = caller.scope.within(q.orgId);
    return and(
      inOrgs(commands.orgId, scope),
      withStatus && q.status?.length ? inArray(commands.status, q.status) : undefined,
      q.kind?.length ? inArray(commands.kind, q.kind) : undefined,
      q.deviceRef ? eq(commands.deviceRef, q.deviceRef) : undefined,
      q.keyword ? deviceMatches(containsPattern(q.keyword)) : undefined,
      q.requesterId ? eq(commands.requesterId, q.requesterId) : undefined,
      q.mine === 'true' ? eq(commands.requesterId, caller.userId) : undefined,
      q.from ? gte(commands.createdAt, new Date(q.from)) : undefined,
      q.to ? lt(commands.createdAt, new Date(q.to)) : undefined,
    );
  }

  /** The command when it belongs to the caller's tree; any other is not found, whatever the id. */
  async function visible(caller: Caller, id: string): Promise<CommandRow> {
    const scope = caller.scope.orgs;
    const row = await commandById(db, id);
    if (!row || !scope.includes(row.orgId)) throw new AppError(404, 'NOT_FOUND');
    return row;
  }

  async function one(id: string): Promise<CommandRow> {
    const row = await commandById(db, id);
    if (!row) throw new AppError(404, 'NOT_FOUND');
    return row;
  }

  /** Hands an approved (now `sent`) command to the device link; a failure to do so fails the command. */
  async function send(id: string): Promise<void> {
    const c = await commandWithDevice(db, id);
    if (!c || c.status !== 'sent') return;
    const message: CommandMessage = { id: c.id, kind: c.kind, params: c.params as Record<string, unknown>, time: (c.sentAt ?? new Date()).toISOString() };
    try {
      const sender = senders.get(c.protocol === 'jt808' ? 'jt808' : 'mqtt');
      if (!sender) throw new Error('no device link');
      await sender.sendCommand(c.deviceId, JSON.stringify(message));
    } catch (err) {
      opts.log.warn({ err, commandId: id, deviceId: c.deviceId }, 'a command could not be sent');
      const reason = err instanceof Error ? err.message : String(err);
      await db.transaction((tx) => fail(tx, id, 'send', reason.slice(0, 200), new Date()));
    }
  }

  /** One acknowledgement from a device; anything wrong with it is logged and dropped. */
  async function acknowledge(deviceId: string, payload: Buffer | string): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
    } catch {
      opts.log.warn({ deviceId }, 'command acknowledgement is not JSON; dropped');
      return;
    }
    const parsed = commandAckSchema.safeParse(body);
    if (!parsed.success) {
      opts.log.warn({ deviceId, issue: parsed.error.issues[0]?.message }, 'malformed command acknowledgement; dropped');
      return;
    }
    const ack = parsed.data;
    const c = await commandWithDevice(db, ack.id);
    // Another device's command is as good as unknown: a device closes only its own.
    if (!c || c.deviceId !== deviceId) {
      opts.log.warn({ deviceId, commandId: ack.id }, 'acknowledgement of an unknown command or of another device; dropped');
      return;
    }
    if (c.status !== 'sent') {
      opts.log.info({ deviceId, commandId: ack.id, status: c.status }, 'late or repeated command acknowledgement; ignored');
      return;
    }
    const now = new Date();
    const message = ack.message ?? null;
    await db.transaction(async (tx) => {
      if (!ack.ok) return fail(tx, c.id, 'device', message, now, now);
      if (!(await move(tx, c.id, 'sent', { status: 'acknowledged', ackAt: now, result: message }))) return false;
      await addEvents(tx, c.id, null, [{ kind: 'acknowledged', detail: { message, deviceTime: ack.time ?? null }, at: now }]);
      return true;
    });
  }

  /** Sent commands past the time-out fail; one node at a time (the others skip this round). */
  async function expire(now = new Date()): Promise<string[]> {
    return lease('command timeouts', (tx) => expireSent(tx, new Date(now.getTime() - opts.timeoutMs), now), []);
  }

  return {
    async list(caller: Caller, q: CommandQuery): Promise<CommandPage> {
      const [w, wAll] = await Promise.all([where(caller, q), where(caller, q, false)]);
      const { limit, offset } = limitOffset(q);
      const [rows, total, counts] = await Promise.all([
        selectCommands(db)
          .where(w)
          .orderBy(...orderBy(q.sort, SORTABLE, 'requestedAt,desc', commands.id))
          .limit(limit)
          .offset(offset),
        db
          .select({ n: count() })
          .from(commands)
          .innerJoin(devices, eq(devices.id, commands.deviceRef))
          .where(w)
          .then((r) => Number(r[0]?.n ?? 0)),
        countByStatus(db, wAll),
      ]);
      return { ...toPage(rows.map(toCommandRow), total, q), counts };
    },

    get: visible,

    async events(caller: Caller, id: string): Promise<CommandEventRow[]> {
      await visible(caller, id);
      return eventsOf(db, id);
    },

    /** A request for a device of the caller's tree; it waits for a reviewer. */
    async request(caller: Caller, body: CommandRequest, meta: ClientMeta): Promise<CommandRow> {
      const scope = caller.scope.orgs;
      const [device] = await db.select({ id: devices.id, deviceId: devices.deviceId, orgId: devices.orgId, protocol: devices.protocol }).from(devices).where(eq(devices.id, body.deviceRef));
      if (!device || !scope.includes(device.orgId)) throw new AppError(400, 'COMMAND_DEVICE_UNKNOWN');
      if (!commandKindsFor(device.protocol).includes(body.kind)) throw new AppError(400, 'COMMAND_KIND_UNSUPPORTED');
      const params = body.params as Record<string, unknown>;
      const id = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(commands)
          .values({ orgId: device.orgId, deviceRef: device.id, kind: body.kind, params, remark: body.remark, requesterId: caller.userId, requesterAccount: caller.account })
          .returning({ id: commands.id });
        await addEvents(tx, made!.id, caller.account, [{ kind: 'requested', detail: { kind: body.kind, params, remark: body.remark } }]);
        await audit(tx, caller, device.orgId, 'command_request', `${body.kind} ${device.deviceId}`, meta);
        return made!.id;
      });
      return one(id);
    },

    /** The requester takes back a request nobody has reviewed yet. */
    async cancel(caller: Caller, id: string, meta: ClientMeta): Promise<CommandRow> {
      const row = await visible(caller, id);
      if (row.requester.id !== caller.userId) throw new AppError(403, 'COMMAND_NOT_OWN');
      await db.transaction(async (tx) => {
        if (!(await move(tx, id, 'pending_review', { status: 'cancelled' }))) throw new AppError(409, 'COMMAND_NOT_PENDING');
        await addEvents(tx, id, caller.account, [{ kind: 'cancelled' }]);
        await audit(tx, caller, row.orgId, 'command_cancel', `${row.kind} ${row.deviceId}`, meta);
      });
      return one(id);
    },

    /** Approve (the command goes to the device at once) or reject with a reason; never one's own request. */
    async review(caller: Caller, id: string, body: CommandReview, meta: ClientMeta): Promise<CommandRow> {
      // Another organisation's command is not found, whatever the body says.
      const row = await visible(caller, id);
      const meaning = body.meaning ?? (body.approve ? DEFAULT_MEANING.approve : DEFAULT_MEANING.reject);
      if (body.approve ? meaning !== 'approved' : meaning !== 'rejected') throw new AppError(400, 'SIGNATURE_MEANING_INVALID');
      if (row.requester.id === caller.userId) throw new AppError(403, 'COMMAND_SELF_REVIEW');
      if (row.status !== 'pending_review') throw new AppError(409, 'COMMAND_NOT_PENDING');
      const signer = await opts.signatures.prove(caller, body, meta);
      const now = new Date();
      const sentDetail = (await commandWithDevice(db, id))?.protocol === 'jt808' ? { channel: 'jt808' } : { topic: commandTopic(row.deviceId) };
      const reviewed = { reviewerId: caller.userId, reviewerAccount: caller.account, reviewedAt: now, reviewReason: body.reason };
      await db.transaction(async (tx) => {
        const moved = body.approve
          ? await move(tx, id, 'pending_review', { ...reviewed, status: 'sent', sentAt: now })
          : await move(tx, id, 'pending_review', { ...reviewed, status: 'rejected' });
        if (!moved) throw new AppError(409, 'COMMAND_NOT_PENDING');
        await addEvents(tx, id, caller.account, [{ kind: body.approve ? 'approved' : 'rejected', detail: { reason: body.reason }, at: now }]);
        if (body.approve) await addEvents(tx, id, null, [{ kind: 'sent', detail: sentDetail, at: now }]);
        await opts.signatures.sign(tx, signer, { recordType: 'command', recordId: id, meaning });
      });
      if (body.approve) await track(send(id));
      return one(id);
    },

    async export(caller: Caller, q: CommandQuery, format: ExportFormat, lang: Lang, tz: string): Promise<ExportFile> {
      const w = await where(caller, q);
      const [n] = await db.select({ n: count() }).from(commands).innerJoin(devices, eq(devices.id, commands.deviceRef)).where(w);
      if (Number(n?.n ?? 0) > MAX_EXPORT_ROWS) throw new AppError(400, 'EXPORT_TOO_LARGE');
      const rows = (
        await selectCommands(db)
          .where(w)
          .orderBy(...orderBy(q.sort, SORTABLE, 'requestedAt,desc', commands.id))
          .limit(MAX_EXPORT_ROWS)
      ).map(toCommandRow);
      const instant = (v: string | null) => (v ? new Date(v) : null);
      return exportRows({
        format,
        lang,
        timezone: tz,
        name: { zh: '远程控制指令', en: 'remote-commands' },
        sheet: { zh: '远程控制指令', en: 'Remote commands' },
        columns: [
          { header: { zh: '设备号', en: 'Device ID' }, value: (r) => r.deviceId, width: 20 },
          { header: { zh: '设备名称', en: 'Device name' }, value: (r) => r.deviceName, width: 24 },
          { header: { zh: '指令', en: 'Command' }, value: (r) => KIND_NAMES[r.kind][lang], width: 22 },
          { header: { zh: '参数', en: 'Parameters' }, value: (r) => paramsText(r.kind, r.params, lang), width: 30 },
          { header: { zh: '状态', en: 'Status' }, value: (r) => STATUS_NAMES[r.status][lang] },
          { header: { zh: '申请人', en: 'Requester' }, value: (r) => `${r.requester.name} (${r.requester.account})`, width: 24 },
          { header: { zh: '申请时间', en: 'Requested' }, value: (r) => new Date(r.requestedAt), width: 21 },
          { header: { zh: '申请说明', en: 'Remark' }, value: (r) => r.remark, width: 30 },
          { header: { zh: '审核人', en: 'Reviewer' }, value: (r) => (r.reviewer ? `${r.reviewer.name} (${r.reviewer.account})` : ''), width: 24 },
          { header: { zh: '审核时间', en: 'Reviewed' }, value: (r) => instant(r.reviewedAt), width: 21 },
          { header: { zh: '审核意见', en: 'Review reason' }, value: (r) => r.reviewReason, width: 30 },
          { header: { zh: '下发时间', en: 'Sent' }, value: (r) => instant(r.sentAt), width: 21 },
          { header: { zh: '确认时间', en: 'Acknowledged' }, value: (r) => instant(r.ackAt), width: 21 },
          { header: { zh: '失败原因', en: 'Failure' }, value: (r) => (r.failure ? FAILURE_NAMES[r.failure][lang] : '') },
          { header: { zh: '执行结果', en: 'Result' }, value: (r) => r.result ?? '', width: 30 },
          { header: { zh: '组织', en: 'Organisation' }, value: (r) => r.orgName, width: 24 },
        ],
        rows,
      });
    },

    /**
     * Connects the device link: commands are published through it from now on. Answers the
     * detach, for when the link closes.
     */
    attach(link: CommandSender, channel: CommandChannel = 'mqtt'): () => void {
      senders.set(channel, link);
      return () => {
        if (senders.get(channel) === link) senders.delete(channel);
      };
    },

    /**
     * JT/T 808: the node holding the terminal's connection is about to write the command's frame
     * with this platform serial. Kept in the command's story (so the answer is matched on any
     * node); answers false when the command is no longer sent or another node already delivered it.
     */
    async delivering(commandId: string, wire: { node: string; serial: number; messageId: number }): Promise<boolean> {
      return track(
        db.transaction(async (tx) => {
          // The conditional update locks the row: of two nodes delivering at once, one goes first.
          if (!(await move(tx, commandId, 'sent', {}))) return false;
          if (await deliveryOf(tx, commandId)) return false;
          await addEvents(tx, commandId, null, [{ kind: 'delivered', detail: wire }]);
          return true;
        }),
      );
    },

    /**
     * JT/T 808: the commands approved for the device while no node held its connection (sent, not
     * delivered, not timed out), oldest first: the node where it authenticates delivers them.
     */
    async undelivered(deviceRef: string, now = new Date()): Promise<CommandMessage[]> {
      const rows = await undeliveredOf(db, deviceRef, new Date(now.getTime() - opts.timeoutMs));
      return rows.map((c) => ({ id: c.id, kind: c.kind, params: c.params as Record<string, unknown>, time: (c.sentAt ?? now).toISOString() }));
    },

    /** JT/T 808: a terminal's answer to a delivered command (acknowledged, or failed with the reason); anything else is ignored. */
    async wireAnswer(deviceRef: string, answer: WireAnswer): Promise<boolean> {
      return track(
        (async () => {
          const found = await commandByDelivery(db, deviceRef, answer.serial, answer.messageId);
          if (!found) return false;
          const now = new Date();
          return db.transaction(async (tx) => {
            if (!answer.ok) return fail(tx, found, 'device', answer.message, now, now);
            if (!(await move(tx, found, 'sent', { status: 'acknowledged', ackAt: now, result: answer.message }))) return false;
            await addEvents(tx, found, null, [{ kind: 'acknowledged', detail: { message: answer.message, deviceTime: null }, at: now }]);
            return true;
          });
        })(),
      );
    },

    /** A sent command that could not be put on the wire (JT/T 808: no frame for it) fails with reason `send`. */
    async unsendable(commandId: string, reason: string): Promise<void> {
      await track(db.transaction((tx) => fail(tx, commandId, 'send', reason.slice(0, 200), new Date())));
    },

    /** An acknowledgement arrived on `devices/<deviceId>/command/ack`; never throws. */
    onAck: (deviceId: string, payload: Buffer | string): Promise<void> =>
      track(acknowledge(deviceId, payload)).catch((err: unknown) => opts.log.error({ err, deviceId }, 'command acknowledgement failed')),

    expire,

    /** The time-out check of the timer; errors are logged. */
    tick: () => track(expire()).catch((err: unknown) => opts.log.warn({ err }, 'command time-out check failed')),

    /** Waits for sends, acknowledgements and checks under way (before the database closes). */
    async settled(): Promise<void> {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}
export type CommandService = ReturnType<typeof commandService>;
