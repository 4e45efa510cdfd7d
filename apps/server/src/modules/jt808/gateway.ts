// The JT/T 808 gateway: a TCP listener on every node (a TCP load balancer in front spreads the
// terminals), one small session per connection. A session is the deframer's unfinished frame, the
// authenticated device (authentication is per connection, checked against the database, so no
// node needs another's memory), a platform serial and a little bookkeeping; subpackage sets get a
// reassembler only when a terminal sends one. Frames of a connection are handled one at a time in
// order; a location or batch is answered (0x8001) only after the intake pipeline stored it or
// logged its refusal, and not at all when the database is unavailable (the terminal sends it
// again; a repeated device time is stored once). A bad frame is logged (bounded), then answered,
// never closing another terminal's session; oversized frames and silent connections are closed.
import { createServer, type Server, type Socket } from 'node:net';
import type { IntakeResult } from '@iotc/shared/device';
import { UnavailableError } from '../../db/availability.ts';
import type { AuthFailureLimiter } from '../../ingest/auth-failures.ts';
import type { Channel, ReportingDevice } from '../../ingest/pipeline.ts';
import { decodeFrame, Deframer, encodeFrame, type Jt808Header } from './codec.ts';
import { commandFrame, type Jt808Delivery, type Jt808Downlink } from './downlink.ts';
import { Jt808Error } from './errors.ts';
import { ALARM_CONFIRM_ID, encodeAlarmConfirmation, type AlarmConfirmations } from './alarm-confirm.ts';
import { ANSWER_RESULT, decodeTerminalMessage, encodeGeneralAnswer, encodeRegistrationAnswer, MSG, REGISTER_RESULT, type TerminalMessage } from './messages.ts';
import { inSummary, outSummary, type Jt808FrameLog } from './frame-log.ts';
import { Reassembler } from './reassembly.ts';
import { locationReport, type Jt808Report } from './reports.ts';
import type { Jt808Service } from './service.ts';

/** The default heartbeat interval of the standard's parameter 0x0001 is 60 s; three missed ones close the connection. */
export const DEFAULT_IDLE_MS = 3 * 60_000;
/** Frames waiting in one connection before its socket stops being read (TCP back-pressure). */
const MAX_PENDING = 32;
/** At most one intake log row per connection in this long (junk, bad frames, refusals). */
const LOG_EVERY_MS = 1000;
const CHANNEL: Channel = 'jt808';

/** What the gateway needs of the intake pipeline (app.intake). */
export interface Jt808Intake {
  ingest(device: ReportingDevice, reports: unknown[], channel: Channel): Promise<IntakeResult>;
  refuse(channel: Channel, deviceId: string | null, reason: string, payload: unknown, deviceRef?: string | null): Promise<void>;
  pace?(device: ReportingDevice): Promise<void>;
  authFailures: AuthFailureLimiter;
}

export interface Jt808GatewayOptions {
  port: number;
  host?: string;
  service: Jt808Service;
  intake: Jt808Intake;
  /** Remote-control commands (downlink.ts): delivered to the terminals connected here, their answers matched. */
  commands?: Jt808Downlink;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Silence after which a connection is closed (default DEFAULT_IDLE_MS). */
  idleMs?: number;
  /** Keeps the last frames of authenticated terminals for troubleshooting (frame-log.ts). */
  frames?: Pick<Jt808FrameLog, 'record' | 'forget'>;
  /** Vendor item mappings of terminal models (models.ts): mapped items become the JSON blocks of the report. */
  items?: { apply(device: ReportingDevice, reports: Jt808Report[]): Promise<Jt808Report[]>; learn?(deviceRef: string, model: string | null): void };
  /** Operators' confirmations of terminal alarms (alarm-confirm.ts): sent as 0x8203 by the node holding the connection. */
  confirmations?: Pick<AlarmConfirmations, 'subscribe'> & Partial<Pick<AlarmConfirmations, 'waiting'>>;
}

export interface Jt808Gateway {
  port: number;
  listening(): boolean;
  /** Connections open now. */
  connections(): number;
  /** Stops taking connections, waits for the frames being handled, then closes the connections. */
  close(): Promise<void>;
}

interface Session {
  socket: Socket;
  address: string | null;
  deframer: Deframer;
  device: ReportingDevice | null;
  /** The platform's serial for its own messages. */
  serial: number;
  pending: number;
  work: Promise<void>;
  lastLogAt: number;
  refusedUnauthenticated: boolean;
  reassembler?: Reassembler;
  closed: boolean;
  /** When the current authentication was recorded (the disconnect is recorded against it). */
  connectedAt?: Date;
}

export async function startJt808Gateway(opts: Jt808GatewayOptions): Promise<Jt808Gateway> {
  const { service, intake, log } = opts;
  const idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
  const sessions = new Set<Session>();
  /** Disconnects being recorded (awaited by close). */
  const leaving = new Set<Promise<void>>();
  let closing = false;

  const send = (s: Session, to: Jt808Header, messageId: number, body: Buffer) => {
    if (s.closed || s.socket.destroyed) return;
    s.serial = (s.serial + 1) & 0xffff;
    const bytes = encodeFrame({ messageId, phone: to.phone, serial: s.serial, v2019: to.v2019, protocolVersion: to.protocolVersion || undefined }, body);
    s.socket.write(bytes);
    const device = s.device && s.device.deviceId === to.phone ? s.device : null;
    if (device) opts.frames?.record(device, 'out', { messageId, serial: s.serial }, () => outSummary(messageId, body), bytes);
  };
  const answer = (s: Session, to: Jt808Header, result: number) =>
    send(s, to, MSG.platformAnswer, encodeGeneralAnswer({ serial: to.serial, messageId: to.messageId, result }));
  /** Answers a message, and each package of a subpackaged one (serials count up from the first package's). */
  const answerAll = (s: Session, to: Jt808Header, result: number, packages: number) => {
    for (let i = 0; i < packages; i++) answer(s, { ...to, serial: (to.serial + i) & 0xffff }, result);
  };

  /**
   * A command for a terminal, asked of every node: written by this node only when it holds the
   * terminal's authenticated connection (its newest one here), after the serial is recorded with the command.
   */
  const deliver = (delivery: Jt808Delivery) => {
    const port = opts.commands;
    const s = [...sessions].reverse().find((x) => !x.closed && x.device?.deviceId === delivery.deviceId);
    if (!port || !s) return;
    s.work = s.work
      .then(async () => {
        const device = s.device;
        if (s.closed || !device || device.deviceId !== delivery.deviceId) return;
        // Only the terminal's latest connection gets it: an older one this node still holds open
        // (the terminal reconnected elsewhere and no FIN arrived) must not take the command from
        // the node the terminal is on now.
        if (!s.connectedAt || !(await service.holdsLatest(device, s.connectedAt))) return;
        const v2019 = device.deviceId.length === 20;
        let frame;
        try {
          frame = commandFrame(delivery.message, v2019);
        } catch (err) {
          if (!(err instanceof Jt808Error)) throw err;
          await port.unsendable(delivery.message.id, err.message);
          return;
        }
        s.serial = (s.serial + 1) & 0xffff;
        const serial = s.serial;
        if (!(await port.delivering(delivery.message.id, { serial, messageId: frame.messageId }))) return;
        // Gone meanwhile: the command stays sent and times out, as one to an absent MQTT device does.
        if (s.closed || s.socket.destroyed) return;
        const bytes = encodeFrame({ messageId: frame.messageId, phone: device.deviceId, serial, v2019, protocolVersion: v2019 ? 1 : undefined }, frame.body);
        s.socket.write(bytes);
        opts.frames?.record(device, 'out', { messageId: frame.messageId, serial }, () => outSummary(frame.messageId, frame.body, v2019), bytes);
      })
      .catch((err: unknown) => log.error({ err, commandId: delivery.message.id }, 'JT/T 808: a command could not be delivered'));
  };

  /**
   * A terminal that just authenticated here gets the commands approved while it was connected
   * nowhere (not timed out), after its answer and in the order they were approved; each goes the
   * way a command over the bus does, so one another node delivers meanwhile is not written twice.
   */
  const deliverWaiting = (s: Session, device: ReportingDevice) => {
    const port = opts.commands;
    if (!port) return;
    s.work = s.work
      .then(async () => {
        if (s.closed || s.device !== device) return;
        for (const message of await port.undelivered(device)) deliver({ deviceId: device.deviceId, message });
      })
      .catch((err: unknown) => log.error({ err, deviceId: device.deviceId }, 'JT/T 808: waiting commands could not be read'));
  };

  /** Sends a 0x8203 for `alarms` (serial 0: every alarm of these types, as the operator confirmed the alarm, not one report). */
  const confirm = (s: Session, deviceId: string, alarms: number) => {
    const v2019 = deviceId.length === 20;
    s.work = s.work.then(() =>
      send(s, { messageId: ALARM_CONFIRM_ID, serial: 0, phone: deviceId, v2019, protocolVersion: v2019 ? 1 : 0, bodyLength: 0, encryption: 0 }, ALARM_CONFIRM_ID, encodeAlarmConfirmation({ serial: 0, alarms })),
    );
  };

  /**
   * A terminal that just authenticated here gets the confirmations it missed while connected
   * nowhere (or on a connection that dropped): its acknowledged alarms still on.
   */
  const confirmWaiting = (s: Session, device: ReportingDevice) => {
    const waiting = opts.confirmations?.waiting;
    if (!waiting) return;
    s.work = s.work
      .then(async () => {
        if (s.closed || s.device !== device) return;
        const bits = await waiting(device.id);
        if (bits !== 0 && !s.closed && s.device === device) confirm(s, device.deviceId, bits);
      })
      .catch((err: unknown) => log.error({ err, deviceId: device.deviceId }, 'JT/T 808: waiting alarm confirmations could not be read'));
  };

  /** A refusal into the intake log, at most one a second per connection; its failures are logged, never thrown. */
  const refuse = async (s: Session, reason: string, payload: unknown, phone: string | null, device: ReportingDevice | null = s.device) => {
    const now = Date.now();
    if (now - s.lastLogAt < LOG_EVERY_MS) return;
    s.lastLogAt = now;
    try {
      await intake.refuse(CHANNEL, device?.deviceId ?? phone, reason, payload, device?.id ?? null);
    } catch (err) {
      log.warn({ err, reason }, 'JT/T 808: a refusal could not be logged');
    }
  };

  const handleError = async (s: Session, err: Jt808Error, frame: Buffer | null) => {
    const hex = frame ? frame.toString('hex') : null;
    if (s.device && err.phone === s.device.deviceId && err.messageId !== undefined) {
      opts.frames?.record(s.device, 'in', { messageId: err.messageId, serial: err.serial ?? 0 }, () => ({ error: err.code, message: err.message }), frame);
    }
    if (err.code === 'frame-too-long') {
      await refuse(s, `JT/T 808 ${err.code}: ${err.message}; connection closed`, null, null);
      s.socket.destroy();
      return;
    }
    const what = err.messageId === undefined ? '' : ` (message 0x${err.messageId.toString(16).padStart(4, '0')}${err.serial === undefined ? '' : `, serial ${err.serial}`})`;
    await refuse(s, `JT/T 808 ${err.code}${what}: ${err.message}`, hex, err.phone ?? null, s.device && err.phone === s.device.deviceId ? s.device : null);
    // Answered (after the log) where the header could be read: "message wrong" (the terminal may send it again).
    if (err.messageId !== undefined && err.serial !== undefined && err.phone !== undefined) {
      answer(s, { messageId: err.messageId, serial: err.serial, phone: err.phone, v2019: err.phone.length === 20, protocolVersion: err.phone.length === 20 ? 1 : 0, bodyLength: 0, encryption: 0 }, ANSWER_RESULT.wrongMessage);
    }
  };

  /** The session's device when this frame comes from it; null when the connection has not authenticated as this phone. */
  const authenticated = (s: Session, header: Jt808Header) => (s.device && s.device.deviceId === header.phone ? s.device : null);

  const store = async (s: Session, header: Jt808Header, reports: unknown[], packages: number) => {
    const device = authenticated(s, header);
    if (!device) {
      if (!s.refusedUnauthenticated) {
        s.refusedUnauthenticated = true;
        s.lastLogAt = 0;
        await refuse(s, `JT/T 808: ${reports.length} report(s) of ${header.phone} on a connection that has not authenticated as it: nothing stored (logged once per connection)`, null, header.phone, null);
      }
      answerAll(s, header, ANSWER_RESULT.failure, packages);
      return;
    }
    try {
      await intake.pace?.(device);
      await intake.ingest(device, opts.items ? await opts.items.apply(device, reports as Jt808Report[]) : reports, CHANNEL);
    } catch (err) {
      // Not answered: the terminal sends it again once the database is back.
      if (!(err instanceof UnavailableError)) log.error({ err, deviceId: device.deviceId }, 'JT/T 808: reports could not be stored');
      return;
    }
    answerAll(s, header, ANSWER_RESULT.ok, packages);
  };

  /** `packages`: how many packages the message came in (1 when it was not subpackaged). */
  const handleMessage = async (s: Session, msg: TerminalMessage, frameHex: string, packages: number) => {
    const { header } = msg;
    switch (msg.kind) {
      case 'register': {
        if (intake.authFailures.blocked(s.address ?? undefined)) {
          send(s, header, MSG.registerAnswer, encodeRegistrationAnswer({ serial: header.serial, result: REGISTER_RESULT.terminalNotInDatabase }));
          return;
        }
        const out = await service.register(header.phone, msg.registration);
        if (out.result !== REGISTER_RESULT.ok) {
          intake.authFailures.failed(s.address ?? undefined);
          s.lastLogAt = 0;
          await refuse(s, `JT/T 808: ${'reason' in out ? out.reason : 'registration refused'}`, frameHex, header.phone, out.device);
          send(s, header, MSG.registerAnswer, encodeRegistrationAnswer({ serial: header.serial, result: out.result }));
          return;
        }
        send(s, header, MSG.registerAnswer, encodeRegistrationAnswer({ serial: header.serial, result: REGISTER_RESULT.ok, authCode: 'code' in out ? out.code : '' }));
        return;
      }
      case 'authenticate': {
        if (intake.authFailures.blocked(s.address ?? undefined)) {
          answer(s, header, ANSWER_RESULT.failure);
          return;
        }
        const { device, known, connectedAt, model } = await service.authenticate(header.phone, msg.auth.code, s.address);
        if (!device) {
          intake.authFailures.failed(s.address ?? undefined);
          s.device = null;
          s.lastLogAt = 0;
          await refuse(s, `JT/T 808: authentication of ${header.phone} failed (unknown terminal, not registered, or a wrong code)`, null, header.phone, known);
          answer(s, header, ANSWER_RESULT.failure);
          return;
        }
        s.device = device;
        s.connectedAt = connectedAt;
        // The model it registered with (perhaps another than before) picks its item mapping.
        opts.items?.learn?.(device.id, model ?? null);
        s.refusedUnauthenticated = false;
        opts.frames?.record(device, 'in', header, () => inSummary(msg), null);
        answer(s, header, ANSWER_RESULT.ok);
        deliverWaiting(s, device);
        confirmWaiting(s, device);
        return;
      }
      case 'heartbeat':
        answer(s, header, ANSWER_RESULT.ok);
        return;
      case 'deregister': {
        const device = authenticated(s, header);
        if (!device) {
          answer(s, header, ANSWER_RESULT.failure);
          return;
        }
        await service.deregister(device);
        // Signed off: the row says so now, not when the socket closes.
        if (s.connectedAt) await service.disconnected(device, s.connectedAt);
        s.connectedAt = undefined;
        answer(s, header, ANSWER_RESULT.ok);
        s.device = null;
        return;
      }
      case 'location':
        await store(s, header, [locationReport(header.phone, msg.location, { messageId: header.messageId, frameHex })], packages);
        return;
      case 'batch':
        if (msg.batch.items.length === 0) {
          answerAll(s, header, ANSWER_RESULT.ok, packages);
          return;
        }
        await store(
          s,
          header,
          msg.batch.items.map((l) => locationReport(header.phone, l, { messageId: header.messageId })),
          packages,
        );
        return;
      case 'answer': {
        // The terminal's general answer to a platform message: closes the command it answers, if any.
        const device = authenticated(s, header);
        if (device && opts.commands) await opts.commands.answered(device, msg.answer);
        return;
      }
      case 'position-answer': {
        // The answer to a position query: the fix is stored as a location is, then the query is acknowledged.
        const device = authenticated(s, header);
        if (!device) return;
        const l = msg.answer.location;
        try {
          await intake.pace?.(device);
          await intake.ingest(device, [locationReport(header.phone, l, { messageId: header.messageId, frameHex })], CHANNEL);
        } catch (err) {
          if (!(err instanceof UnavailableError)) log.error({ err, deviceId: device.deviceId }, 'JT/T 808: a position answer could not be stored');
          return;
        }
        const where = l.positioned ? `${l.latitude.toFixed(6)},${l.longitude.toFixed(6)}` : 'not positioned';
        await opts.commands?.answered(device, { serial: msg.answer.serial, messageId: MSG.positionQuery, result: ANSWER_RESULT.ok, message: where });
        return;
      }
      case 'attributes':
        return;
      case 'unknown':
        await refuse(s, `JT/T 808: message 0x${header.messageId.toString(16).padStart(4, '0')} is not supported`, frameHex, header.phone, authenticated(s, header));
        answer(s, header, ANSWER_RESULT.notSupported);
        return;
    }
  };

  const handleFrame = async (s: Session, item: Buffer | Jt808Error) => {
    if (item instanceof Jt808Error) return handleError(s, item, null);
    let frame;
    let packages = 1;
    try {
      frame = decodeFrame(item);
      if (frame.header.packages) {
        s.reassembler ??= new Reassembler({ maxSets: 4, maxBytes: 256 * 1024 });
        const { message, dropped } = s.reassembler.add(frame, Date.now());
        for (const d of dropped) {
          await refuse(s, `JT/T 808: packages of message 0x${d.messageId.toString(16).padStart(4, '0')} dropped (${d.reason}; missing ${d.missing.join(', ')})`, null, d.phone, null);
        }
        // The packages are answered together once the whole message is stored (acknowledge only what is stored).
        if (!message) return;
        packages = frame.header.packages.total;
        if (s.reassembler.size === 0) s.reassembler = undefined;
        frame = message;
      }
      const msg = decodeTerminalMessage(frame);
      // Kept before its answer; an authentication is kept once it succeeds (handleMessage).
      const device = msg.kind === 'authenticate' ? null : authenticated(s, msg.header);
      if (device) opts.frames?.record(device, 'in', msg.header, () => inSummary(msg), packages === 1 ? item : null);
      return await handleMessage(s, msg, packages === 1 && item.length <= 1000 ? item.toString('hex') : '', packages);
    } catch (err) {
      if (err instanceof Jt808Error) return handleError(s, err, item);
      throw err;
    }
  };

  const onConnection = (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    const s: Session = {
      socket,
      address: socket.remoteAddress ?? null,
      deframer: new Deframer(),
      device: null,
      serial: 0,
      pending: 0,
      work: Promise.resolve(),
      lastLogAt: 0,
      refusedUnauthenticated: false,
      closed: false,
    };
    sessions.add(s);
    socket.setNoDelay(true);
    // The one idle check: silence past the heartbeat allowance closes the connection.
    socket.setTimeout(idleMs, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      for (const item of s.deframer.push(chunk)) {
        s.pending++;
        if (s.pending > MAX_PENDING) socket.pause();
        s.work = s.work
          .then(() => (s.closed ? undefined : handleFrame(s, item)))
          .catch((err: unknown) => log.error({ err }, 'JT/T 808: a frame could not be handled'))
          .finally(() => {
            s.pending--;
            if (s.pending <= MAX_PENDING && socket.isPaused() && !s.closed) socket.resume();
          });
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      s.closed = true;
      sessions.delete(s);
      if (s.device && s.connectedAt) {
        const { device, connectedAt } = s;
        opts.frames?.forget(device.id);
        const gone = service
          .disconnected(device, connectedAt)
          .catch((err: unknown) => log.warn({ err, deviceId: device.deviceId }, 'JT/T 808: a disconnect could not be recorded'))
          .finally(() => leaving.delete(gone));
        leaving.add(gone);
      }
    });
  };

  const server: Server = createServer(onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => log.error({ err }, 'JT/T 808: listener error'));
  const unsubscribeCommands = opts.commands?.subscribe(deliver);
  const unsubscribeConfirmations = opts.confirmations?.subscribe(({ deviceId, alarms }) => {
    const s = [...sessions].reverse().find((x) => !x.closed && x.device?.deviceId === deviceId);
    if (s) confirm(s, deviceId, alarms);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;

  return {
    port,
    listening: () => server.listening,
    connections: () => sessions.size,
    async close() {
      closing = true;
      unsubscribeCommands?.();
      unsubscribeConfirmations?.();
      for (const s of sessions) s.socket.pause();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Frames under way are stored and answered first; then the connections go.
      await Promise.all([...sessions].map((s) => s.work));
      for (const s of sessions) s.socket.destroy();
      await stopped;
      await Promise.all([...leaving]);
    },
  };
}
