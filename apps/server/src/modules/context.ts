// What every module plugin (modules/<area>/plugin.ts) is built from: the database, the settings,
// the audit recorder, the permission lookup and the node's shared services. app.ts makes it once
// and registers the module plugins in order; each builds its services, routes, jobs and listeners.
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { DatabaseAvailability } from '../db/availability.ts';
import type { AppMetrics } from '../ops/metrics.ts';
import type { Caller } from '../lib/caller.ts';
import type { Permission } from '@iotc/shared/platform';
import type { AuditEntry } from './audit/repo.ts';

export interface ModuleContext {
  config: AppConfig;
  database: Database;
  availability: DatabaseAvailability;
  metrics: AppMetrics;
  /** Records a successful change in the audit log. */
  audit: (entry: AuditEntry) => Promise<void>;
  /** What the caller's roles grant. */
  permissionsOf: (caller: Pick<Caller, 'userId' | 'isPlatformAdmin'>) => Promise<Permission[]>;
}
