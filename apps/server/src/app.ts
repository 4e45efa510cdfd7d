// Builds the Fastify app from a config object: the database (migrated and seeded), the
// cross-cutting plugins, then the module plugins in order (each builds its services, routes, jobs
// and listeners: modules/<area>/plugin.ts), OpenAPI, and the built web app with its client-side routes.
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { AppConfig } from './config.ts';
import type { Database } from './db/client.ts';
import { appDatabase } from './db/database.ts';
import { ensurePartitions, PARTITION_JOB_MS } from './db/partitions.ts';
import { httpSmsGateway, messenger, type Messenger, type SmsGateway } from './lib/messenger.ts';
import { loggerOptions, redactUrl, RequestLog } from './ops/logging.ts';
import { appMetrics } from './ops/metrics.ts';
import { databaseNotWritableAlarm, platformAlarmRoutes, platformAlarms } from './ops/platform-alarms.ts';
import { opsPlugin } from './ops/plugin.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { httpPlugin } from './plugins/http.ts';
import { jobsPlugin } from './plugins/jobs.ts';
import { webPlugin } from './plugins/web.ts';
import { securityPlugin } from './plugins/security.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { openapiPlugin } from './plugins/openapi.ts';
import { localBus, redisBus, type EventBus } from './realtime/bus.ts';
import { liveHub } from './realtime/hub.ts';
import { ingestPlugin } from './ingest/plugin.ts';
import { moduleContext } from './modules/context.ts';
import { writeAudit } from './modules/audit/repo.ts';
import { authModulePlugin } from './modules/auth/plugin.ts';
import { menuPlugin } from './modules/menu/plugin.ts';
import { dictPlugin } from './modules/dict/plugin.ts';
import { auditPlugin } from './modules/audit/plugin.ts';
import { outboxPlugin } from './modules/outbox/plugin.ts';
import { orgUserPlugin } from './modules/org-user/plugin.ts';
import { devicePlugin } from './modules/device/plugin.ts';
import { assetPlugin } from './modules/asset/plugin.ts';
import { archivePlugin } from './modules/archive/plugin.ts';
import { faultPlugin } from './modules/fault/plugin.ts';
import { transportPlugin } from './modules/transport/plugin.ts';
import { geocodePlugin } from './modules/geocode/plugin.ts';
import { commandPlugin } from './modules/command/plugin.ts';
import { jt808Plugin } from './modules/jt808/plugin.ts';
import { alarmPlugin } from './modules/alarm/plugin.ts';
import { workOrderPlugin } from './modules/work-order/plugin.ts';
import { telemetryPlugin } from './modules/telemetry/plugin.ts';
import { homePlugin } from './modules/home/plugin.ts';
import { inboxPlugin } from './modules/inbox/plugin.ts';
import { noticePlugin } from './modules/notice/plugin.ts';
import { placePlugin } from './modules/place/plugin.ts';
import { cockpitPlugin } from './modules/cockpit/plugin.ts';
import { trackPlugin } from './modules/track/plugin.ts';
import { storagePlugin } from './modules/storage/plugin.ts';
import { chartPlugin } from './modules/chart/plugin.ts';
import { mapTilesPlugin } from './modules/map-tiles/plugin.ts';
import { mapTilesState, type MapTilesState } from './modules/map-tiles/service.ts';
import { retentionPlugin } from './modules/retention/plugin.ts';
import { reportPlugin } from './modules/report/plugin.ts';
import { comparePlugin } from './modules/compare/plugin.ts';
import { warehousePlugin } from './modules/warehouse/plugin.ts';
import { productPlugin } from './modules/product/plugin.ts';
import { signaturePlugin } from './modules/signature/plugin.ts';
import { reportSchedulePlugin } from './modules/report-schedule/plugin.ts';
import { ledgerPlugin } from './modules/ledger/plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    messenger: Messenger;
    /** The base map's tile source on this node (modules/map-tiles): the map configuration and the CSP read it. */
    mapTiles: MapTilesState;
  }
}

/** A registered route as the route table keeps it (plugins/http.ts). */
export type { RouteEntry } from './plugins/http.ts';
/** A request address as logged (secrets in the query masked): see ops/logging.ts. */
export { redactUrl };

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_ABOVE_BYTES = 1024;

export async function buildApp(
  config: AppConfig,
  opts: {
    database?: Database;
    /** The live event bus, owned by the caller (a test's nodes sharing one); otherwise made from REDIS_URL, or in-process. */
    bus?: EventBus;
    /** Replaces the HTTP SMS adapter (another vendor's, or a test's). */
    sms?: SmsGateway;
    /** Where the JSON log lines go instead of stdout (a test reads them). */
    logStream?: DestinationStream;
  } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    // JSON lines naming the node; tokens, passwords and secrets never reach them (ops/logging.ts).
    logger: loggerOptions({ level: config.logLevel, nodeId: config.nodeId, stream: opts.logStream }),
    // One line per request at its end, with its route and status (ops/logging.ts).
    logController: new RequestLog(),
    bodyLimit: 1_048_576,
    // Behind a reverse proxy (TRUST_PROXY) the client address comes from X-Forwarded-For.
    trustProxy: config.trustProxy ?? false,
    requestIdHeader: 'x-request-id',
  }).withTypeProvider<ZodTypeProvider>();

  // The route table, the text guard, the body parsers and the Zod compilers: before any route.
  await app.register(httpPlugin);
  // The database, migrated and seeded, and its availability; a database that cannot write raises a platform alarm.
  const alarmsOfPlatform = platformAlarms();
  const { database, availability } = await appDatabase(app, {
    config,
    database: opts.database,
    onWritable: (writable, stats) =>
      writable ? alarmsOfPlatform.clear('DATABASE_NOT_WRITABLE', new Date(), { refused: stats.refusedWhileUnwritable }) : alarmsOfPlatform.raise(databaseNotWritableAlarm(stats)),
  });

  await app.register(errorsPlugin);
  // Answers above 1 KB go out compressed to a client that accepts it (brotli at a quick level,
  // else gzip); the web app's files are compressed once at build time and served as they are
  // (plugins/web.ts). Request bodies are not inflated: nothing here sends them compressed,
  // and a small compressed body must not expand past the body limit.
  await app.register(fastifyCompress, { global: true, threshold: COMPRESS_ABOVE_BYTES, encodings: ['br', 'gzip'], globalDecompression: false });
  // Health, readiness, metrics and the HTTP timing hook: before every other route.
  const metrics = appMetrics();
  await app.register(opsPlugin, { database, metrics, metricsToken: config.metricsToken });
  metrics.watchAvailability(availability.stats, database.kind === 'pglite' && config.dataDir ? availability.checkDisk : undefined);
  app.health.addCheck('database-writes', () => {
    if (availability.unwritable) throw new Error(`the database cannot write: ${availability.stats().unwritableCause?.message ?? ''}`);
  });
  // The tiles the platform administrator chose (modules/map-tiles), the start-up default until read.
  const mapTiles = mapTilesState(config.map);
  app.decorate('mapTiles', mapTiles);
  await app.register(securityPlugin, { map: () => mapTiles.current(), publicUrl: config.publicUrl });
  await app.register(rateLimitPlugin, { limits: config.rateLimits, redisUrl: config.redisUrl });
  // OpenAPI: /api/docs/json and its page /api/docs (plugins/openapi.ts); before the routes it describes.
  await app.register(openapiPlugin, { publicUrl: config.publicUrl });

  // Every periodic job of this node (plugins/jobs.ts): timers, one run at a time, paused while the
  // database is unreachable or cannot write, failures logged by name, stopped on close.
  await app.register(jobsPlugin, { availability, database });
  // The readings table's month partitions, created ahead one node at a time (db/partitions.ts).
  app.job('readings partitions', { everyMs: PARTITION_JOB_MS, atStart: true, whileUnwritable: true }, async () => {
    const months = (await ensurePartitions(database.db)).filter((m) => m.created);
    if (months.length) app.log.info({ months }, 'readings partitions created');
  });

  const messages = messenger({
    db: database.db,
    log: app.log,
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    sms: opts.sms ?? (config.smsGatewayUrl ? httpSmsGateway(config.smsGatewayUrl, config.smsGatewayToken) : undefined),
  });
  app.decorate('messenger', messages);
  app.addHook('onClose', async () => messages.close());
  // Live events: with REDIS_URL the nodes share them, so a browser on any node sees every node's work.
  const bus = opts.bus ?? (config.redisUrl ? redisBus(config.redisUrl, { log: app.log }) : localBus());
  if (!opts.bus) app.addHook('onClose', async () => bus.close());

  // The modules, in order: one registered later may be given what an earlier one decorated.
  // Sessions first: every other route uses its guards.
  const audit = writeAudit;
  await app.register(authModulePlugin, { config, database, audit, messenger: messages });
  await app.register(platformAlarmRoutes, { alarms: alarmsOfPlatform });
  const modules = moduleContext(app, { config, database, availability, lease: app.lease, metrics, audit, permissionsOf: app.authService.permissionsOf, bus, messenger: messages });
  for (const plugin of [menuPlugin, dictPlugin, auditPlugin, outboxPlugin, orgUserPlugin, devicePlugin, assetPlugin]) await app.register(plugin, modules);
  // Those that hear the stored readings (the archive's step commits with the batch).
  await app.register(archivePlugin, modules);
  await app.register(faultPlugin, modules);
  await app.register(geocodePlugin, modules);
  await app.register(transportPlugin, modules);
  await app.register(commandPlugin, modules);
  await app.register(jt808Plugin, { ...modules, commands: app.commands });
  // An acknowledged terminal alarm the platform must clear goes to the terminal as 0x8203 (from the node holding it).
  await app.register(alarmPlugin, { ...modules, acknowledged: (row) => app.jt808Confirmations.acknowledged(row) });
  await app.register(workOrderPlugin, modules);
  await app.register(mapTilesPlugin, modules);
  await app.register(telemetryPlugin, modules);
  // Before the reports: the shipment report reads a task's batches through it.
  await app.register(productPlugin, modules);
  for (const plugin of [homePlugin, inboxPlugin, noticePlugin, cockpitPlugin, trackPlugin, storagePlugin, chartPlugin, retentionPlugin, reportPlugin, comparePlugin, warehousePlugin, placePlugin, signaturePlugin]) await app.register(plugin, modules);
  await app.register(reportSchedulePlugin, { ...modules, reports: app.reports });
  await app.register(ledgerPlugin, modules);
  // The intake after those that hear it: on close its store is flushed before they settle.
  await app.register(ingestPlugin, { config, database, availability, metrics, storedReadings: modules.storedReadings, onRefused: (r) => app.faultDetector.refused(r) });
  const hub = await liveHub(app, { db: database.db, auth: app.authService, bus, offlineAfterMs: config.offlineAfterMs, availability });
  metrics.watchClients(hub.clientCount);

  // The built web app and the not-found answer: last.
  await app.register(webPlugin, { webDist: config.webDist });
  return app;
}
