// Simulated JT/T 808 (2013) vehicle terminals over real TCP against the platform's gateway, the
// way off-the-shelf trackers behave: each opens a connection, registers (0x0100) for an
// authentication code, authenticates (0x0102) with it, then sends a location (0x0200) every
// interval, built by the same models as the JSON simulator (models.ts; the reefer temperature as
// vendor item 0x51) and encoded by the gateway's own codec (modules/jt808). The platform's answers are read with the Deframer: a
// location the platform does not answer with 0x8001 within the time-out is sent again (the same
// frame, the same serial), and after its last try it waits in the terminal's buffer. In a
// coverage gap the connection is lost and fixes go to that buffer too; back in coverage the
// terminal reconnects, authenticates with its saved code (no new registration) and re-sends the
// buffer as 0x0704 blind-area batches, each fix at its own time. Position queries (0x8201) are
// answered with 0x0201, and text messages, terminal control and parameter settings with 0x0001
// (a new report interval, parameter 0x0029, is followed).
import { connect, type Socket } from 'node:net';
import type { DeviceReport } from '@iotc/shared/device';
import { decodeTemperature } from '@iotc/shared/sensors';
import { Deframer, decodeFrame, encodeFrame, type Jt808Frame } from '../modules/jt808/codec.ts';
import {
  ANSWER_RESULT,
  decodeGeneralAnswer,
  decodeRegistrationAnswer,
  encodeAuthentication,
  encodeGeneralAnswer,
  encodeRegistration,
  MSG,
  REGISTER_RESULT,
  type Registration,
} from '../modules/jt808/messages.ts';
import { alarmFlags, decodeLocation, encodeLocation, encodeLocationBatch, encodePositionAnswer, type LocationInit } from '../modules/jt808/location.ts';
import { decodeSetParameters } from '../modules/jt808/commands.ts';
import { locationReport, type Jt808Report } from '../modules/jt808/reports.ts';
import { createDevice, DEFAULT_SEED, step, type DeviceKind, type DeviceProfile, type SimDevice } from './models.ts';
import type { SimLogger, Simulator, SimulatorStats } from './publisher.ts';
import { generator, mix } from './random.ts';

export interface SimulatedTerminal {
  /** The terminal's phone number as 12 digits (2013 header), the device id of a jt808 device. */
  deviceId: string;
  kind?: DeviceKind;
  profile?: DeviceProfile;
  /** The plate sent in the registration (default: none, plate colour 0). */
  plate?: string;
  /** The terminal model sent in the registration (default SIM-808), which vendor item mappings are keyed on. */
  model?: string;
}

export interface Jt808SimulatorOptions {
  /** The gateway's address. */
  host: string;
  port: number;
  devices: readonly SimulatedTerminal[];
  intervalMs: number;
  seed?: number;
  log?: SimLogger;
  /** Each interval varies by up to ±jitter/2 of itself (default 0.1). */
  jitter?: number;
  /** Connections opened at a time (default 200). */
  connectBatch?: number;
  /** The clock the fixes are stamped with (default Date.now). */
  clock?: () => number;
  /** How long a location waits for its 0x8001 before it is sent again (default 10 s). */
  ackTimeoutMs?: number;
  /** Each terminal loses coverage for `forMs` once every `everyMs`, at its own moment (default: never). */
  gaps?: { everyMs: number; forMs: number };
}

export interface Jt808SimulatorStats extends SimulatorStats {
  /** Locations sent again for want of an answer in time. */
  resent: number;
  /** 0x0704 blind-area batches the platform acknowledged, and the fixes in them. */
  batches: number;
  batchedFixes: number;
}

export interface Jt808Simulator extends Simulator {
  stats(): Jt808SimulatorStats;
  /** Takes the terminals (all, or those named) out of coverage for `forMs` from now. */
  coverageGap(forMs: number, deviceIds?: readonly string[]): void;
}

const RECONNECT_MS = 3000;
/** The longest a batch of connections holds up the next one. */
const BATCH_WAIT_MS = 5000;
/** How long stop() waits for answers to what was sent. */
const STOP_GRACE_MS = 2000;
/** Sends of one location before it goes to the buffer: the first and two re-sends. */
const TRIES = 3;
/** Unanswered messages a terminal keeps in flight; further fixes wait in the buffer. */
const MAX_IN_FLIGHT = 10;
/** Fixes a terminal buffers (out of coverage, or unanswered); the oldest are dropped past it. */
const MAX_BUFFERED = 5000;
/** Fixes per 0x0704 batch: each is about 40 bytes, well inside a frame's 1023-byte body. */
const BATCH_FIXES = 20;
/** 0x0704 type: a blind-area re-send. */
const BLIND_AREA = 1;
/** A terminal that reports less often than this sends heartbeats in between (the gateway closes a connection silent for 3 minutes). */
const HEARTBEAT_MS = 60_000;
/** How long a terminal takes to carry out a command before it answers. */
const ANSWER_DELAY_MS = 300;

const silent: SimLogger = { info: () => {}, warn: () => {} };

/** Additional item of the reefer's temperature probe: 2 bytes, sign and magnitude in 0.1 C, 0xFFFF absent (traccar's Huabao decoder). */
export const TEMPERATURE_ITEM = '0x51';
const NO_PROBE = 'ffff';

/**
 * The simulated terminals' overspeed limit (the standard's parameter 0x0055, km/h): past it a
 * terminal sets alarm bit 1 (overspeed) and clears it when back under, as real terminals do. The
 * models' trucks cruise at 60-90 km/h, so a fast one goes over it a few times a day for a few
 * minutes, and a slow one not at all: an occasional terminal alarm, not a flood.
 */
export const OVERSPEED_LIMIT_KMH = 88;

/**
 * The model's report as a JT/T 808 fix: position only when it came from GNSS, mileage from block
 * 14, the temperature of block 3 (already sign and magnitude in 0.1 C) as vendor item 0x51, and
 * the overspeed alarm bit past OVERSPEED_LIMIT_KMH.
 */
export function fixOf(report: DeviceReport): LocationInit {
  const blocks = (typeof report.extraData === 'string' ? JSON.parse(report.extraData) : (report.extraData ?? {})) as Record<string, Record<string, unknown>>;
  const mileage = blocks['14']?.mileage;
  const temp = blocks['3']?.temp;
  // The JSON block's "no reading" (-30.0 C and below) is the probe's 0xFFFF.
  const probe = typeof temp === 'number' && temp >= 0 && temp <= 0xffff && decodeTemperature(temp) !== null ? temp.toString(16).padStart(4, '0') : NO_PROBE;
  const positioned = report.positioning === 'GPS' && report.lat !== undefined && report.lon !== undefined;
  return {
    latitude: positioned ? report.lat! : 0,
    longitude: positioned ? report.lon! : 0,
    positioned,
    acc: report.acc ?? false,
    speedKmh: report.speed ?? 0,
    direction: report.course ?? 0,
    altitude: 0,
    alarm: (report.speed ?? 0) > OVERSPEED_LIMIT_KMH ? alarmFlags(['overspeed']) : 0,
    time: new Date(report.time),
    mileageKm: typeof mileage === 'number' ? mileage / 10 : undefined,
    satellites: positioned ? 9 : 0,
    signal: 25,
    ...(temp === undefined ? {} : { extras: { [TEMPERATURE_ITEM]: probe } }),
  };
}

/** The 0x0100 registration a simulated terminal sends (2013 edition; terminal id: the last 7 digits of its phone number). */
export function registrationOf(t: Pick<SimulatedTerminal, 'deviceId' | 'plate' | 'model'>): Registration {
  return {
    edition: 2013,
    province: 31,
    city: 100,
    manufacturer: 'IOTC',
    model: t.model ?? 'SIM-808',
    terminalId: t.deviceId.slice(-7),
    plateColour: t.plate ? 1 : 0,
    plate: t.plate ?? '',
  };
}

/** What the gateway stores for this fix: the report it makes of the decoded 0x0200 (for the demo's backfill). */
export function gatewayReportOf(deviceId: string, report: DeviceReport): Jt808Report {
  return locationReport(deviceId, decodeLocation(encodeLocation(fixOf(report))), { messageId: MSG.location });
}

interface Pending {
  messageId: number;
  bytes: Buffer;
  fixes: LocationInit[];
  tries: number;
  timer?: NodeJS.Timeout;
}

interface Terminal {
  phone: string;
  sim: SimDevice;
  plate?: string;
  model?: string;
  socket: Socket | null;
  deframer: Deframer;
  serial: number;
  state: 'offline' | 'registering' | 'authenticating' | 'online' | 'refused';
  /** The code the last registration gave; kept across connections. */
  authCode?: string;
  /** Set when the code was just given: a failed authentication then is final. */
  freshCode: boolean;
  pending: Map<number, Pending>;
  buffer: LocationInit[];
  /** Out of coverage until then (Date.now time; the clock only stamps the fixes). */
  darkUntil: number;
  intervalMs?: number;
  reportTimer?: NodeJS.Timeout;
  heartbeatTimer?: NodeJS.Timeout;
  otherTimers: Set<NodeJS.Timeout>;
  everOnline: boolean;
}

export function startJt808Simulator(opts: Jt808SimulatorOptions): Jt808Simulator {
  const seed = opts.seed ?? DEFAULT_SEED;
  const log = opts.log ?? silent;
  const clock = opts.clock ?? Date.now;
  const jitter = opts.jitter ?? 0.1;
  const ackTimeoutMs = opts.ackTimeoutMs ?? 10_000;
  const batchSize = opts.connectBatch ?? 200;
  const random = generator(mix(seed, opts.devices.length, 808));
  const counts = { sent: 0, acked: 0, failed: 0, refused: 0, resent: 0, batches: 0, batchedFixes: 0 };
  const terminals: Terminal[] = [];
  let stopping = false;
  let connectionErrors = 0;
  let errorsLoggedAt = 0;

  const later = (term: Terminal, ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      term.otherTimers.delete(timer);
      fn();
    }, ms);
    term.otherTimers.add(timer);
  };

  function send(term: Terminal, messageId: number, body: Buffer): number {
    const serial = term.serial;
    term.serial = (term.serial + 1) & 0xffff;
    term.socket?.write(encodeFrame({ messageId, phone: term.phone, serial }, body));
    return serial;
  }

  /** Sends a location or a batch and waits for its 0x8001; unanswered, it is sent again, then buffered. */
  function sendTracked(term: Terminal, messageId: number, body: Buffer, fixes: LocationInit[]) {
    const serial = term.serial;
    term.serial = (term.serial + 1) & 0xffff;
    const p: Pending = { messageId, bytes: encodeFrame({ messageId, phone: term.phone, serial }, body), fixes, tries: 0 };
    term.pending.set(serial, p);
    counts.sent += fixes.length;
    transmit(term, serial, p);
  }

  function transmit(term: Terminal, serial: number, p: Pending) {
    p.tries++;
    term.socket?.write(p.bytes);
    p.timer = setTimeout(() => {
      if (term.pending.get(serial) !== p) return;
      if (p.tries < TRIES && term.state === 'online') {
        counts.resent++;
        transmit(term, serial, p);
        return;
      }
      // Given up on this connection: the fixes wait for the next blind-area batch.
      term.pending.delete(serial);
      counts.sent -= p.fixes.length;
      buffer(term, p.fixes);
    }, ackTimeoutMs * p.tries);
  }

  function buffer(term: Terminal, fixes: LocationInit[]) {
    term.buffer.push(...fixes);
    term.buffer.sort((a, b) => a.time!.getTime() - b.time!.getTime());
    const over = term.buffer.length - MAX_BUFFERED;
    if (over > 0) {
      term.buffer.splice(0, over);
      counts.failed += over;
    }
  }

  /** Re-sends buffered fixes as 0x0704 blind-area batches, as many as the in-flight limit allows. */
  function flush(term: Terminal) {
    while (term.state === 'online' && term.buffer.length > 0 && term.pending.size < MAX_IN_FLIGHT) {
      const fixes = term.buffer.splice(0, BATCH_FIXES);
      sendTracked(term, MSG.locationBatch, encodeLocationBatch({ type: BLIND_AREA, items: fixes }), fixes);
    }
  }

  function report(term: Terminal) {
    const fix = fixOf(step(term.sim, clock()));
    if (term.state !== 'online' || Date.now() < term.darkUntil || term.pending.size >= MAX_IN_FLIGHT) return buffer(term, [fix]);
    flush(term);
    sendTracked(term, MSG.location, encodeLocation(fix), [fix]);
  }

  function schedule(term: Terminal, delayMs: number) {
    if (stopping) return;
    term.reportTimer = setTimeout(() => {
      report(term);
      schedule(term, (term.intervalMs ?? opts.intervalMs) * (1 + (random() - 0.5) * jitter));
    }, delayMs);
  }

  function onAnswer(term: Terminal, frame: Jt808Frame) {
    const answer = decodeGeneralAnswer(frame.body);
    if (answer.messageId === MSG.authenticate) {
      if (answer.result === ANSWER_RESULT.ok) return online(term);
      if (term.freshCode) return refuse(term, `authentication refused (result ${answer.result})`);
      // The saved code no longer holds (registered again elsewhere): register anew.
      term.authCode = undefined;
      return register(term);
    }
    const p = term.pending.get(answer.serial);
    if (!p || p.messageId !== answer.messageId) return;
    clearTimeout(p.timer);
    term.pending.delete(answer.serial);
    if (answer.result !== ANSWER_RESULT.ok) {
      counts.failed += p.fixes.length;
      return;
    }
    counts.acked += p.fixes.length;
    if (p.messageId === MSG.locationBatch) {
      counts.batches++;
      counts.batchedFixes += p.fixes.length;
    }
    flush(term);
  }

  function onCommand(term: Terminal, frame: Jt808Frame) {
    const { messageId, serial } = frame.header;
    later(term, ANSWER_DELAY_MS, () => {
      if (term.state !== 'online') return;
      if (messageId === MSG.positionQuery) {
        send(term, MSG.positionAnswer, encodePositionAnswer({ serial, location: fixOf(step(term.sim, clock())) }));
        return;
      }
      let result: number = ANSWER_RESULT.ok;
      if (messageId === MSG.setParameters) {
        try {
          const seconds = decodeSetParameters(frame.body).reportIntervalSeconds;
          if (typeof seconds === 'number' && seconds > 0) {
            term.intervalMs = seconds * 1000;
            clearTimeout(term.reportTimer);
            schedule(term, term.intervalMs);
          }
        } catch {
          result = ANSWER_RESULT.wrongMessage;
        }
      } else if (messageId !== MSG.textMessage && messageId !== MSG.terminalControl) {
        result = ANSWER_RESULT.notSupported;
      }
      send(term, MSG.terminalAnswer, encodeGeneralAnswer({ serial, messageId, result }));
    });
  }

  function onFrame(term: Terminal, frame: Jt808Frame) {
    switch (frame.header.messageId) {
      case MSG.registerAnswer: {
        const answer = decodeRegistrationAnswer(frame.body);
        if (answer.result !== REGISTER_RESULT.ok) return refuse(term, `registration refused (result ${answer.result})`);
        term.authCode = answer.authCode ?? '';
        term.freshCode = true;
        return authenticate(term);
      }
      case MSG.platformAnswer:
        return onAnswer(term, frame);
      default:
        if (frame.header.messageId >= 0x8000) onCommand(term, frame);
    }
  }

  function register(term: Terminal) {
    term.state = 'registering';
    send(term, MSG.register, encodeRegistration(registrationOf({ deviceId: term.phone, plate: term.plate, model: term.model })));
  }

  function authenticate(term: Terminal) {
    term.state = 'authenticating';
    send(term, MSG.authenticate, encodeAuthentication({ code: term.authCode! }, false));
  }

  function online(term: Terminal) {
    term.state = 'online';
    term.freshCode = false;
    // Back in coverage: what was not answered on the lost connection is in the buffer; send it first.
    flush(term);
    if (!term.everOnline) {
      term.everOnline = true;
      // The first fix at a random moment of the first interval; later ones every interval.
      schedule(term, random() * opts.intervalMs);
    }
    if ((term.intervalMs ?? opts.intervalMs) > HEARTBEAT_MS && !term.heartbeatTimer) {
      term.heartbeatTimer = setInterval(() => term.state === 'online' && send(term, MSG.heartbeat, Buffer.alloc(0)), HEARTBEAT_MS);
    }
  }

  function refuse(term: Terminal, reason: string) {
    counts.refused++;
    term.state = 'refused';
    log.warn({ deviceId: term.phone, reason }, 'simulator: the gateway refused the terminal; not retrying it');
    clearTimeout(term.reportTimer);
    term.socket?.destroy();
  }

  /** The connection is gone: unanswered messages wait in the buffer, and the terminal comes back after a while. */
  function lost(term: Terminal) {
    term.socket = null;
    for (const p of term.pending.values()) {
      clearTimeout(p.timer);
      counts.sent -= p.fixes.length;
      buffer(term, p.fixes);
    }
    term.pending.clear();
    if (term.state === 'refused') return;
    term.state = 'offline';
    if (stopping) return;
    // Back when coverage returns; a connection lost in coverage is tried again after a while.
    const dark = term.darkUntil - Date.now();
    later(term, dark > 0 ? dark : RECONNECT_MS, () => void open(term));
  }

  function noteConnectionError(err: Error) {
    connectionErrors++;
    if (Date.now() - errorsLoggedAt < 10_000) return;
    log.warn({ errors: connectionErrors, example: err.message }, 'simulator: JT/T 808 connection errors, retrying');
    connectionErrors = 0;
    errorsLoggedAt = Date.now();
  }

  /** Opens the terminal's connection; resolves at its first outcome (connected or failed). */
  function open(term: Terminal): Promise<void> {
    if (stopping || term.state === 'refused' || term.socket) return Promise.resolve();
    const socket = connect(opts.port, opts.host);
    term.socket = socket;
    term.deframer = new Deframer();
    return new Promise((settled) => {
      socket.once('connect', () => {
        settled();
        if (term.authCode) authenticate(term);
        else register(term);
      });
      socket.on('data', (chunk) => {
        for (const f of term.deframer.push(chunk)) {
          if (!Buffer.isBuffer(f)) continue;
          try {
            onFrame(term, decodeFrame(f));
          } catch (err) {
            log.warn({ deviceId: term.phone, err: (err as Error).message }, 'simulator: an unreadable frame from the gateway');
          }
        }
      });
      socket.on('error', (err) => {
        settled();
        noteConnectionError(err);
      });
      socket.once('close', () => {
        settled();
        if (term.socket === socket) lost(term);
      });
    });
  }

  function coverageGap(term: Terminal, forMs: number) {
    if (term.state === 'refused' || stopping) return;
    term.darkUntil = Math.max(term.darkUntil, Date.now() + forMs);
    // Out of coverage the connection drops; lost() brings it back when the gap is over.
    term.socket?.destroy();
  }

  async function connectAll() {
    for (let i = 0; i < terminals.length && !stopping; i += batchSize) {
      const batch = terminals.slice(i, i + batchSize).map(open);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(batch), new Promise<void>((resolve) => (timer = setTimeout(resolve, BATCH_WAIT_MS)))]);
      clearTimeout(timer);
    }
  }

  for (const d of opts.devices) {
    const term: Terminal = {
      phone: d.deviceId,
      sim: createDevice({ deviceId: d.deviceId, seed, kind: d.kind, profile: d.profile }),
      plate: d.plate,
      model: d.model,
      socket: null,
      deframer: new Deframer(),
      serial: 0,
      state: 'offline',
      freshCode: false,
      pending: new Map(),
      buffer: [],
      darkUntil: 0,
      otherTimers: new Set(),
      everOnline: false,
    };
    terminals.push(term);
    const gaps = opts.gaps;
    if (gaps && gaps.everyMs > 0) {
      // Each terminal's gaps at its own moment of the period, so they do not all go dark together.
      const first = setTimeout(() => {
        coverageGap(term, gaps.forMs);
        const every = setInterval(() => coverageGap(term, gaps.forMs), gaps.everyMs);
        term.otherTimers.add(every);
      }, random() * gaps.everyMs);
      term.otherTimers.add(first);
    }
  }

  log.info({ devices: terminals.length, intervalMs: opts.intervalMs, gateway: `${opts.host}:${opts.port}` }, 'simulator: starting JT/T 808 terminals');
  void connectAll();

  async function stop() {
    stopping = true;
    for (const term of terminals) {
      clearTimeout(term.reportTimer);
      clearInterval(term.heartbeatTimer);
      for (const timer of term.otherTimers) clearTimeout(timer);
    }
    // Let what was sent be answered, but do not hang on a gateway that is gone.
    const deadline = Date.now() + STOP_GRACE_MS;
    while (terminals.some((t) => t.pending.size > 0 && t.state === 'online') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(
      terminals.map(
        (term) =>
          new Promise<void>((resolve) => {
            for (const p of term.pending.values()) clearTimeout(p.timer);
            const socket = term.socket;
            if (!socket || socket.destroyed) return resolve();
            socket.once('close', () => resolve());
            socket.destroy();
          }),
      ),
    );
    log.info({ sent: counts.sent, acked: counts.acked, failed: counts.failed, batches: counts.batches }, 'simulator: JT/T 808 terminals stopped');
  }

  let stopped: Promise<void> | undefined;
  return {
    stats: () => ({
      devices: terminals.length,
      connected: terminals.filter((t) => t.state === 'online').length,
      refused: counts.refused,
      sent: counts.sent,
      acked: counts.acked,
      failed: counts.failed,
      resent: counts.resent,
      batches: counts.batches,
      batchedFixes: counts.batchedFixes,
    }),
    coverageGap: (forMs, deviceIds) => {
      const wanted = deviceIds && new Set(deviceIds);
      for (const term of terminals) if (!wanted || wanted.has(term.phone)) coverageGap(term, forMs);
    },
    stop: () => (stopped ??= stop()),
  };
}
