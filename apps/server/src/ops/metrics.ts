// Prometheus metrics of one app instance, in a registry of its own (tests build many apps in one
// process; prom-client's global default registry is never used). The parts that do the work are
// not imported here: app.ts hands them small callbacks (the reading store's `observe`, the
// pipeline's `onCounted`, the engine's `opened`) and the gauges read their values when scraped.
// The process's own figures (CPU, memory, event loop, GC) belong to the process, not to an app:
// they are collected once per process into a registry of their own and shown after the app's,
// because prom-client's collectors start an event-loop monitor and a GC observer that cannot be
// stopped, so one set per app would pile up in a test process.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Channel } from '../ingest/pipeline.ts';
import type { AvailabilityStats } from '../db/availability.ts';

export const METRIC_PREFIX = 'iotc_';

let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: METRIC_PREFIX });
  }
  return processRegistry;
}

/** What the intake did with the reports of one call or message. */
export interface ReportCounts {
  stored: number;
  duplicate: number;
  rejected: number;
}

const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function appMetrics() {
  const registry = new Registry();
  const registers = [registry];
  let queueDepth: () => { waiting: number; writing: number; batches: number } = () => ({ waiting: 0, writing: 0, batches: 0 });
  let wsClients: () => number = () => 0;
  let availability: (() => AvailabilityStats) | undefined;

  const reports = new Counter({
    name: `${METRIC_PREFIX}intake_reports_total`,
    help: 'Device reports received, by channel (mqtt, http, jt808) and what became of them (stored, duplicate of a stored device time, rejected)',
    labelNames: ['channel', 'result'] as const,
    registers,
  });
  for (const channel of ['mqtt', 'http', 'jt808']) for (const result of ['stored', 'duplicate', 'rejected']) reports.labels(channel, result).inc(0);
  new Gauge({
    name: `${METRIC_PREFIX}intake_queue_depth`,
    help: 'Readings in the reading store not yet committed: waiting for a write plus in the writes running now',
    registers,
    collect() {
      const d = queueDepth();
      this.set(d.waiting + d.writing);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}intake_batches_writing`,
    help: 'Batches of readings being written now',
    registers,
    collect() {
      this.set(queueDepth().batches);
    },
  });
  const batchSeconds = new Histogram({
    name: `${METRIC_PREFIX}intake_batch_write_seconds`,
    help: 'Time to write one batch of readings (one transaction), committed writes',
    buckets: SECONDS_BUCKETS,
    registers,
  });
  const batchSize = new Histogram({
    name: `${METRIC_PREFIX}intake_batch_size`,
    help: 'Readings in one committed batch write',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000],
    registers,
  });
  const alarmLatency = new Histogram({
    name: `${METRIC_PREFIX}alarm_latency_seconds`,
    help: 'From a reading handed to the reading store to the commit of the alarm it opened',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  new Gauge({
    name: `${METRIC_PREFIX}ws_clients`,
    help: 'Browsers connected to the live WebSocket on this node',
    registers,
    collect() {
      this.set(wsClients());
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}database_writable`,
    help: 'Whether the database can write (0 while writes fail: disk full, read-only, I/O errors, or PGlite below its reserve of free space)',
    registers,
    collect() {
      this.set(availability?.().unwritable ? 0 : 1);
    },
  });
  // Counters kept by the availability; exported as the growth since the last scrape.
  let refusedSeen = { unwritable: 0, unreachable: 0 };
  new Counter({
    name: `${METRIC_PREFIX}intake_refused_unavailable_total`,
    help: 'Device reports refused (not acknowledged, 503, not answered) because the database could not write (reason storage) or was unreachable (reason database)',
    labelNames: ['reason'] as const,
    registers,
    collect() {
      const a = availability?.();
      if (!a) return;
      this.labels('storage').inc(a.refusedWhileUnwritable - refusedSeen.unwritable);
      this.labels('database').inc(a.refusedWhileDown - refusedSeen.unreachable);
      refusedSeen = { unwritable: a.refusedWhileUnwritable, unreachable: a.refusedWhileDown };
    },
  });
  const httpSeconds = new Histogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: 'HTTP requests by method, route pattern and status class (2xx, 4xx ...)',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: SECONDS_BUCKETS,
    registers,
  });

  /** When each reading was handed to the store (weakly held: a stored reading is forgotten with it). */
  const receivedAt = new WeakMap<object, number>();

  return {
    /** Reports of one call or message, counted once the intake has dealt with them. */
    countReports(channel: Channel, counts: ReportCounts) {
      if (counts.stored) reports.labels(channel, 'stored').inc(counts.stored);
      if (counts.duplicate) reports.labels(channel, 'duplicate').inc(counts.duplicate);
      if (counts.rejected) reports.labels(channel, 'rejected').inc(counts.rejected);
    },
    /** The reading store's `observe` option. */
    readings: {
      received(readings: readonly object[]) {
        const t = performance.now();
        for (const r of readings) receivedAt.set(r, t);
      },
      written(size: number, seconds: number) {
        batchSeconds.observe(seconds);
        batchSize.observe(size);
      },
    },
    /** The alarm engine's `opened` option: the reading that opened each alarm, after its commit. */
    alarmsOpened(readings: readonly object[]) {
      const t = performance.now();
      for (const r of readings) {
        const at = receivedAt.get(r);
        if (at !== undefined) alarmLatency.observe((t - at) / 1000);
      }
    },
    /** One finished HTTP request; `route` is the pattern (never the address with its ids). */
    request(method: string, route: string, status: number, seconds: number) {
      httpSeconds.labels(method, route, `${Math.floor(status / 100)}xx`).observe(seconds);
    },
    /** Where the queue gauges read from (the reading store). */
    watchQueue(read: typeof queueDepth) {
      queueDepth = read;
    },
    /** Where the database's writability and refusal figures are read from, and (PGlite) its free disk space, read at each scrape (db/availability.ts). */
    watchAvailability(read: () => AvailabilityStats, readDisk?: () => Promise<number | null>) {
      availability = read;
      // Only where there is a disk to watch: on PostgreSQL it is the database server's.
      if (readDisk && !registry.getSingleMetric(`${METRIC_PREFIX}database_disk_free_bytes`)) {
        new Gauge({
          name: `${METRIC_PREFIX}database_disk_free_bytes`,
          help: "Free bytes on the file system of PGlite's data directory, read at each scrape (PGlite's writes stop below a reserve of 64 MB)",
          registers,
          async collect() {
            const free = await readDisk();
            if (free !== null) this.set(free);
          },
        });
      }
    },
    /** Where the WebSocket gauge reads from (the live hub). */
    watchClients(read: () => number) {
      wsClients = read;
    },
    contentType: registry.contentType,
    /** The exposition text: this app's metrics, then the process's. */
    async render(): Promise<string> {
      return (await registry.metrics()) + (await processMetrics().metrics());
    },
  };
}
export type AppMetrics = ReturnType<typeof appMetrics>;
