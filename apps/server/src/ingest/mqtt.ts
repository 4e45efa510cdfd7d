// The device link: an embedded MQTT broker (Aedes) by default, or a client of an external
// broker when MQTT_URL is set. Devices publish to `devices/<deviceId>/report` (QoS 1). On the
// embedded broker a device signs in with its id and secret and may publish only to its own
// topic; the broker acknowledges a report after the intake has stored it. With an external
// broker, the broker authenticates devices and the server subscribes to every device's topic.
// Remote control (shared/command.ts): the link publishes commands to `devices/<id>/command` and
// hands acknowledgements from `devices/<id>/command/ack` to the command service; on the embedded
// broker a device may subscribe only to its own command topic and publish only its own acks.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';
import mqtt from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { MAX_REPORTS_PER_CALL } from '@iotc/shared/device';
import { COMMAND_ACK_TOPIC, commandTopic } from '@iotc/shared/command';
import { reportList, type ReportingDevice } from './pipeline.ts';

export interface MqttLink {
  mode: 'embedded' | 'external';
  /** Port the embedded broker listens on. */
  port?: number;
  /** Resolves once the link is up: at once for the embedded broker, on first connect for an external one. */
  ready: Promise<void>;
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
}

export const REPORT_TOPIC = /^devices\/([^/]+)\/report$/;

/** Parses one MQTT payload (one report or an array) and hands it to the intake; refusals go to the intake log. */
async function deliver(sink: ReportSink, device: ReportingDevice, payload: Buffer) {
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
  sink?: ReportSink;
  /** Where command acknowledgements go; without it they are dropped. */
  commandAcks?: CommandAckSink;
}): Promise<MqttLink> {
  const sink = opts.sink;
  const acks = opts.commandAcks;
  /** Hands an acknowledgement over; a failure is logged and the acknowledgement dropped. */
  const takeAck = (deviceId: string, payload: Buffer) =>
    (acks ? acks(deviceId, payload) : Promise.resolve()).catch((err: unknown) => opts.log.error({ err, deviceId }, 'MQTT command acknowledgement failed'));
  if (opts.url) {
    const client = mqtt.connect(opts.url, { clientId: `iotc-${process.pid}-${Date.now()}`, reconnectPeriod: 2000, clean: true });
    client.on('error', (err) => opts.log.warn({ err: err.message }, 'MQTT broker connection error'));
    const ready = new Promise<void>((resolve) =>
      client.on('connect', () => {
        opts.log.info({ url: redact(opts.url!) }, 'connected to the MQTT broker');
        const topics = [...(sink ? ['devices/+/report'] : []), ...(acks ? ['devices/+/command/ack'] : [])];
        if (topics.length === 0) return resolve();
        client.subscribe(topics, { qos: 1 }, () => resolve());
      }),
    );
    if (sink || acks) {
      client.on('message', (topic, payload) => {
        const ackOf = COMMAND_ACK_TOPIC.exec(topic)?.[1];
        if (ackOf) return void takeAck(ackOf, payload);
        const deviceId = REPORT_TOPIC.exec(topic)?.[1];
        if (!deviceId || !sink) return;
        void (async () => {
          const device = await sink.deviceOf(deviceId);
          if (!device) return sink.refuse('mqtt', deviceId, 'unknown device', payload.toString('utf8').slice(0, 2000));
          await deliver(sink, device, payload);
        })().catch((err: unknown) => opts.log.error({ err, topic }, 'MQTT report failed'));
      });
    }
    return {
      mode: 'external',
      ready,
      sendCommand: async (deviceId, message) => {
        if (!client.connected) throw new Error('not connected to the MQTT broker');
        await client.publishAsync(commandTopic(deviceId), message, { qos: 1 });
      },
      close: () => client.endAsync().then(() => undefined),
    };
  }

  const check = opts.authenticate ?? (async () => null);
  const deviceOfClient = new WeakMap<object, ReportingDevice>();
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      check(username ?? '', password?.toString('utf8') ?? '').then(
        (device) => {
          if (device) {
            deviceOfClient.set(client, device);
            return done(null, true);
          }
          const err = new Error('bad user name or password') as AuthenticateError;
          err.returnCode = 4;
          done(err, false);
        },
        () => {
          const err = new Error('server unavailable') as AuthenticateError;
          err.returnCode = 3;
          done(err, false);
        },
      );
    },
    // A device publishes its own reports and command acknowledgements only; the broker's
    // acknowledgement (QoS 1) waits until they are stored.
    authorizePublish: (client, packet, done) => {
      const device = client ? deviceOfClient.get(client) : undefined;
      const ackDevice = COMMAND_ACK_TOPIC.exec(packet.topic)?.[1];
      if (device && ackDevice === device.deviceId) {
        void takeAck(device.deviceId, packet.payload as Buffer).then(() => done(null));
        return;
      }
      const topicDevice = REPORT_TOPIC.exec(packet.topic)?.[1];
      if (!device || topicDevice !== device.deviceId) return done(new Error('not authorised to publish here'));
      if (!sink) return done(null);
      deliver(sink, device, packet.payload as Buffer).then(
        () => done(null),
        (err: Error) => {
          // Not acknowledged: the device sends the report again.
          opts.log.error({ err, deviceId: device.deviceId }, 'MQTT report failed');
          done(err);
        },
      );
    },
    // A device reads its own commands only, never other devices' reports or commands.
    authorizeSubscribe: (client, sub, done) => {
      const device = client ? deviceOfClient.get(client) : undefined;
      done(null, device && sub.topic === commandTopic(device.deviceId) ? sub : null);
    },
  });
  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    mode: 'embedded',
    port,
    ready: Promise.resolve(),
    sendCommand: (deviceId, message) =>
      new Promise<void>((resolve, reject) =>
        broker.publish({ cmd: 'publish', topic: commandTopic(deviceId), payload: Buffer.from(message), qos: 1, retain: false, dup: false }, (err) => (err ? reject(err) : resolve())),
      ),
    close: async () => {
      await new Promise<void>((r) => broker.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
