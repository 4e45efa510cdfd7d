// The device link: an embedded MQTT broker (Aedes) by default, or a client of an external
// broker when MQTT_URL is set. Devices publish to `devices/<deviceId>/report` (QoS 1). On the
// embedded broker a device signs in with its id and secret and may publish only to its own
// topic; the broker acknowledges a report after the intake has stored it. With an external
// broker, the broker authenticates devices and the server subscribes to every device's topic.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';
import mqtt from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { MAX_REPORTS_PER_CALL } from '@iotc/shared/device';
import { reportList, type ReportingDevice } from './pipeline.ts';

export interface MqttLink {
  mode: 'embedded' | 'external';
  /** Port the embedded broker listens on. */
  port?: number;
  /** Resolves once the link is up: at once for the embedded broker, on first connect for an external one. */
  ready: Promise<void>;
  close(): Promise<void>;
}

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
}): Promise<MqttLink> {
  const sink = opts.sink;
  if (opts.url) {
    const client = mqtt.connect(opts.url, { clientId: `iotc-${process.pid}-${Date.now()}`, reconnectPeriod: 2000, clean: true });
    client.on('error', (err) => opts.log.warn({ err: err.message }, 'MQTT broker connection error'));
    const ready = new Promise<void>((resolve) =>
      client.on('connect', () => {
        opts.log.info({ url: redact(opts.url!) }, 'connected to the MQTT broker');
        if (!sink) return resolve();
        client.subscribe('devices/+/report', { qos: 1 }, () => resolve());
      }),
    );
    if (sink) {
      client.on('message', (topic, payload) => {
        const deviceId = REPORT_TOPIC.exec(topic)?.[1];
        if (!deviceId) return;
        void (async () => {
          const device = await sink.deviceOf(deviceId);
          if (!device) return sink.refuse('mqtt', deviceId, 'unknown device', payload.toString('utf8').slice(0, 2000));
          await deliver(sink, device, payload);
        })().catch((err: unknown) => opts.log.error({ err, topic }, 'MQTT report failed'));
      });
    }
    return { mode: 'external', ready, close: () => client.endAsync().then(() => undefined) };
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
    // A device publishes its own reports only; the acknowledgement (QoS 1) waits until they are stored.
    authorizePublish: (client, packet, done) => {
      const device = client ? deviceOfClient.get(client) : undefined;
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
    // Devices do not read each other's reports.
    authorizeSubscribe: (_client, _sub, done) => done(null, null),
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
