// Live events between the intake and the browsers' WebSockets. In one process an in-memory
// emitter carries them; several API nodes share them through Redis pub/sub (REDIS_URL).
import { EventEmitter } from 'node:events';
import type { AlarmRow } from '@iotc/shared/alarm';
import type { DeviceState } from '@iotc/shared/live';

export type LiveEvent = { type: 'device-states'; states: DeviceState[] } | { type: 'alarms'; alarms: AlarmRow[] };

export interface EventBus {
  publish(event: LiveEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
  close(): Promise<void>;
}

export function localBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (event) => void emitter.emit('event', event),
    subscribe(listener) {
      emitter.on('event', listener);
      return () => emitter.off('event', listener);
    },
    close: async () => void emitter.removeAllListeners(),
  };
}
