// Live events between the intake and the browsers' WebSockets. In one process an in-memory
// emitter carries them; several API nodes share them through Redis pub/sub (REDIS_URL), so a
// browser connected to one node sees what another node stored or raised, and a change of a
// cached configuration (alarm policies, push rules, tasks, JT/T 808 item mappings) on one node
// reaches every node's cache.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { AlarmRow } from '@iotc/shared/alarm';
import type { CommandMessage } from '@iotc/shared/command';
import type { DeviceState, TaskChange } from '@iotc/shared/live';

/** What a node keeps cached and every node must read again after a change on any of them. */
export type CachedConfig = 'alarm-policies' | 'push-rules' | 'transport-tasks' | 'jt808-models' | 'map-tiles';

export type LiveEvent =
  | { type: 'device-states'; states: DeviceState[] }
  | { type: 'alarms'; alarms: AlarmRow[] }
  /** Transport tasks created, edited or moved (modules/transport/live.ts). */
  | { type: 'task-changes'; changes: TaskChange[] }
  /** Something arrived in these users' inboxes (modules/inbox): to their own sockets only. */
  | { type: 'inbox'; userIds: string[] }
  /** Between nodes, not for browsers: a cached configuration changed. */
  | { type: 'invalidate'; cache: CachedConfig }
  /** Between nodes, not for browsers: the node holding JT/T 808 terminal `deviceId`'s connection delivers the command. */
  | { type: 'jt808-command'; deviceId: string; message: CommandMessage }
  /** Between nodes, not for browsers: the node holding the terminal's connection sends 0x8203 confirming these alarm bits. */
  | { type: 'jt808-alarm-confirm'; deviceId: string; alarms: number };

export interface EventBus {
  /** To every node's listeners (this node's included, once). */
  publish(event: LiveEvent): void;
  /**
   * To this node's listeners only: for work every node does by itself with the same result
   * (the offline sweep), which would otherwise reach each browser once per node.
   */
  publishLocal(event: LiveEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
  close(): Promise<void>;
}

export function localBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (event) => void emitter.emit('event', event),
    publishLocal: (event) => void emitter.emit('event', event),
    subscribe(listener) {
      emitter.on('event', listener);
      return () => emitter.off('event', listener);
    },
    close: async () => void emitter.removeAllListeners(),
  };
}

/** The Redis channel the nodes share; one channel, every node hears every event. */
export const REDIS_CHANNEL = 'iotc:live';

interface Logger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * Live events shared by several nodes through Redis pub/sub: one connection publishes, one
 * listens. An event is handed to this node's listeners at once (no round trip on the hot path)
 * and sent to the channel tagged with this bus's id, so the echo that comes back is skipped and
 * each listener gets each event once. Both connections reconnect by themselves (ioredis
 * resubscribes). Events are live updates, not a log: while Redis is unreachable other nodes'
 * events are missed and this node's are not queued (the browsers' next state or a reload
 * catches up), so an outage costs no memory; it is logged once when it starts and when it ends.
 */
export function redisBus(url: string, opts: { log?: Logger; channel?: string } = {}): EventBus {
  const channel = opts.channel ?? REDIS_CHANNEL;
  const self = randomUUID();
  // This node's listeners: the in-process bus; Redis carries events to and from the other nodes.
  const local = localBus();
  const deliver = local.publish;
  // No offline queue on the publisher: an event that cannot go now is dropped, not piled up.
  const pub = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const sub = new Redis(url, { maxRetriesPerRequest: null });
  let dropped = 0;
  let down = false;
  const onError = (err: Error) => {
    if (down) return;
    down = true;
    opts.log?.warn({ err: err.message }, 'Redis unreachable: live events of other nodes are missed until it is back');
  };
  pub.on('error', onError);
  sub.on('error', onError);
  sub.on('ready', () => {
    if (!down) return;
    down = false;
    opts.log?.info({ dropped }, 'Redis reachable again: live events are shared again');
    dropped = 0;
  });
  void sub.subscribe(channel).catch(onError);
  sub.on('message', (ch: string, text: string) => {
    if (ch !== channel) return;
    let msg: { from?: string; event?: LiveEvent };
    try {
      msg = JSON.parse(text) as { from?: string; event?: LiveEvent };
    } catch {
      return;
    }
    if (msg.from !== self && msg.event) deliver(msg.event);
  });
  return {
    publish(event) {
      deliver(event);
      if (pub.status !== 'ready') {
        dropped++;
        return;
      }
      pub.publish(channel, JSON.stringify({ from: self, event })).catch((err: Error) => {
        dropped++;
        onError(err);
      });
    },
    publishLocal: deliver,
    subscribe: local.subscribe,
    async close() {
      await local.close();
      // A polite QUIT on a connection that is not up would wait for it forever (Redis away at
      // shutdown): such a connection is dropped instead.
      const end = (c: Redis) => (c.status === 'ready' ? c.quit().then(() => undefined, () => c.disconnect()) : c.disconnect());
      await Promise.all([end(pub), end(sub)]);
    },
  };
}
