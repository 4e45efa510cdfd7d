// Typed in-process events: one side publishes, the others subscribe where they are built, so the
// publisher knows none of them (the stored readings of ingest/stored-readings.ts, the alarm
// changes of modules/alarm).

export interface Topic<E> {
  /** Hears every event from now on; answers the unsubscribe. */
  subscribe(listener: (event: E) => void): () => void;
  /** Tells every listener in the order they subscribed. One that throws does not keep the others from hearing; the first error is answered. */
  publish(event: E): unknown;
}

export function topic<E>(): Topic<E> {
  const listeners = new Set<(event: E) => void>();
  return {
    subscribe(listener) {
      const own = (event: E) => listener(event);
      listeners.add(own);
      return () => void listeners.delete(own);
    },
    publish(event) {
      let failed: unknown;
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (err) {
          failed ??= err;
        }
      }
      return failed;
    },
  };
}

export interface Steps<E> {
  /** A step run with each event, awaited in the order added; answers the removal. */
  add(step: (event: E) => Promise<void>): () => void;
  /** Runs every step one after the other; the first that fails fails the run. */
  run(event: E): Promise<void>;
}

/** Work that must be done with an event, awaited (in the publisher's transaction, say). */
export function steps<E>(): Steps<E> {
  const all = new Set<(event: E) => Promise<void>>();
  return {
    add(step) {
      const own = (event: E) => step(event);
      all.add(own);
      return () => void all.delete(own);
    },
    async run(event) {
      for (const step of all) await step(event);
    },
  };
}
