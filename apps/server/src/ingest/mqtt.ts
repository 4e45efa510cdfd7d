// The device link: an embedded MQTT broker (Aedes) by default, or a client of an external
// broker when MQTT_URL is set. Device authentication and report intake build on this.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';
import mqtt from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';

export interface MqttLink {
  mode: 'embedded' | 'external';
  /** Port the embedded broker listens on. */
  port?: number;
  /** Resolves once the link is up: at once for the embedded broker, on first connect for an external one. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Who may connect. Devices authenticate with their own id and secret; until a device is
 * registered nobody can, so the default refuses every connection with "bad user name or password".
 */
export type DeviceAuthenticator = (username: string, password: string) => Promise<boolean>;

const refuseAll: DeviceAuthenticator = async () => false;

export async function startMqtt(opts: {
  url?: string;
  port: number;
  host: string;
  log: FastifyBaseLogger;
  authenticate?: DeviceAuthenticator;
}): Promise<MqttLink> {
  if (opts.url) {
    const client = mqtt.connect(opts.url, { clientId: `iotc-${process.pid}-${Date.now()}`, reconnectPeriod: 2000 });
    client.on('error', (err) => opts.log.warn({ err: err.message }, 'MQTT broker connection error'));
    const ready = new Promise<void>((resolve) =>
      client.on('connect', () => {
        opts.log.info({ url: redact(opts.url!) }, 'connected to the MQTT broker');
        resolve();
      }),
    );
    return { mode: 'external', ready, close: () => client.endAsync().then(() => undefined) };
  }

  const check = opts.authenticate ?? refuseAll;
  const broker = await Aedes.createBroker({
    authenticate: (_client, username, password, done) => {
      check(username ?? '', password?.toString('utf8') ?? '').then(
        (okay) => {
          if (okay) return done(null, true);
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
