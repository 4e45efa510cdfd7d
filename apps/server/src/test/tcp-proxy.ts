// A TCP proxy for outage tests: the app talks to PostgreSQL through it, and `cut()` takes the
// database away without stopping the machine's PostgreSQL (other tests use it). Cut, every open
// connection is dropped and new ones are either reset at once (`refuse`: a database that is
// stopped) or accepted and left without an answer (`blackhole`: a network that swallows packets,
// the case only time-outs end). `restore()` lets connections through again.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type CutMode = 'refuse' | 'blackhole';

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  cut(mode?: CutMode): void;
  restore(): void;
  /** Connections accepted so far (forwarded or not). */
  readonly accepted: number;
  close(): Promise<void>;
}

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: CutMode | null = null;
  let accepted = 0;
  const open = new Set<Socket>();
  const held = new Set<Socket>();

  const server: Server = createServer((client) => {
    accepted++;
    client.on('error', () => undefined);
    if (mode === 'refuse') return void client.resetAndDestroy();
    if (mode === 'blackhole') {
      held.add(client);
      client.on('close', () => held.delete(client));
      return;
    }
    const upstream = createConnection(target);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
    open.add(client);
    open.add(upstream);
    client.on('close', () => open.delete(client));
    upstream.on('close', () => open.delete(upstream));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut(m = 'blackhole') {
      mode = m;
      for (const s of open) s.destroy();
      open.clear();
    },
    restore() {
      mode = null;
      for (const s of held) s.destroy();
      held.clear();
    },
    get accepted() {
      return accepted;
    },
    close: async () => {
      mode = 'refuse';
      for (const s of [...open, ...held]) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
