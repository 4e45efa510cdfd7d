// The browsers' live channel: GET /api/iot/v2/live upgrades to a WebSocket, authenticated by
// the access token (the `access_token` query value, since browsers cannot set headers on a
// WebSocket). Each socket receives the device states of its user's organisation tree, several
// updates of one device between two flushes coalesced into the newest, flushed every
// FLUSH_MS. The session is checked again every RECHECK_MS; a signed-out user's socket closes.
import type { FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { LIVE_API, type DeviceState, type LiveMessage } from '@iotc/shared/live';
import type { Db } from '../db/client.ts';
import { orgTree } from '../db/list.ts';
import type { AuthService } from '../modules/auth/service.ts';
import type { EventBus } from './bus.ts';

const FLUSH_MS = 100;
const RECHECK_MS = 60_000;
/** A browser that reads slower than this much queued output skips flushes (its updates coalesce). */
const MAX_BUFFERED = 4 * 1024 * 1024;

/** Close codes: 4401 no or expired session, 4403 no permission. */
export const CLOSE_UNAUTHORISED = 4401;
export const CLOSE_FORBIDDEN = 4403;

interface Client {
  socket: WebSocket;
  token: string;
  scope: Set<string>;
  pending: Map<string, DeviceState>;
}

export async function liveHub(app: FastifyInstance, opts: { db: Db; auth: AuthService; bus: EventBus; offlineAfterMs: number }) {
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  const clients = new Set<Client>();

  /** The caller's organisation tree, or a close code. */
  async function admit(token: string): Promise<Set<string> | number> {
    const caller = token ? await opts.auth.authenticate(token) : null;
    if (!caller) return CLOSE_UNAUTHORISED;
    if (!(await opts.auth.permissionsOf(caller)).includes('device:read')) return CLOSE_FORBIDDEN;
    return new Set(await orgTree(opts.db, caller.orgId));
  }

  const unsubscribe = opts.bus.subscribe((event) => {
    if (event.type !== 'device-states') return;
    for (const c of clients) for (const s of event.states) if (c.scope.has(s.orgId)) c.pending.set(s.id, s);
  });

  const send = (c: Client, msg: LiveMessage) => c.socket.send(JSON.stringify(msg));
  const flush = setInterval(() => {
    for (const c of clients) {
      if (c.pending.size === 0 || c.socket.bufferedAmount > MAX_BUFFERED) continue;
      const data = [...c.pending.values()];
      c.pending.clear();
      send(c, { type: 'device-states', data });
    }
  }, FLUSH_MS);
  const recheck = setInterval(() => {
    for (const c of clients) {
      admit(c.token).then(
        (scope) => (typeof scope === 'number' ? c.socket.close(scope, 'session ended') : (c.scope = scope)),
        (err: unknown) => app.log.warn({ err }, 'live session check failed'),
      );
    }
  }, RECHECK_MS);
  flush.unref();
  recheck.unref();

  app.addHook('onClose', async () => {
    clearInterval(flush);
    clearInterval(recheck);
    unsubscribe();
    for (const c of clients) c.socket.close(1001, 'server stopping');
  });

  app.get(LIVE_API.ws, { websocket: true, schema: { hide: true } }, (socket, req) => {
    const token = String((req.query as Record<string, unknown>)['access_token'] ?? '');
    admit(token).then(
      (scope) => {
        if (typeof scope === 'number') return socket.close(scope, scope === CLOSE_FORBIDDEN ? 'no permission' : 'session invalid');
        if (socket.readyState !== socket.OPEN) return;
        const client: Client = { socket, token, scope, pending: new Map() };
        clients.add(client);
        socket.on('close', () => clients.delete(client));
        send(client, { type: 'hello', data: { offlineAfterMs: opts.offlineAfterMs } });
      },
      (err: unknown) => {
        app.log.error({ err }, 'live socket admission failed');
        socket.close(1011, 'server error');
      },
    );
    // The channel is one-way; anything a browser sends is ignored.
    socket.on('error', (err) => app.log.debug({ err }, 'live socket error'));
  });

}
