// The jobs plugin: every periodic job of a node is declared with
// `app.job(name, { everyMs, atStart }, work)` (lib/periodic.ts runs it). The plugin owns what
// they all need: the timers; one run at a time; turns skipped while the database is unreachable
// or cannot write, so jobs neither pile up nor flood the log; a failure logged with the job's
// name (not during an outage, which is logged once); and on close, the timers stopped and runs in
// progress awaited. It also hands out the node's leases (`app.lease`, db/lease.ts): a round of work
// that must run on one node at a time runs in a transaction holding its lease, and the nodes that
// do not get it skip the round (logged at debug). The readings archive, whose round spans many
// transactions, keeps a lease row of its own.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DatabaseAvailability } from '../db/availability.ts';
import type { Database } from '../db/client.ts';
import { leases, type Lease } from '../db/lease.ts';
import { periodicJob, type PeriodicJob, type RunResult } from '../lib/periodic.ts';

export interface JobOptions {
  /** How often; 0: the job does not run on this node. */
  everyMs: number;
  /** A run at once as well (default: the first after `everyMs`). */
  atStart?: boolean;
  /** Runs even while the database cannot write (default: skipped then, as while it is unreachable). */
  whileUnwritable?: boolean;
}

export interface JobInfo {
  name: string;
  everyMs: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Declares a periodic job of this node; answers its handle (run now, stop). */
    job: (name: string, opts: JobOptions, work: () => Promise<RunResult>) => PeriodicJob;
    /** The jobs declared on this node. */
    jobs: () => JobInfo[];
    /** Runs a round of work in a transaction holding its lease, or skips it while another node holds it. */
    lease: Lease;
  }
}

const idle: PeriodicJob = { run: async () => undefined, stop: async () => undefined };

export const jobsPlugin = fp(async (app: FastifyInstance, opts: { availability: DatabaseAvailability; database: Database }) => {
  const { availability } = opts;
  app.decorate('lease', leases(opts.database.db, { onSkipped: (lease) => app.log.debug({ lease }, `${lease}: another node holds the lease; this round is skipped`) }));
  const declared: { info: JobInfo; job: PeriodicJob }[] = [];
  app.decorate('job', (name: string, o: JobOptions, work: () => Promise<RunResult>) => {
    if (o.everyMs <= 0) return idle;
    const job = periodicJob(work, {
      everyMs: o.everyMs,
      atStart: o.atStart ?? false,
      shouldRun: () => !availability.down && (o.whileUnwritable === true || !availability.unwritable),
      onError: (err) =>
        void availability.failed(err).then((down) => {
          if (!down) app.log.warn({ err, job: name }, `${name} failed`);
        }),
    });
    declared.push({ info: { name, everyMs: o.everyMs }, job });
    return job;
  });
  app.decorate('jobs', () => declared.map((d) => d.info));
  app.addHook('onClose', async () => {
    await Promise.all(declared.map((d) => d.job.stop()));
  });
});
