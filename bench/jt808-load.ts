// Load generator of the JT/T 808 bench (bench/run.ts, area `jt808`), run as its own process so
// that the terminals' work does not run on the server's event loop. It opens one TCP connection
// per terminal phone number in `--terminals` and drives them through phases, each started by a
// line on stdin ("go") and ended by one JSON line on stdout, so that the server's side can
// measure between them:
//   1. `registered`: every terminal connected, registered (0x0100 → 0x8100) and authenticated
//      (0x0102 → 0x8001); then every connection is closed.
//   2. `authenticated`: every terminal connected again and authenticated with its saved code (no
//      second registration), then left idle (the server measures memory per idle connection).
//   3. `max`: closed loop, `--inflight` locations (0x0200) per terminal waiting for their 0x8001
//      at a time, for `--duration` seconds.
//   4. `steady`: open loop at `--rate` locations a second over all terminals, for `--duration` s.
// Each location's time is per terminal one second after its previous one (BCD time has whole
// seconds, and the platform stores one reading per device and time), starting five minutes ago.
// Latency is from writing a frame to reading its 0x8001 (matched by serial), on this process's
// clock.
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { decodeFrame, Deframer, encodeFrame } from '../apps/server/src/modules/jt808/codec.ts';
import { decodeGeneralAnswer, decodeRegistrationAnswer, encodeAuthentication, encodeRegistration, MSG, REGISTER_RESULT } from '../apps/server/src/modules/jt808/messages.ts';
import { encodeLocation } from '../apps/server/src/modules/jt808/location.ts';

const { values: o } = parseArgs({
  options: {
    port: { type: 'string' },
    terminals: { type: 'string' },
    rate: { type: 'string', default: '5000' },
    duration: { type: 'string', default: '10' },
    inflight: { type: 'string', default: '1' },
    /** Connections being opened at a time. */
    'connect-batch': { type: 'string', default: '500' },
  },
});
const port = Number(o.port);
const phones = JSON.parse(readFileSync(o.terminals!, 'utf8')) as string[];
const durationMs = Number(o.duration) * 1000;
const inflight = Number(o.inflight);
const connectBatch = Number(o['connect-batch']);

interface Terminal {
  index: number;
  phone: string;
  socket?: Socket;
  deframer: Deframer;
  serial: number;
  code?: string;
  /** Seconds (epoch) of the last location's time. */
  lastTime: number;
  /** Locations written and not yet answered: serial → write time (ms, performance.now()). */
  waiting: Map<number, number>;
  /** The answer to a 0x0100 / 0x0102 being waited for. */
  expect?: { serial: number; resolve: (result: number, code?: string) => void };
}

const startSecond = Math.floor(Date.now() / 1000) - 300;
const terminals: Terminal[] = phones.map((phone, index) => ({ index, phone, deframer: new Deframer(), serial: 0, lastTime: startSecond, waiting: new Map() }));

let phase: 'setup' | 'max' | 'steady' = 'setup';
let sent = 0;
let acked = 0;
let refused = 0;
let firstSentAt = 0;
let lastAckAt = 0;
/** Each answered location's latency, by the second of the phase it was written in (where a tail comes from). */
let bySecond: number[][] = [];
/** Closed loop: called with a terminal whenever one of its locations is answered. */
let onAck: ((t: Terminal) => void) | undefined;

function write(t: Terminal, messageId: number, body: Buffer): number {
  t.serial = (t.serial + 1) & 0xffff;
  t.socket!.write(encodeFrame({ messageId, phone: t.phone, serial: t.serial }, body));
  return t.serial;
}

function sendLocation(t: Terminal): void {
  t.lastTime += 1;
  const i = t.index;
  const body = encodeLocation({
    acc: true,
    positioned: true,
    latitude: 31.2 + (i % 1000) / 1e4,
    longitude: 121.4 + Math.floor(i / 1000) / 1e4,
    altitude: 12,
    speedKmh: 60,
    direction: 90,
    time: new Date(t.lastTime * 1000),
    mileageKm: 1000 + t.lastTime - startSecond,
    signal: 25,
    satellites: 9,
  });
  const at = performance.now();
  if (sent === 0) firstSentAt = at;
  t.waiting.set(write(t, MSG.location, body), at);
  sent++;
}

function onFrame(t: Terminal, raw: Buffer): void {
  const frame = decodeFrame(raw);
  const { messageId } = frame.header;
  if (messageId === MSG.registerAnswer) {
    const a = decodeRegistrationAnswer(frame.body);
    if (t.expect?.serial === a.serial) t.expect.resolve(a.result, a.authCode);
  } else if (messageId === MSG.platformAnswer) {
    const a = decodeGeneralAnswer(frame.body);
    if (a.messageId === MSG.location) {
      const at = t.waiting.get(a.serial);
      if (at === undefined) return;
      t.waiting.delete(a.serial);
      if (a.result !== 0) {
        refused++;
        return;
      }
      const now = performance.now();
      acked++;
      lastAckAt = now;
      (bySecond[Math.floor((at - firstSentAt) / 1000)] ??= []).push(now - at);
      onAck?.(t);
    } else if (t.expect?.serial === a.serial) t.expect.resolve(a.result);
  }
}

function open(t: Terminal): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => resolve());
    socket.setNoDelay(true);
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      for (const item of t.deframer.push(chunk)) if (Buffer.isBuffer(item)) onFrame(t, item);
    });
    t.socket = socket;
    t.deframer = new Deframer();
  });
}

function ask(t: Terminal, messageId: number, body: Buffer): Promise<{ result: number; code?: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`terminal ${t.phone}: no answer to 0x${messageId.toString(16)} in 120 s`)), 120_000);
    const serial = write(t, messageId, body);
    t.expect = {
      serial,
      resolve: (result, code) => {
        clearTimeout(timer);
        t.expect = undefined;
        resolve({ result, code });
      },
    };
  });
}

async function signIn(t: Terminal, register: boolean): Promise<void> {
  await open(t);
  if (register) {
    const reg = await ask(t, MSG.register, encodeRegistration({ edition: 2013, province: 44, city: 100, manufacturer: 'BENCH', model: 'BENCH-4G', terminalId: `T${t.index}`, plateColour: 0, plate: '' }));
    if (reg.result !== REGISTER_RESULT.ok || !reg.code) throw new Error(`terminal ${t.phone}: registration answered ${reg.result}`);
    t.code = reg.code;
  }
  const auth = await ask(t, MSG.authenticate, encodeAuthentication({ code: t.code! }, false));
  if (auth.result !== 0) throw new Error(`terminal ${t.phone}: authentication answered ${auth.result}`);
}

/** Every terminal through `fn`, `connectBatch` at a time. */
async function all(fn: (t: Terminal) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < terminals.length) await fn(terminals[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(connectBatch, terminals.length) }, worker));
}

async function closeAll(): Promise<void> {
  await Promise.all(
    terminals.map(
      (t) =>
        new Promise<void>((resolve) => {
          if (!t.socket || t.socket.destroyed) return resolve();
          t.socket.once('close', () => resolve());
          t.socket.end();
        }),
    ),
  );
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

function result(extra: object = {}) {
  const sorted = bySecond.flat().sort((a, b) => a - b);
  return {
    sent,
    acked,
    refused,
    unanswered: terminals.reduce((n, t) => n + t.waiting.size, 0),
    ackedMs: lastAckAt - firstSentAt,
    latency: { p50: percentile(sorted, 50), p99: percentile(sorted, 99) },
    p99BySecond: Array.from(bySecond, (l = []) => Math.round(percentile(l.sort((a, b) => a - b), 99))),
    ...extra,
  };
}

function resetCounts(): void {
  sent = 0;
  acked = 0;
  refused = 0;
  firstSentAt = 0;
  lastAckAt = 0;
  bySecond = [];
}

/** Waits until every written location is answered (or `ms` passed). */
async function drain(ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until && terminals.some((t) => t.waiting.size > 0)) await new Promise((r) => setTimeout(r, 50));
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const go = async () => {
  const next = await lines.next();
  if (next.done) process.exit(0);
};
const say = (obj: object) => process.stdout.write(JSON.stringify(obj) + '\n');

let started = Date.now();
await all((t) => signIn(t, true));
say({ phase: 'registered', terminals: terminals.length, ms: Date.now() - started });
await closeAll();
say({ phase: 'closed' });

await go();
started = Date.now();
await all((t) => signIn(t, false));
say({ phase: 'authenticated', terminals: terminals.length, ms: Date.now() - started });

// Closed loop: each answer lets its terminal send the next, until the time is up.
await go();
phase = 'max';
let running = true;
onAck = (t) => {
  if (running) sendLocation(t);
};
for (const t of terminals) for (let k = 0; k < inflight; k++) sendLocation(t);
await new Promise((r) => setTimeout(r, durationMs));
running = false;
await drain(30_000);
say({ phase, ...result() });

// Open loop: a steady rate over all terminals, whatever the answers do.
await go();
phase = 'steady';
resetCounts();
onAck = undefined;
const rate = Number(o.rate);
const begin = performance.now();
let next = 0;
await new Promise<void>((resolve) => {
  const tick = setInterval(() => {
    const elapsed = performance.now() - begin;
    const due = Math.min(Math.floor((elapsed / 1000) * rate), Math.floor((durationMs / 1000) * rate));
    while (sent < due) sendLocation(terminals[next++ % terminals.length]!);
    if (elapsed >= durationMs) {
      clearInterval(tick);
      resolve();
    }
  }, 5);
});
await drain(30_000);
say({ phase, ...result() });
await closeAll();
process.exit(0);
