// The one event of stored readings. The reading store (store.ts) stores a batch and publishes
// it; the alarm engine, the fault detector, the task recogniser, the live states and the readings
// archive subscribe in their module plugins (modules/<area>/plugin.ts), so the intake knows none of them.
// - `storing`: steps run in the batch's transaction, before it commits (a step that fails
//   fails the write): work that must commit with the readings, or not at all.
// - `stored`: after the commit, for a batch that changed latest states.
import type { Executor } from '../db/client.ts';
import type { deviceStates, telemetry } from '../db/schema.ts';
import { steps, topic, type Steps, type Topic } from '../lib/events.ts';

export type Reading = typeof telemetry.$inferInsert & { time: Date; deviceRef: string; acc: boolean | null };

export type StoredState = typeof deviceStates.$inferSelect;

/** A batch being stored, in its transaction. */
export interface ReadingsStoring {
  tx: Executor;
  /** The readings it stores (a repeat of a stored device time is not among them). */
  readings: Reading[];
  receivedAt: Date;
}

/** A batch stored and committed. */
export interface ReadingsStored {
  /** The latest states it changed. */
  states: StoredState[];
  /** The readings it stored (a repeat of a stored device time is not among them). */
  readings: Reading[];
  /** With the store's `silenceAfterMs`: when the platform had last heard of each device before this write that may have been silent longer than that. */
  heardBefore: ReadonlyMap<string, Date>;
}

export interface StoredReadings {
  storing: Steps<ReadingsStoring>;
  stored: Topic<ReadingsStored>;
}

export function storedReadings(): StoredReadings {
  return { storing: steps(), stored: topic() };
}
