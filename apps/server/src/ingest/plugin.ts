// The intake: the reading store (batched writes; the stored-readings event tells the modules) and
// the pipeline every device link hands its reports to (authentication, validation, the per-device
// rate, the intake log), with the HTTP intake routes. The MQTT link and the JT/T 808 gateway are
// started by main.ts on `app.intake`. Registered after the modules that hear the stored readings,
// so on close the store is flushed before they settle.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { DatabaseAvailability } from '../db/availability.ts';
import type { AppMetrics } from '../ops/metrics.ts';
import { deviceRateLimiter } from './device-rate.ts';
import { httpIntakeRoutes } from './http.ts';
import { intakePipeline, type IntakePipeline, type Refusal } from './pipeline.ts';
import { readingStore, type ReadingStore } from './store.ts';
import type { StoredReadings } from './stored-readings.ts';

declare module 'fastify' {
  interface FastifyInstance {
    intake: IntakePipeline;
    readings: ReadingStore;
  }
}

export const ingestPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      config: AppConfig;
      database: Database;
      availability: DatabaseAvailability;
      metrics: AppMetrics;
      storedReadings: StoredReadings;
      /** A report the intake refused (the fault detector hears of it). */
      onRefused: (refusal: Refusal) => void;
    },
  ) => {
    const { config, database, availability, metrics } = opts;
    const readings = readingStore(database.db, {
      availability,
      concurrency: database.kind === 'postgres' ? 3 : 1,
      observe: metrics.readings,
      silenceAfterMs: config.offlineAfterMs,
      // The reading goes to its device's intake log with the reason; the rest of its batch is stored.
      onFailed: (err, r) => app.log.warn({ err, deviceRef: r.deviceRef, time: Number.isNaN(r.time.getTime()) ? null : r.time }, 'a reading the database refused was left out of its batch'),
      events: opts.storedReadings,
    });
    app.decorate('readings', readings);
    metrics.watchQueue(() => readings.depth);
    app.addHook('onClose', async () => readings.flushed());
    const intake = intakePipeline(database.db, readings, {
      availability,
      log: app.log,
      earliest: config.intakeEarliest,
      authFailuresPerMinute: config.intakeAuthFailuresPerIp,
      keepLogMs: config.intakeLogMs,
      onRefused: opts.onRefused,
      deviceRate: deviceRateLimiter(config.intakeDeviceRate),
      onCounted: metrics.countReports,
    });
    app.decorate('intake', intake);
    await app.register(httpIntakeRoutes, { devicePerMinute: Math.ceil(config.intakeDeviceRate.rate * 60 + config.intakeDeviceRate.burst), pipeline: intake });
  },
);
