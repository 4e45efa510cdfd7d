// The browsers' live channel: GET /api/iot/v2/live upgrades to a WebSocket, authenticated by
// the access token (the `access_token` query value, since browsers cannot set headers on a
// WebSocket). Each socket receives the device states (and, with alarm:read, the alarms) of its
// user's organisation tree: states with several updates of one device between two flushes
// coalesced into the newest, flushed every FLUSH_MS; alarms on the next turn of the event loop
// (a socket that reads slowly gets the newest row of each at a later flush). The session is
// checked again every RECHECK_MS; a signed-out user's socket closes.
import type { FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import type { AlarmRow } from '@iotc/shared/alarm';
import { LIVE_API, type DeviceState, type LiveMessage } from '@iotc/shared/live';
import type { Db } from '../db/client.ts';
import type { DatabaseAvailability } from '../db/availability.ts';
import { orgTree } from '../db/list.ts';
import type { EventBus } from './bus.ts';
import type { Sessions } from '../lib/caller.ts';

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
  /** The user may read alarms (alarm:read). */
  alarms: boolean;
  pending: Map<string, DeviceState>;
  pendingAlarms: Map<string, AlarmRow>;
}

interface Admission {
  scope: Set<string>;
  alarms: boolean;
}

export async function liveHub(
  app: FastifyInstance,
  opts: {
    db: Db;
    auth: Sessions;
    bus: EventBus;
    offlineAfterMs: number;
    /** While the database is unreachable, sessions are checked again only after it is back. */
    availability?: DatabaseAvailability;
  },
) {
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  const clients = new Set<Client>();

  /** The caller's organisation tree and whether alarms are for them, or a close code. */
  async function admit(token: string): Promise<Admission | number> {
    const caller = token ? await opts.auth.authenticate(token) : null;
    if (!caller) return CLOSE_UNAUTHORISED;
    const granted = await opts.auth.permissionsOf(caller);
    if (!granted.includes('device:read')) return CLOSE_FORBIDDEN;
    return { scope: new Set(await orgTree(opts.db, caller.orgId)), alarms: granted.includes('alarm:read') };
  }

  const unsubscribe = opts.bus.subscribe((event) => {
    if (event.type === 'device-states') {
      for (const c of clients) for (const s of event.states) if (c.scope.has(s.orgId)) c.pending.set(s.id, s);
    } else if (event.type === 'alarms') {
      for (const c of clients) if (c.alarms) for (const a of event.alarms) if (c.scope.has(a.orgId)) c.pendingAlarms.set(a.id, a);
      // Alarms are few and urgent: they go out on the next turn, not at the next flush.
      if (!alarmFlush) alarmFlush = setImmediate(flushAlarms);
    }
  });

  let alarmFlush: NodeJS.Immediate | null = null;
  function flushAlarms() {
    alarmFlush = null;
    for (const c of clients) {
      if (c.pendingAlarms.size === 0 || c.socket.bufferedAmount > MAX_BUFFERED) continue;
      const data = [...c.pendingAlarms.values()];
      c.pendingAlarms.clear();
      send(c, { type: 'alarms', data });
    }
  }

  const send = (c: Client, msg: LiveMessage) => c.socket.send(JSON.stringify(msg));
  const flush = setInterval(() => {
    flushAlarms();
    for (const c of clients) {
      if (c.socket.bufferedAmount > MAX_BUFFERED) continue;
      if (c.pending.size) {
        const data = [...c.pending.values()];
        c.pending.clear();
        send(c, { type: 'device-states', data });
      }
    }
  }, FLUSH_MS);
  const recheck = setInterval(() => {
    // While the database is unreachable the sessions are checked after it is back, and a check
    // failing because it went away is not logged per socket (db/availability.ts logs the outage).
    const availability = opts.availability;
    if (availability?.down) return;
    for (const c of clients) {
      admit(c.token).then(
        (a) => {
          if (typeof a === 'number') return c.socket.close(a, 'session ended');
          c.scope = a.scope;
          c.alarms = a.alarms;
        },
        (err: unknown) =>
          void (availability ? availability.failed(err) : Promise.resolve(false)).then((down) => {
            if (!down) app.log.warn({ err }, 'live session check failed');
          }),
      );
    }
  }, RECHECK_MS);
  flush.unref();
  recheck.unref();

  app.addHook('onClose', async () => {
    if (alarmFlush) clearImmediate(alarmFlush);
    clearInterval(flush);
    clearInterval(recheck);
    unsubscribe();
    for (const c of clients) c.socket.close(1001, 'server stopping');
  });

  app.get(LIVE_API.ws, { websocket: true, schema: { hide: true } }, (socket, req) => {
    const token = String((req.query as Record<string, unknown>)['access_token'] ?? '');
    admit(token).then(
      (a) => {
        if (typeof a === 'number') return socket.close(a, a === CLOSE_FORBIDDEN ? 'no permission' : 'session invalid');
        if (socket.readyState !== socket.OPEN) return;
        const client: Client = { socket, token, scope: a.scope, alarms: a.alarms, pending: new Map(), pendingAlarms: new Map() };
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
  /** Browsers connected now (admitted sockets), for the metrics. */
  return { clientCount: () => clients.size };

}
