// What every module plugin (modules/<area>/plugin.ts) is built from: the database, the settings,
// the audit recorder, the permission lookup and the node's shared services and events. app.ts
// makes it once (moduleContext) and registers the module plugins in order; each builds its
// services, routes, jobs and listeners from it, and from narrow options for what one other
// module gives it.
import type { FastifyInstance } from 'fastify';
import type { AlarmRow } from '@iotc/shared/alarm';
import type { Permission } from '@iotc/shared/platform';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { DatabaseAvailability } from '../db/availability.ts';
import type { Lease } from '../db/lease.ts';
import type { AppMetrics } from '../ops/metrics.ts';
import type { Caller } from '../lib/caller.ts';
import type { Messenger } from '../lib/messenger.ts';
import type { CachedConfig, EventBus } from '../realtime/bus.ts';
import { storedReadings as storedReadingsEvent, type StoredReadings } from '../ingest/stored-readings.ts';
import type { AuditWriter } from './audit/repo.ts';
import { alarmChanges as alarmChangesEvent, type AlarmChanges } from './alarm/changes.ts';

export interface ModuleContext {
  config: AppConfig;
  database: Database;
  availability: DatabaseAvailability;
  /** The node's leases (the jobs plugin's): rounds of work that run on one node at a time. */
  lease: Lease;
  metrics: AppMetrics;
  /** Records a change in the audit log through the change's own transaction (see AuditWriter). */
  audit: AuditWriter;
  /** What the caller's roles grant. */
  permissionsOf: (caller: Pick<Caller, 'userId' | 'isPlatformAdmin'>) => Promise<Permission[]>;
  /** The live event bus: to the browsers and the other nodes. */
  bus: EventBus;
  /** Mail and SMS (the outbox without SMTP_URL or a gateway). */
  messenger: Messenger;
  /** The stored-readings event: steps in a batch's write transaction, listeners once it commits. */
  storedReadings: StoredReadings;
  /** Every alarm row that opened or changed: the live hub and the push rules subscribe. */
  alarmChanges: AlarmChanges;
  /** Publishes changed alarm rows (none: nothing); a listener's failure is thrown to the publisher. */
  publishAlarms: (rows: AlarmRow[]) => void;
  /** A cached configuration changed: every node drops its copy (through the bus; this node at once). */
  invalidate: (cache: CachedConfig) => void;
  /** What drops this node's copy of a cached configuration. */
  onInvalidate: (cache: CachedConfig, drop: () => void) => void;
}

/** The context of the module plugins: the node's base services and the events made here. */
export function moduleContext(
  app: FastifyInstance,
  base: Omit<ModuleContext, 'storedReadings' | 'alarmChanges' | 'publishAlarms' | 'invalidate' | 'onInvalidate'>,
): ModuleContext {
  const alarmChanges = alarmChangesEvent();
  const drops = new Map<CachedConfig, (() => void)[]>();
  // Policies, push rules, tasks and JT/T 808 item mappings are cached by each node: a change made
  // on any node drops them on every node.
  const unsubscribe = base.bus.subscribe((event) => {
    if (event.type === 'invalidate') for (const drop of drops.get(event.cache) ?? []) drop();
  });
  app.addHook('onClose', async () => unsubscribe());
  return {
    ...base,
    storedReadings: storedReadingsEvent(),
    alarmChanges,
    publishAlarms: (rows) => {
      if (rows.length === 0) return;
      const failed = alarmChanges.publish(rows);
      if (failed !== undefined) throw failed;
    },
    invalidate: (cache) => base.bus.publish({ type: 'invalidate', cache }),
    onInvalidate: (cache, drop) => void drops.set(cache, [...(drops.get(cache) ?? []), drop]),
  };
}
