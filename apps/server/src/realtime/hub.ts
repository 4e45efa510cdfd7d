// The browsers' live channel: GET /api/iot/v2/live upgrades to a WebSocket, authenticated by
// the access token (the `access_token` query value, since browsers cannot set headers on a
// WebSocket). Each socket receives the device states (and, with alarm:read, the alarms; with
// transport:read, the transport task changes) of its user's organisation tree, and its user's own inbox news: states with several updates of one device between two flushes
// coalesced into the newest, flushed every FLUSH_MS; alarms and task changes on the next turn of
// the event loop (a socket that reads slowly gets the newest row of each at a later flush). The session is
// checked again every RECHECK_MS; a signed-out user's socket closes.
// A browser may narrow what it receives with a subscribe message (LiveSubscribe: states of all
// or of some devices, alarms, tasks); until it sends one it gets everything it may read, as before
// subscriptions existed. A malformed message closes the socket with 4400.
import type { FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import type { AlarmRow } from '@iotc/shared/alarm';
import {
  CLOSE_BAD_MESSAGE,
  CLOSE_FORBIDDEN,
  CLOSE_UNAUTHORISED,
  LIVE_API,
  liveSubscribeSchema,
  type DeviceState,
  type LiveMessage,
  type LiveTopics,
  type TaskChange,
} from '@iotc/shared/live';
import type { Db } from '../db/client.ts';
import type { DatabaseAvailability } from '../db/availability.ts';
import type { EventBus } from './bus.ts';
import type { Sessions } from '../lib/caller.ts';

const FLUSH_MS = 100;
const RECHECK_MS = 60_000;
/** A browser that reads slower than this much queued output skips flushes (its updates coalesce). */
const MAX_BUFFERED = 4 * 1024 * 1024;

/** What a socket receives: states of every device (true), of some (their row ids) or none; alarms and task changes or not. */
interface Wants {
  states: boolean | Set<string>;
  alarms: boolean;
  tasks: boolean;
  inbox: boolean;
}
/** A socket that has not subscribed gets everything it may read. */
const EVERYTHING: Wants = { states: true, alarms: true, tasks: true, inbox: true };

function wantsOf(topics: LiveTopics): Wants {
  const states = topics.states === undefined ? false : topics.states === true ? true : new Set(topics.states.devices);
  return { states, alarms: topics.alarms === true, tasks: topics.tasks === true, inbox: topics.inbox === true };
}

/** Changes of one task coalesce into the newest; an organisation's import is one entry. */
const changeKey = (c: TaskChange) => c.id ?? `org:${c.orgId}`;

const wantsState = (w: Wants, s: DeviceState) => (w.states === true ? true : w.states === false ? false : w.states.has(s.id));

interface Client {
  socket: WebSocket;
  token: string;
  /** The signed-in user: their inbox news comes to their sockets only. */
  userId: string;
  scope: Set<string>;
  /** The user may read alarms (alarm:read). */
  alarms: boolean;
  /** The user may read transport tasks (transport:read). */
  tasks: boolean;
  wants: Wants;
  pending: Map<string, DeviceState>;
  pendingAlarms: Map<string, AlarmRow>;
  pendingTasks: Map<string, TaskChange>;
  /** Inbox news waiting for the next turn (one message however many arrived). */
  pendingInbox: boolean;
}

interface Admission {
  userId: string;
  scope: Set<string>;
  alarms: boolean;
  tasks: boolean;
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
    const granted = caller.permissions;
    if (!granted.includes('device:read')) return CLOSE_FORBIDDEN;
    return { userId: caller.userId, scope: new Set(caller.scope.orgs), alarms: granted.includes('alarm:read'), tasks: granted.includes('transport:read') };
  }

  const unsubscribe = opts.bus.subscribe((event) => {
    if (event.type === 'device-states') {
      for (const c of clients) if (c.wants.states) for (const s of event.states) if (c.scope.has(s.orgId) && wantsState(c.wants, s)) c.pending.set(s.id, s);
    } else if (event.type === 'alarms') {
      for (const c of clients) if (c.alarms && c.wants.alarms) for (const a of event.alarms) if (c.scope.has(a.orgId)) c.pendingAlarms.set(a.id, a);
      // Alarms are few and urgent: they go out on the next turn, not at the next flush.
      if (!alarmFlush) alarmFlush = setImmediate(flushAlarms);
    } else if (event.type === 'task-changes') {
      for (const c of clients) if (c.tasks && c.wants.tasks) for (const t of event.changes) if (c.scope.has(t.orgId)) c.pendingTasks.set(changeKey(t), t);
      // Few, and a person is often waiting for them (the task they just moved): like alarms.
      if (!alarmFlush) alarmFlush = setImmediate(flushAlarms);
    } else if (event.type === 'inbox') {
      const users = new Set(event.userIds);
      for (const c of clients) if (c.wants.inbox && users.has(c.userId)) c.pendingInbox = true;
      // A person waits for the bell like for an alarm.
      if (!alarmFlush) alarmFlush = setImmediate(flushAlarms);
    }
  });

  let alarmFlush: NodeJS.Immediate | null = null;
  /** Alarms, task changes and inbox news. */
  function flushAlarms() {
    alarmFlush = null;
    for (const c of clients) {
      if (c.socket.bufferedAmount > MAX_BUFFERED) continue;
      if (c.pendingAlarms.size) {
        const data = [...c.pendingAlarms.values()];
        c.pendingAlarms.clear();
        send(c, { type: 'alarms', data });
      }
      if (c.pendingTasks.size) {
        const data = [...c.pendingTasks.values()];
        c.pendingTasks.clear();
        send(c, { type: 'task-changes', data });
      }
      if (c.pendingInbox) {
        c.pendingInbox = false;
        send(c, { type: 'inbox', data: { at: new Date().toISOString() } });
      }
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
          c.tasks = a.tasks;
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
    // A subscription may arrive before the admission ends (the browser sends it on open): it is
    // kept and applied once admitted, whose hello then stands for its acknowledgement.
    let wants = EVERYTHING;
    let client: Client | null = null;
    socket.on('message', (raw, isBinary) => {
      let parsed: unknown;
      try {
        parsed = isBinary ? undefined : JSON.parse(String(raw));
      } catch {
        parsed = undefined;
      }
      const msg = liveSubscribeSchema.safeParse(parsed);
      if (!msg.success) return socket.close(CLOSE_BAD_MESSAGE, 'bad message');
      wants = wantsOf(msg.data.topics);
      if (!client) return;
      client.wants = wants;
      // What was waiting for the next flush follows the new subscription too.
      for (const s of client.pending.values()) if (!wantsState(wants, s)) client.pending.delete(s.id);
      if (!wants.alarms) client.pendingAlarms.clear();
      if (!wants.tasks) client.pendingTasks.clear();
      if (!wants.inbox) client.pendingInbox = false;
      send(client, { type: 'subscribed', data: { id: msg.data.id ?? 0 } });
    });
    admit(token).then(
      (a) => {
        if (typeof a === 'number') return socket.close(a, a === CLOSE_FORBIDDEN ? 'no permission' : 'session invalid');
        if (socket.readyState !== socket.OPEN) return;
        const admitted: Client = {
          socket,
          token,
          userId: a.userId,
          scope: a.scope,
          alarms: a.alarms,
          tasks: a.tasks,
          wants,
          pending: new Map(),
          pendingAlarms: new Map(),
          pendingTasks: new Map(),
          pendingInbox: false,
        };
        client = admitted;
        clients.add(admitted);
        socket.on('close', () => clients.delete(admitted));
        send(admitted, { type: 'hello', data: { offlineAfterMs: opts.offlineAfterMs } });
      },
      (err: unknown) => {
        app.log.error({ err }, 'live socket admission failed');
        socket.close(1011, 'server error');
      },
    );
    socket.on('error', (err) => app.log.debug({ err }, 'live socket error'));
  });
  /** Browsers connected now (admitted sockets), for the metrics. */
  return { clientCount: () => clients.size };

}
