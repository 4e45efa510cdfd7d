// Runs simulated devices against an MQTT broker the way real ones connect: one connection per
// device signed in with its id and secret, a QoS 1 report to `devices/<id>/report` every
// interval. Connections are opened in batches and first reports spread over the first interval,
// so thousands of devices neither storm the broker at start nor report in lockstep. With
// `answerCommands` each device also takes remote-control commands on `devices/<id>/command` and
// acknowledges them after a short delay: a new set point or report interval changes what it
// reports, and a reboot keeps it silent for a while.
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt, { type MqttClient } from 'mqtt';
import { commandAckTopic, commandMessageSchema, commandTopic, type CommandMessage } from '@iotc/shared/command';
import { createDevice, DEFAULT_SEED, step, type DeviceKind, type DeviceProfile, type SimDevice } from './models.ts';
import { generator, mix } from './random.ts';

/** The logging the simulator needs; a pino or Fastify logger fits. */
export interface SimLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface SimulatedDevice {
  deviceId: string;
  secret: string;
  /** Without a kind the device gets one by the fleet shares (see models.ts). */
  kind?: DeviceKind;
  profile?: DeviceProfile;
}

export interface SimulatorOptions {
  mqttUrl: string;
  devices: readonly SimulatedDevice[];
  intervalMs: number;
  seed?: number;
  log?: SimLogger;
  /** Each interval varies by up to ±jitter/2 of itself (default 0.1), so devices drift apart. */
  jitter?: number;
  /** Connections opened at a time (default 200). */
  connectBatch?: number;
  /** The clock the reports are stamped with (default Date.now). */
  clock?: () => number;
  /** Take remote-control commands and acknowledge them (the demo does; load runs do not). */
  answerCommands?: boolean;
}

export interface SimulatorStats {
  devices: number;
  connected: number;
  /** Devices the broker turned away (wrong id or secret); they are not retried. */
  refused: number;
  /** Reports published. */
  sent: number;
  /** Reports the broker acknowledged (the server has stored them). */
  acked: number;
  /**
   * Reports lost: due while the device was offline, dropped because the broker had not yet
   * acknowledged the device's last MAX_IN_FLIGHT, or answered with an error.
   */
  failed: number;
}

export interface Simulator {
  stop(): Promise<void>;
  stats(): SimulatorStats;
}

const RECONNECT_MS = 3000;
/** The longest a batch of connections holds up the next one, when the broker is slow or away. */
const BATCH_WAIT_MS = 5000;
/** How long stop() waits for reports in flight to be acknowledged. */
const STOP_GRACE_MS = 2000;
/** Unacknowledged reports a device holds before it drops new ones: a slow server must not fill memory. */
const MAX_IN_FLIGHT = 10;
/** MQTT 3.1.1 and 5 CONNACK codes for a bad user name or password, or not authorised. */
const REFUSAL_CODES = new Set([4, 5, 134, 135]);

const silent: SimLogger = { info: () => {}, warn: () => {} };

const isRefusal = (err: Error) => REFUSAL_CODES.has((err as Error & { code?: unknown }).code as number);

/** Logs connection errors at most every 10 s, counted, instead of one line per device per retry. */
function connectionErrorDigest(log: SimLogger) {
  let count = 0;
  let lastLogged = 0;
  return (err: Error) => {
    count++;
    if (Date.now() - lastLogged < 10_000) return;
    log.warn({ errors: count, example: err.message }, 'simulator: MQTT connection errors, retrying');
    count = 0;
    lastLogged = Date.now();
  };
}

/** Waits for `p`, or at most `ms`; the timer never keeps the process alive on its own. */
async function settledOrTimeout(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  await Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

interface Link {
  sim: SimDevice;
  client: MqttClient;
  timer?: NodeJS.Timeout;
  inFlight: number;
  /** The report interval a command set, instead of the simulator's. */
  intervalMs?: number;
  /** After a reboot command: no reports until then (clock time). */
  silentUntil?: number;
}

/** How long a device takes to carry out a command before it acknowledges it. */
const ANSWER_DELAY_MS: [number, number] = [500, 3000];
/** How long a rebooting device reports nothing. */
const REBOOT_SILENCE_MS = 10_000;

export function startSimulator(opts: SimulatorOptions): Simulator {
  const seed = opts.seed ?? DEFAULT_SEED;
  const log = opts.log ?? silent;
  const clock = opts.clock ?? Date.now;
  const jitter = opts.jitter ?? 0.1;
  const batchSize = opts.connectBatch ?? 200;
  // Timing only (spread and jitter); the reports themselves come from the models.
  const random = generator(mix(seed, opts.devices.length));
  const counts = { sent: 0, acked: 0, failed: 0, refused: 0 };
  const links: Link[] = [];
  let stopping = false;
  const noteConnectionError = connectionErrorDigest(log);

  function publish(link: Link) {
    if (link.silentUntil !== undefined && clock() < link.silentUntil) return;
    if (!link.client.connected || link.inFlight >= MAX_IN_FLIGHT) {
      counts.failed++;
      return;
    }
    const payload = JSON.stringify(step(link.sim, clock()));
    counts.sent++;
    link.inFlight++;
    link.client.publish(`devices/${link.sim.deviceId}/report`, payload, { qos: 1 }, (err) => {
      link.inFlight--;
      if (err) counts.failed++;
      else counts.acked++;
    });
  }

  function schedule(link: Link, delayMs: number) {
    // A connection that completes while stopping must not start reporting.
    if (stopping) return;
    link.timer = setTimeout(() => {
      publish(link);
      schedule(link, (link.intervalMs ?? opts.intervalMs) * (1 + (random() - 0.5) * jitter));
    }, delayMs);
  }

  /** Carries out a command (what the device reports from now on) and acknowledges it after a short delay. */
  function answer(link: Link, command: CommandMessage) {
    const delay = ANSWER_DELAY_MS[0] + random() * (ANSWER_DELAY_MS[1] - ANSWER_DELAY_MS[0]);
    const timer = setTimeout(() => {
      if (stopping) return;
      const params = command.params;
      if (command.kind === 'set_point' && typeof params.celsius === 'number') {
        const setPointC = params.celsius;
        link.sim = link.sim.kind === 'container' ? { ...link.sim, setPointC } : link.sim.kind === 'vehicle' ? { ...link.sim, setPointC, frozen: setPointC < 0 } : { ...link.sim, setPointC, freezer: setPointC < 0 };
      } else if (command.kind === 'report_interval' && typeof params.seconds === 'number') {
        link.intervalMs = params.seconds * 1000;
        clearTimeout(link.timer);
        schedule(link, link.intervalMs);
      } else if (command.kind === 'reboot') {
        link.silentUntil = clock() + REBOOT_SILENCE_MS;
      }
      const ack = { id: command.id, ok: true, message: 'done', time: new Date(clock()).toISOString() };
      link.client.publish(commandAckTopic(link.sim.deviceId), JSON.stringify(ack), { qos: 1 }, (err) => {
        if (err) log.warn({ deviceId: link.sim.deviceId, err: err.message }, 'simulator: a command acknowledgement was lost');
      });
    }, delay);
    timer.unref();
  }

  /** Opens one device's connection; resolves at its first outcome (connected, refused or failed). */
  function open(device: SimulatedDevice): Promise<void> {
    const client = mqtt.connect(opts.mqttUrl, {
      clientId: `sim-${device.deviceId}`,
      username: device.deviceId,
      password: device.secret,
      clean: true,
      reconnectPeriod: RECONNECT_MS,
      // A "server unavailable" answer is retried like a lost connection; refusals are handled below.
      reconnectOnConnackError: true,
    });
    const link: Link = { sim: createDevice({ deviceId: device.deviceId, seed, kind: device.kind, profile: device.profile }), client, inFlight: 0 };
    links.push(link);
    return new Promise((settled) => {
      client.on('connect', () => {
        settled();
        // A clean session: subscribe again on every connect.
        if (opts.answerCommands) client.subscribe(commandTopic(device.deviceId), { qos: 1 });
        // The first report at a random moment of the first interval; later ones every interval.
        if (!link.timer) schedule(link, random() * opts.intervalMs);
      });
      client.on('error', (err) => {
        settled();
        if (!isRefusal(err)) return noteConnectionError(err);
        counts.refused++;
        log.warn({ deviceId: device.deviceId, reason: err.message }, 'simulator: the broker refused the device; not retrying it');
        clearTimeout(link.timer);
        client.end(true);
      });
      client.on('close', () => settled());
      if (opts.answerCommands) {
        client.on('message', (topic, payload) => {
          if (topic !== commandTopic(device.deviceId)) return;
          let body: unknown;
          try {
            body = JSON.parse(payload.toString('utf8'));
          } catch {
            return;
          }
          const command = commandMessageSchema.safeParse(body);
          if (command.success) answer(link, command.data);
        });
      }
    });
  }

  async function connectAll() {
    for (let i = 0; i < opts.devices.length && !stopping; i += batchSize) {
      await settledOrTimeout(Promise.all(opts.devices.slice(i, i + batchSize).map(open)), BATCH_WAIT_MS);
    }
  }

  log.info({ devices: opts.devices.length, intervalMs: opts.intervalMs }, 'simulator: starting');
  void connectAll();

  async function stop() {
    stopping = true;
    for (const link of links) clearTimeout(link.timer);
    // Let reports already sent be acknowledged, but do not hang on a broker that is gone.
    const deadline = Date.now() + STOP_GRACE_MS;
    while (links.some((l) => l.inFlight > 0) && Date.now() < deadline) await sleep(20);
    await Promise.all(links.map((l) => l.client.endAsync(true)));
    log.info({ sent: counts.sent, acked: counts.acked, failed: counts.failed }, 'simulator: stopped');
  }

  let stopped: Promise<void> | undefined;
  return {
    stats: () => ({
      devices: opts.devices.length,
      connected: links.filter((l) => l.client.connected).length,
      refused: counts.refused,
      sent: counts.sent,
      acked: counts.acked,
      failed: counts.failed,
    }),
    // Idempotent: a second Ctrl-C, or a test's cleanup, waits for the same stop.
    stop: () => (stopped ??= stop()),
  };
}
