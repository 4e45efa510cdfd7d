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
import type { StorageFigures, StorageRow } from '@iotc/shared/storage';

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
  let storage: (() => Promise<{ rows: StorageRow[]; platform: StorageFigures; daysLeft: number | null }>) | undefined;
  // The storage gauges read one overview per scrape (they are collected together).
  let storageRead: ReturnType<NonNullable<typeof storage>> | undefined;
  const storageFigures = () => {
    if (!storage) return undefined;
    if (!storageRead) {
      storageRead = storage();
      void storageRead.finally(() => setTimeout(() => (storageRead = undefined), 1000).unref()).catch(() => undefined);
    }
    return storageRead;
  };
  /** A storage gauge per organisation (label org = its code), from its latest daily snapshot. */
  const storageGauge = <L extends string>(name: string, help: string, labelNames: readonly L[], set: (g: Gauge<L>, r: StorageRow) => void) =>
    new Gauge<L>({
      name: `${METRIC_PREFIX}${name}`,
      help,
      labelNames,
      registers,
      async collect() {
        const figures = await storageFigures();
        this.reset();
        for (const r of figures?.rows ?? []) set(this, r);
      },
    });

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
  storageGauge('storage_readings', "Readings an organisation keeps, as rows of the readings table (as=rows) and in the archive's packs (as=packs); a reading packed and not yet removed from the rows is in both", ['org', 'as'] as const, (g, r) => {
    g.labels(r.orgCode, 'rows').set(r.rowReadings);
    g.labels(r.orgCode, 'packs').set(r.packedReadings);
  });
  storageGauge('storage_packs', "An organisation's packs (one per device and closed day)", ['org'] as const, (g, r) => g.labels(r.orgCode).set(r.packs));
  storageGauge('storage_bytes', "Bytes an organisation keeps: its share of the readings table's size by its rows (as=rows), its packs' bytes (as=packs)", ['org', 'as'] as const, (g, r) => {
    g.labels(r.orgCode, 'rows').set(r.rowBytes);
    g.labels(r.orgCode, 'packs').set(r.packBytes);
  });
  storageGauge('storage_bytes_per_reading', 'Bytes (rows and packs) per reading kept, a reading both a row and in a pack counted once', ['org'] as const, (g, r) => {
    if (r.bytesPerReading !== null) g.labels(r.orgCode).set(r.bytesPerReading);
  });
  storageGauge('storage_growth_bytes_per_day', "Growth of an organisation's bytes per day over its last 7 daily snapshots (absent with one snapshot only)", ['org'] as const, (g, r) => {
    if (r.growthPerDay !== null) g.labels(r.orgCode).set(r.growthPerDay);
  });
  new Gauge({
    name: `${METRIC_PREFIX}storage_days_left`,
    help: "Days until the database's free disk space is used up at the platform's growth per day (NaN while unknown: PostgreSQL's disk, no growth yet)",
    registers,
    async collect() {
      const figures = await storageFigures();
      this.set(figures?.daysLeft ?? Number.NaN);
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
    /** Where the storage gauges read every organisation's figures from, at each scrape (modules/storage). */
    watchStorage(read: NonNullable<typeof storage>) {
      storage = read;
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
