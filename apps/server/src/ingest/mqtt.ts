// The device link: an embedded MQTT broker (Aedes) by default, or a client of an external
// broker when MQTT_URL is set. Devices publish to `devices/<deviceId>/report` (QoS 1). On the
// embedded broker a device signs in with its id and secret and may publish only to its own
// topic; the broker acknowledges a report after the intake has stored it. With an external
// broker, the broker authenticates devices and the server subscribes to every device's topic:
// as one node of several, through a shared subscription (each report to one node), with a
// persistent session and the acknowledgement sent after the report is stored (see externalLink).
// Remote control (shared/command.ts): the link publishes commands to `devices/<id>/command` and
// hands acknowledgements from `devices/<id>/command/ack` to the command service; on the embedded
// broker a device may subscribe only to its own command topic and publish only its own acks.
import { isUtf8 } from 'node:buffer';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';
import mqtt from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { MAX_REPORTS_PER_CALL } from '@iotc/shared/device';
import { COMMAND_ACK_TOPIC, commandTopic } from '@iotc/shared/command';
import { reportList, type ReportingDevice } from './pipeline.ts';
import { isUnavailable } from '../db/availability.ts';
import type { AuthFailureLimiter } from './auth-failures.ts';

/** How long closing the link waits for the reports being stored to be stored and acknowledged. */
export const EMBEDDED_DRAIN_MS = 15_000;

/** Messages being taken now (both links): closing waits for them, so their acknowledgements go out. */
function inFlightMessages() {
  const pending = new Set<Promise<void>>();
  return {
    track(p: Promise<void>) {
      pending.add(p);
      void p.finally(() => pending.delete(p));
    },
    get size() {
      return pending.size;
    },
    /** Resolves to whether every message under way settled within `ms`. */
    async settled(ms: number): Promise<boolean> {
      let timer: NodeJS.Timeout | undefined;
      const done = await Promise.race([
        Promise.allSettled([...pending]).then(() => true),
        new Promise<false>((r) => (timer = setTimeout(() => r(false), ms))),
      ]);
      clearTimeout(timer);
      return done;
    },
  };
}

export interface MqttLink {
  mode: 'embedded' | 'external';
  /** Port the embedded broker listens on. */
  port?: number;
  /** Resolves once the link is up: at once for the embedded broker, on first connect for an external one. */
  ready: Promise<void>;
  /** Whether devices' reports reach this node now: always for the embedded broker; every connection up for an external one. */
  connected(): boolean;
  /** Publishes a command (JSON text) to `devices/<deviceId>/command`, QoS 1. */
  sendCommand(deviceId: string, message: string): Promise<void>;
  close(): Promise<void>;
}

/** Takes a device's acknowledgement of a command (see shared/command.ts); never throws. */
export type CommandAckSink = (deviceId: string, payload: Buffer) => Promise<void>;

/** Where reports go: the intake pipeline (see pipeline.ts). */
export interface ReportSink {
  /** The registered device of an id, for reports an external broker has already authenticated. */
  deviceOf(deviceId: string): Promise<ReportingDevice | null>;
  ingest(device: ReportingDevice, reports: unknown[], channel: 'mqtt'): Promise<unknown>;
  refuse(channel: 'mqtt', deviceId: string | null, reason: string, payload: unknown, deviceRef?: string | null): Promise<void>;
  /** The device's message rate (ingest/device-rate.ts) on the embedded broker: resolves when the message may be taken. */
  pace?(device: ReportingDevice): Promise<void>;
}

export const REPORT_TOPIC = /^devices\/([^/]+)\/report$/;

/**
 * The MQTT versions devices may use on the embedded broker (Aedes 1.x implements 3.1 and 3.1.1;
 * an MQTT 5 CONNECT is answered CONNACK 1, "unacceptable protocol version", before its
 * credentials are read). Printed in the start banner and stated in docs/device-integration.md.
 */
export const EMBEDDED_MQTT_VERSIONS = 'MQTT 3.1.1 and 3.1; not MQTT 5';

/**
 * The largest report message taken: a full batch (MAX_REPORTS_PER_CALL, 1,000 reports) of 2 KB
 * reports, four times a tracker's usual size and twice the HTTP intake's 1 MiB body. On the
 * embedded broker a larger packet is refused as soon as its length is read, before its body is
 * buffered (the connection closes); from an external broker it is refused into the intake log
 * (set the broker's own limit too: Mosquitto's message_size_limit).
 */
export const MAX_MESSAGE_BYTES = 2 * 1_048_576;
/** The largest MQTT packet the embedded broker reads: a largest message plus its topic and headers. */
export const MAX_PACKET_BYTES = MAX_MESSAGE_BYTES + 4_096;

/** Aedes' client, down to the packet parser (mqtt-packet) it reads a connection with. */
interface ParsingClient {
  _parser: { packet: { length: number }; _parseLength(): boolean; _emitError(err: Error): void };
}

/** Makes a connection's parser refuse a packet longer than `max` as soon as its length is known. */
function capPackets(client: ParsingClient, max: number) {
  const parser = client._parser;
  const parseLength = parser._parseLength.bind(parser);
  parser._parseLength = () => {
    if (!parseLength()) return false;
    if (parser.packet.length <= max) return true;
    parser._emitError(new Error(`MQTT packet of ${parser.packet.length} bytes is over the limit of ${max}`));
    return false;
  };
}

/** Parses one MQTT payload (one report or an array) and hands it to the intake; refusals go to the intake log. */
async function deliver(sink: ReportSink, device: ReportingDevice, payload: Buffer) {
  if (payload.length > MAX_MESSAGE_BYTES) {
    await sink.refuse('mqtt', device.deviceId, `message of ${payload.length} bytes is over the limit of ${MAX_MESSAGE_BYTES}`, null, device.id);
    return;
  }
  // Not UTF-8: refused whole, as the HTTP intake refuses such a body, rather than read with replacement characters.
  if (!isUtf8(payload)) {
    await sink.refuse('mqtt', device.deviceId, 'payload is not UTF-8 text', payload.toString('utf8'), device.id);
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    await sink.refuse('mqtt', device.deviceId, 'payload is not JSON', payload.toString('utf8'), device.id);
    return;
  }
  const reports = reportList(body);
  if (!reports) {
    await sink.refuse('mqtt', device.deviceId, `more than ${MAX_REPORTS_PER_CALL} reports in one message`, null, device.id);
    return;
  }
  await sink.ingest(device, reports, 'mqtt');
}

export async function startMqtt(opts: {
  url?: string;
  port: number;
  host: string;
  log: FastifyBaseLogger;
  /** Device sign-in on the embedded broker: the device of an id and secret, or null. */
  authenticate?: (username: string, password: string) => Promise<ReportingDevice | null>;
  /** Failed sign-ins per client address on the embedded broker: past the limit an address is refused unread. */
  authFailures?: AuthFailureLimiter;
  /** The largest MQTT packet the embedded broker reads (default MAX_PACKET_BYTES); a larger one closes the connection before its body is read. */
  maxPacketBytes?: number;
  sink?: ReportSink;
  /** Where command acknowledgements go; without it they are dropped. */
  commandAcks?: CommandAckSink;
  /**
   * With an external broker, for a node of several: its stable name (NODE_ID) and the nodes'
   * shared-subscription group. Without it the link subscribes alone with a throw-away session.
   */
  node?: { id: string; shareGroup: string };
}): Promise<MqttLink> {
  const sink = opts.sink;
  const acks = opts.commandAcks;
  /** Hands an acknowledgement over; a failure is logged and the acknowledgement dropped. */
  const takeAck = (deviceId: string, payload: Buffer) =>
    (acks ? acks(deviceId, payload) : Promise.resolve()).catch((err: unknown) => opts.log.error({ err, deviceId }, 'MQTT command acknowledgement failed'));
  if (opts.url) return externalLink(opts.url, { ...opts, takeAck });

  const check = opts.authenticate ?? (async () => null);
  const deviceOfClient = new WeakMap<object, ReportingDevice>();
  // Closing drains: new publishes are refused (the device keeps them and sends them again after
  // reconnecting), those being stored are stored and acknowledged, then the devices are let go.
  let draining = false;
  const inFlight = inFlightMessages();
  const track = inFlight.track;
  const refuse = (code: AuthenticateError['returnCode'], text: string) => {
    const err = new Error(text) as AuthenticateError;
    err.returnCode = code;
    return err;
  };
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const address = (client.conn as { remoteAddress?: string } | undefined)?.remoteAddress;
      if (opts.authFailures?.blocked(address)) return done(refuse(3, 'too many failed sign-ins from this address: try again in a minute'), false);
      check(username ?? '', password?.toString('utf8') ?? '').then(
        (device) => {
          if (device) {
            // The session is the device's own, whatever client id it sent: MQTT hands an id in
            // use to the newest connection, so an id of its choosing could name another device's
            // session (another organisation's) and knock it off. Its own second connection
            // still replaces its first, as MQTT wants.
            client.id = device.deviceId;
            deviceOfClient.set(client, device);
            return done(null, true);
          }
          opts.authFailures?.failed(address);
          done(refuse(4, 'bad user name or password'), false);
        },
        () => done(refuse(3, 'server unavailable'), false),
      );
    },
    // A device publishes its own reports and command acknowledgements only; the broker's
    // acknowledgement (QoS 1) waits until they are stored.
    authorizePublish: (client, packet, done) => {
      if (draining) return done(new Error('the server is shutting down'));
      const device = client ? deviceOfClient.get(client) : undefined;
      const ackDevice = COMMAND_ACK_TOPIC.exec(packet.topic)?.[1];
      if (device && ackDevice === device.deviceId) {
        track(takeAck(device.deviceId, packet.payload as Buffer).then(() => done(null)));
        return;
      }
      const topicDevice = REPORT_TOPIC.exec(packet.topic)?.[1];
      if (!device || topicDevice !== device.deviceId) return done(new Error('not authorised to publish here'));
      if (!sink) return done(null);
      track(
        // A device over its rate waits here: its acknowledgement, and so its next message, come later.
        (sink.pace ? sink.pace(device) : Promise.resolve()).then(() => deliver(sink, device, packet.payload as Buffer)).then(
          () => done(null),
          (err: Error) => {
            // Not acknowledged: the connection closes and the device sends the report again. An
            // unreachable database is logged once, by db/availability.ts, not once per report.
            if (!isUnavailable(err)) opts.log.error({ err, deviceId: device.deviceId }, 'MQTT report failed');
            done(err);
          },
        ),
      );
    },
    // A device reads its own commands only, never other devices' reports or commands.
    authorizeSubscribe: (client, sub, done) => {
      const device = client ? deviceOfClient.get(client) : undefined;
      done(null, device && sub.topic === commandTopic(device.deviceId) ? sub : null);
    },
  });
  const maxPacket = opts.maxPacketBytes ?? MAX_PACKET_BYTES;
  // Every connection, signed in or not: the broker's close ends only the clients it has taken in.
  const sockets = new Set<Socket>();
  const server: Server = createServer((conn) => {
    sockets.add(conn);
    conn.once('close', () => sockets.delete(conn));
    capPackets(broker.handle(conn) as unknown as ParsingClient, maxPacket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    mode: 'embedded',
    port,
    ready: Promise.resolve(),
    connected: () => server.listening,
    sendCommand: (deviceId, message) =>
      new Promise<void>((resolve, reject) =>
        broker.publish({ cmd: 'publish', topic: commandTopic(deviceId), payload: Buffer.from(message), qos: 1, retain: false, dup: false }, (err) => (err ? reject(err) : resolve())),
      ),
    close: async () => {
      // No new connections, no new reports; those being stored finish and are acknowledged.
      draining = true;
      const closed = new Promise<void>((r) => server.close(() => r()));
      if (!(await inFlight.settled(EMBEDDED_DRAIN_MS))) opts.log.warn({ reports: inFlight.size }, 'MQTT: reports still being stored at close; the devices send them again');
      // One more turn so that the last acknowledgements are written before the sockets close.
      await new Promise((r) => setImmediate(r));
      await new Promise<void>((r) => broker.close(() => r()));
      // A connection that has sent no CONNECT yet, or whose sign-in is still being checked, is not
      // the broker's client yet: it would hold the server open until its own time-out (30 s for a
      // silent one), and a shutdown with it.
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/**
 * Connections a node keeps to an external broker. mqtt.js hands a connection's messages over one
 * at a time and here acknowledges each only once it is stored, so one connection stores one
 * report per database round trip; with several, the intake's group commit writes the reports
 * of all of them together (two nodes on a 2-core machine: 1,600 reports/s with 4 each, 2,500-3,200 with 16).
 */
export const EXTERNAL_CONNECTIONS = 16;
/** How long the broker keeps a node's session (and the reports routed to it) while the node is away. */
export const SESSION_EXPIRY_SECONDS = 3600;

/**
 * The link to an external broker (MQTT 5). As a node of several (`node`): the subscriptions are
 * shared (`$share/<group>/...`), so each report goes to one node; the sessions are persistent
 * under `<NODE_ID>-<n>`; and a report is acknowledged to the broker only after the intake stored
 * or refused it. A node that dies before that gets its unacknowledged reports again when it
 * comes back under the same NODE_ID (the readings table keeps one row per device and time, so a
 * report stored but not acknowledged is not stored twice). A report that could not be stored is
 * not acknowledged: the connection is dropped, and the broker sends it again after the reconnect.
 */
function externalLink(
  url: string,
  opts: {
    log: FastifyBaseLogger;
    sink?: ReportSink;
    commandAcks?: CommandAckSink;
    takeAck: (deviceId: string, payload: Buffer) => Promise<void>;
    node?: { id: string; shareGroup: string };
  },
): MqttLink {
  const { sink, log, node } = opts;
  const shared = (topic: string) => (node ? `$share/${node.shareGroup}/${topic}` : topic);
  const topics = [...(sink ? [shared('devices/+/report')] : []), ...(opts.commandAcks ? [shared('devices/+/command/ack')] : [])];

  /** Takes one message; resolves once it is stored or refused (into the intake log), rejects when it was not. */
  async function take(topic: string, payload: Buffer): Promise<void> {
    const ackOf = COMMAND_ACK_TOPIC.exec(topic)?.[1];
    if (ackOf) return opts.takeAck(ackOf, payload);
    const deviceId = REPORT_TOPIC.exec(topic)?.[1];
    if (!deviceId || !sink) return;
    const device = await sink.deviceOf(deviceId);
    if (!device) return sink.refuse('mqtt', deviceId, 'unknown device', payload.toString('utf8').slice(0, 2000));
    await deliver(sink, device, payload);
  }

  const inFlight = inFlightMessages();
  const track = inFlight.track;
  const count = node ? EXTERNAL_CONNECTIONS : 1;
  const stamp = `iotc-${process.pid}-${Date.now()}`;
  const clients = Array.from({ length: count }, (_, n) => {
    const client: mqtt.MqttClient = mqtt.connect(url, {
      protocolVersion: 5,
      clientId: node ? `${node.id}-${n}` : stamp,
      clean: !node,
      properties: { sessionExpiryInterval: node ? SESSION_EXPIRY_SECONDS : 0 },
      reconnectPeriod: 2000,
      // QoS 1: the PUBACK goes out when `done` is called, i.e. after the report is stored.
      customHandleAcks: (topic, message, _packet, done) => {
        track(
          take(topic, message).then(
            () => done(0),
            (err: unknown) => {
              // Not acknowledged. The broker sends unacknowledged messages again only on a new
              // connection (MQTT 5, 4.4), so this one is dropped; its session stays.
              const line = 'MQTT report not stored: it comes again after the reconnect';
              if (isUnavailable(err)) log.warn({ topic }, line);
              else log.error({ err, topic }, line);
              client.stream.destroy();
            },
          ),
        );
      },
    });
    // QoS 0 messages bypass the acknowledgement handler.
    client.on('message', (topic, payload, packet) => {
      if (packet.qos === 0) void take(topic, payload).catch((err: unknown) => log.error({ err, topic }, 'MQTT report failed'));
    });
    client.on('error', (err) => log.warn({ err: err.message, clientId: client.options.clientId }, 'MQTT broker connection error'));
    return client;
  });
  const ready = Promise.all(
    clients.map(
      (client) =>
        new Promise<void>((resolve) =>
          client.on('connect', () => {
            if (topics.length === 0) return resolve();
            client.subscribe(topics, { qos: 1 }, (err) => {
              if (err) log.error({ err, clientId: client.options.clientId }, 'MQTT subscription failed');
              resolve();
            });
          }),
        ),
    ),
  ).then(() => log.info({ url: redact(url), connections: count, group: node?.shareGroup, nodeId: node?.id }, 'connected to the MQTT broker'));
  return {
    mode: 'external',
    ready,
    connected: () => clients.every((c) => c.connected),
    sendCommand: async (deviceId, message) => {
      const client = clients.find((c) => c.connected);
      if (!client) throw new Error('not connected to the MQTT broker');
      await client.publishAsync(commandTopic(deviceId), message, { qos: 1 });
    },
    close: async () => {
      // Unsubscribed first, so that the broker routes the next reports to the other nodes
      // while this one is away; what it had already routed here waits in the session.
      await Promise.all(
        clients.map((c) =>
          c.connected && node && topics.length
            ? Promise.race([c.unsubscribeAsync(topics).catch(() => undefined), new Promise((r) => setTimeout(r, 2000))])
            : undefined,
        ),
      );
      if (!(await inFlight.settled(EMBEDDED_DRAIN_MS))) log.warn({ reports: inFlight.size }, 'MQTT: reports still being stored at close; the broker sends them again at the next start');
      await Promise.all(clients.map((c) => c.endAsync()));
    },
  };
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
