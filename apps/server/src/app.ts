// Builds the Fastify app from a config object: database (migrated and seeded), plugins,
// the spec's calls, OpenAPI, and the built web app with its client-side routes.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isUtf8 } from 'node:buffer';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import secureJson from 'secure-json-parse';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { ensurePartitions, PARTITION_JOB_MS } from './db/partitions.ts';
import { jobsPlugin } from './plugins/jobs.ts';
import { databaseAvailability, type DatabaseAvailability } from './db/availability.ts';
import { seed, type SeedResult } from './db/seed.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorsPlugin, sendNotFound } from './plugins/errors.ts';
import { AppError } from './lib/errors.ts';
import { unstorableTextAt } from './plugins/text-guard.ts';
import { DEVICE_API } from '@iotc/shared/device';
import type { DestinationStream } from 'pino';
import { loggerOptions, redactUrl, RequestLog } from './ops/logging.ts';
import { appMetrics } from './ops/metrics.ts';
import { databaseNotWritableAlarm, platformAlarmRoutes, platformAlarms } from './ops/platform-alarms.ts';
import { opsPlugin } from './ops/plugin.ts';
import { securityPlugin } from './plugins/security.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { openapiPlugin } from './plugins/openapi.ts';
import { deviceRateLimiter } from './ingest/device-rate.ts';
import { authRepo } from './modules/auth/repo.ts';
import { authService, type AuthService } from './modules/auth/service.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { menuRepo } from './modules/menu/repo.ts';
import { menuService } from './modules/menu/service.ts';
import { menuRoutes } from './modules/menu/routes.ts';
import { dictRoutes } from './modules/dict/routes.ts';
import { dictRepo } from './modules/dict/repo.ts';
import { auditRepo } from './modules/audit/repo.ts';
import { auditService } from './modules/audit/service.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { outboxService } from './modules/outbox/service.ts';
import { outboxRoutes } from './modules/outbox/routes.ts';
import { captchaService, type CaptchaService } from './modules/captcha/service.ts';
import { captchaRoutes } from './modules/captcha/routes.ts';
import { orgUserRepo } from './modules/org-user/repo.ts';
import { accountRepo } from './modules/account/repo.ts';
import { accountService, type AccountService } from './modules/account/service.ts';
import { accountRoutes } from './modules/account/routes.ts';
import { ssoService, type SsoService } from './modules/sso/service.ts';
import { ssoRoutes } from './modules/sso/routes.ts';
import { deviceService } from './modules/device/service.ts';
import { deviceRoutes } from './modules/device/routes.ts';
import { jt808Routes } from './modules/jt808/routes.ts';
import { jt808ViewService } from './modules/jt808/view.ts';
import { jt808ModelService, type Jt808ModelService } from './modules/jt808/models.ts';
import { jt808ModelRoutes } from './modules/jt808/models-routes.ts';
import { alarmConfirmations, type AlarmConfirmations } from './modules/jt808/alarm-confirm.ts';
import { intakePipeline, type IntakePipeline } from './ingest/pipeline.ts';
import { readingStore, type ReadingStore } from './ingest/store.ts';
import { storedReadings as storedReadingsEvent } from './ingest/stored-readings.ts';
import { localBus, redisBus, type CachedConfig, type EventBus } from './realtime/bus.ts';
import { liveHub } from './realtime/hub.ts';
import { liveComposer, stateReader } from './modules/telemetry/states.ts';
import { telemetryService } from './modules/telemetry/service.ts';
import { telemetryRoutes } from './modules/telemetry/routes.ts';
import { httpIntakeRoutes } from './ingest/http.ts';
import { httpSmsGateway, messenger, type Messenger, type SmsGateway } from './lib/messenger.ts';
import { orgUserService } from './modules/org-user/service.ts';
import { assetService } from './modules/asset/service.ts';
import { homeService } from './modules/home/service.ts';
import { homeRoutes } from './modules/home/routes.ts';
import { cockpitService } from './modules/cockpit/service.ts';
import { cockpitRoutes } from './modules/cockpit/routes.ts';
import { assetRoutes } from './modules/asset/routes.ts';
import { XLSX_TYPE } from './lib/sheet.ts';
import { orgUserRoutes } from './modules/org-user/routes.ts';
import type { AlarmRow } from '@iotc/shared/alarm';
import { alarmChanges } from './modules/alarm/changes.ts';
import { alarmEngine, type AlarmEngine } from './modules/alarm/engine.ts';
import { levelService } from './modules/alarm/levels.ts';
import { policyService } from './modules/alarm/policies.ts';
import { alarmService } from './modules/alarm/alarms.ts';
import { alarmRoutes } from './modules/alarm/routes.ts';
import { alarmsByIds } from './modules/alarm/records.ts';
import { alarmPush, type AlarmPush } from './modules/alarm/push.ts';
import { pushRuleService } from './modules/alarm/push-rules.ts';
import { deliveryService } from './modules/alarm/deliveries.ts';
import { pushRoutes } from './modules/alarm/push-routes.ts';
import { faultDetector, type FaultDetector } from './modules/fault/detector.ts';
import { faultService } from './modules/fault/service.ts';
import { faultRoutes } from './modules/fault/routes.ts';
import { workOrderService } from './modules/work-order/service.ts';
import { trackService } from './modules/track/service.ts';
import { trackRoutes } from './modules/track/routes.ts';
import { shipmentService } from './modules/report/shipment.ts';
import { productionService } from './modules/report/production.ts';
import { reportRoutes } from './modules/report/routes.ts';
import { gspService } from './modules/report/gsp.ts';
import { alarmReportService } from './modules/report/alarm-report.ts';
import { onlineReportService } from './modules/report/online.ts';
import { mileageReportService } from './modules/report/mileage.ts';
import { compareService } from './modules/compare/service.ts';
import { compareRoutes } from './modules/compare/routes.ts';
import { workOrderRoutes } from './modules/work-order/routes.ts';
import { transportTaskService, type TransportTaskService } from './modules/transport/service.ts';
import { templateService, type TemplateService } from './modules/transport/templates.ts';
import { transportRoutes } from './modules/transport/routes.ts';
import { routingService } from './modules/transport/routing.ts';
import { taskRecognizer, type TaskRecognizer } from './modules/transport/recognizer.ts';
import { warehouseService } from './modules/warehouse/service.ts';
import { warehouseRoutes } from './modules/warehouse/routes.ts';
import { commandService, type CommandService } from './modules/command/service.ts';
import { commandRoutes } from './modules/command/routes.ts';
import { jt808Downlink, type Jt808Downlink } from './modules/jt808/downlink.ts';
import { reportMakers } from './modules/report-schedule/makers.ts';
import { reportScheduler, type ReportScheduler } from './modules/report-schedule/runner.ts';
import { scheduleService } from './modules/report-schedule/schedules.ts';
import { reportScheduleRoutes } from './modules/report-schedule/routes.ts';
import type { LedgerService } from './modules/ledger/service.ts';
import type { ModuleContext } from './modules/context.ts';
import { archivePlugin } from './modules/archive/plugin.ts';
import { storagePlugin } from './modules/storage/plugin.ts';
import { retentionPlugin } from './modules/retention/plugin.ts';
import { ledgerPlugin } from './modules/ledger/plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    seedResult: SeedResult;
    authService: AuthService;
    captchaService: CaptchaService;
    accountService: AccountService;
    messenger: Messenger;
    ssoService: SsoService;
    intake: IntakePipeline;
    readings: ReadingStore;
    /** Whether the database is reachable: outages are noticed once and their end by a probe (db/availability.ts). */
    availability: DatabaseAvailability;
    alarmEngine: AlarmEngine;
    /** Device faults found from what the intake stores and refuses (modules/fault/detector.ts). */
    faultDetector: FaultDetector;
    /** Message push for alarms: rules, escalation, the delivery log. */
    push: AlarmPush;
    /** Pushes the states of devices that went offline since the last sweep. */
    sweepOffline: () => Promise<void>;
    /** Transport tasks; the recogniser moves them through `recognised`. */
    transportTasks: TransportTaskService;
    /** Automatic start and arrival of transport tasks from the stored readings. */
    taskRecognizer: TaskRecognizer;
    transportTemplates: TemplateService;
    /** Remote control: the device link attaches here (`app.commands.attach(link)`) and hands it acknowledgements (`onAck`). */
    commands: CommandService;
    /** JT/T 808 commands: what the gateway of this node takes (deliveries from the bus, answers). */
    jt808Commands: Jt808Downlink;
    /** Vendor item mappings of JT/T 808 terminal models, applied by the gateway to each report. */
    jt808Models: Jt808ModelService;
    /** Operators' confirmations of JT/T 808 terminal alarms, to the node holding the terminal (0x8203). */
    jt808Confirmations: AlarmConfirmations;
    /** Scheduled reports: the tick sends the due ones (one node per run). */
    reportScheduler: ReportScheduler;
    /** The traceability ledger: its feeder tick and tree-head signing (one node at a time). */
    ledger: LedgerService;
    /** Every registered route (HEAD duplicates left out), for the generated isolation and fuzz tests. */
    routeTable: RouteEntry[];
  }
}

/** A registered route as the route table keeps it. */
export interface RouteEntry {
  method: string;
  url: string;
  schema?: { body?: unknown; querystring?: unknown; params?: unknown; hide?: boolean };
}

/** A request address as logged (secrets in the query masked): see ops/logging.ts. */
export { redactUrl };

/** Paths that belong to the API; everything else is the web app's. */
const API_PREFIXES = ['/iot-cloud-auth/', '/api/'];
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

  // The route table: collected before any route is registered, so it holds every one.
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routeTable.push({ method, url: route.url, schema: route.schema as RouteEntry['schema'] });
    }
  });
  // NUL and lone surrogates cannot be stored: refused with a clear 400 before any route sees them.
  // The device intake refuses such reports one by one into the intake log instead (pipeline.ts).
  app.addHook('preValidation', async (req) => {
    if (req.routeOptions.url === DEVICE_API.report) return;
    const at = unstorableTextAt(req.body, 'body') ?? unstorableTextAt(req.query, 'query') ?? unstorableTextAt(req.params, 'params');
    if (at) throw new AppError(400, 'TEXT_UNSTORABLE', at);
  });

  // An empty body on a JSON POST (the spec's `info` call) is no body, not an error. Bytes that
  // are not UTF-8 are refused as the escaped forms of unstorable text are, rather than read as
  // replacement characters and stored altered.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, raw, done) => {
    if (!isUtf8(raw as Buffer)) return done(new AppError(400, 'TEXT_UNSTORABLE', 'body'), undefined);
    const text = (raw as Buffer).toString('utf8').trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' }));
    } catch {
      done(new AppError(400, 'VALIDATION', { en: 'the body is not valid JSON', zh: '请求内容不是有效的 JSON' }), undefined);
    }
  });

  // Imports send the workbook itself as the body.
  app.addContentTypeParser([XLSX_TYPE, 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: 10 * 1_048_576 }, (_req, body, done) => done(null, body));

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database =
    opts.database ??
    (await openDatabase(
      config.databaseUrl
        ? {
            kind: 'postgres',
            url: config.databaseUrl,
            // A node started before its database waits for it (DB_START_WAIT_SECONDS), saying so.
            startWaitMs: config.dbStartWaitMs,
            onStartWait: ({ err, waitedMs, reachedAfterMs }) =>
              reachedAfterMs === undefined
                ? app.log.warn({ err, waitedMs }, `database not reachable at start; waiting for it (up to ${Math.round(config.dbStartWaitMs / 1000)} s)`)
                : app.log.info({ reachedAfterMs }, `database reached after ${Math.round(reachedAfterMs / 1000)} s`),
          }
        : { kind: 'pglite', dataDir: config.dataDir || undefined },
    ));
  app.decorate('database', database);
  app.addHook('onClose', async () => {
    if (!opts.database) await database.close();
  });
  app.decorate(
    'seedResult',
    await seed(database.db, { adminPassword: config.adminPassword, seedDemo: config.seedDemo, demoPassword: config.demoPassword }),
  );

  const audit = auditService(auditRepo(database.db));
  const captchas = captchaService(database.db);
  app.decorate('captchaService', captchas);
  const auth = authService(authRepo(database.db), { sessionHours: config.sessionHours, audit: audit.record, captchas });
  app.decorate('authService', auth);

  const messages = messenger({
    db: database.db,
    log: app.log,
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    sms: opts.sms ?? (config.smsGatewayUrl ? httpSmsGateway(config.smsGatewayUrl, config.smsGatewayToken) : undefined),
  });
  app.decorate('messenger', messages);
  app.addHook('onClose', async () => messages.close());
  const accounts = accountService(accountRepo(database.db), { messenger: messages, audit: audit.record, captchas });
  app.decorate('accountService', accounts);

  await app.register(errorsPlugin);
  // Answers above 1 KB go out compressed to a client that accepts it (brotli at a quick level,
  // else gzip); the web app's files are compressed once at build time and served as they are
  // (preCompressed below). Request bodies are not inflated: nothing here sends them compressed,
  // and a small compressed body must not expand past the body limit.
  await app.register(fastifyCompress, { global: true, threshold: COMPRESS_ABOVE_BYTES, encodings: ['br', 'gzip'], globalDecompression: false });
  // Health, readiness, metrics and the HTTP timing hook: before every other route.
  const metrics = appMetrics();
  await app.register(opsPlugin, { database, metrics, metricsToken: config.metricsToken });
  await app.register(securityPlugin, { map: config.map, publicUrl: config.publicUrl });
  await app.register(rateLimitPlugin, { limits: config.rateLimits, redisUrl: config.redisUrl });
  await app.register(authPlugin, { auth });
  // OpenAPI: /api/docs/json and its page /api/docs (plugins/openapi.ts); before the routes it describes.
  await app.register(openapiPlugin, { publicUrl: config.publicUrl });

  await app.register(authRoutes, { auth });
  await app.register(menuRoutes, { menus: menuService(menuRepo(database.db)) });
  await app.register(dictRoutes, { dicts: dictRepo(database.db) });
  await app.register(auditRoutes, { audit });
  await app.register(outboxRoutes, { outbox: outboxService(database.db) });
  await app.register(captchaRoutes, { captchas });
  await app.register(accountRoutes, { accounts });
  const sso = ssoService(database.db, auth, audit.record, config.oidc);
  app.decorate('ssoService', sso);
  await app.register(ssoRoutes, { sso, publicUrl: config.publicUrl });
  // Live state: stored readings update the latest states, which go out over the bus to the sockets.
  // With REDIS_URL the nodes share live events, so a browser on any node sees every node's work.
  const bus = opts.bus ?? (config.redisUrl ? redisBus(config.redisUrl, { log: app.log }) : localBus());
  if (!opts.bus) app.addHook('onClose', async () => bus.close());
  const states = stateReader(database.db, config.offlineAfterMs);
  const live = liveComposer(database.db, config.offlineAfterMs);
  const push = alarmPush(database.db, { log: app.log, messenger: messages });
  app.decorate('push', push);
  // Alarm changes: every alarm row that opened or changed, to the browsers and to the push rules.
  const changedAlarms = alarmChanges();
  changedAlarms.subscribe((alarms) => bus.publish({ type: 'alarms', alarms }));
  changedAlarms.subscribe((alarms) => push.onAlarms(alarms));
  const publishAlarms = (rows: AlarmRow[]) => {
    if (rows.length === 0) return;
    const failed = changedAlarms.publish(rows);
    if (failed !== undefined) throw failed;
  };
  const engine = alarmEngine(database.db, { log: app.log, publish: publishAlarms, opened: metrics.alarmsOpened });
  app.decorate('alarmEngine', engine);
  // Device faults from what the intake stores and refuses.
  const faults = faultDetector(database.db, { log: app.log, offlineAfterMs: config.offlineAfterMs });
  app.decorate('faultDetector', faults);
  // Transport tasks start and arrive from what the intake stores (the task service, below, moves them).
  const recognizer = taskRecognizer(database.db, { log: app.log, move: (id, to, at) => transportTasks.recognised(id, to, at) });
  app.decorate('taskRecognizer', recognizer);
  // Database outages: noticed once, the intake refuses cleanly, the end is noticed by a probe.
  // Writes that fail (disk full, read-only) the same way, with a platform alarm for the administrator.
  const alarmsOfPlatform = platformAlarms();
  const availability = databaseAvailability(database, {
    log: app.log,
    diskDir: database.kind === 'pglite' && config.dataDir ? config.dataDir : undefined,
    onWritable: (writable, stats) =>
      writable ? alarmsOfPlatform.clear('DATABASE_NOT_WRITABLE', new Date(), { refused: stats.refusedWhileUnwritable }) : alarmsOfPlatform.raise(databaseNotWritableAlarm(stats)),
  });
  app.decorate('availability', availability);
  app.addHook('onClose', async () => availability.close());
  metrics.watchAvailability(availability.stats, database.kind === 'pglite' && config.dataDir ? availability.checkDisk : undefined);
  app.health.addCheck('database-writes', () => {
    if (availability.unwritable) throw new Error(`the database cannot write: ${availability.stats().unwritableCause?.message ?? ''}`);
  });
  await app.register(platformAlarmRoutes, { alarms: alarmsOfPlatform });
  // Every periodic job of this node (plugins/jobs.ts): timers, one run at a time, paused while the
  // database is unreachable or cannot write, failures logged by name, stopped on close.
  await app.register(jobsPlugin, { availability });
  // The readings table's month partitions, created ahead one node at a time (db/partitions.ts).
  app.job('readings partitions', { everyMs: PARTITION_JOB_MS, atStart: true, whileUnwritable: true }, async () => {
    const months = (await ensurePartitions(database.db)).filter((m) => m.created);
    if (months.length) app.log.info({ months }, 'readings partitions created');
  });
  // The stored readings event: what must commit with a batch, and who hears of it once committed.
  const storedReadings = storedReadingsEvent();
  // What every module plugin is built from (modules/context.ts).
  const modules: ModuleContext = { config, database, availability, metrics, audit: audit.record, permissionsOf: auth.permissionsOf };
  // The readings archive (its step marks a late reading's packed day stale in the write's transaction).
  await app.register(archivePlugin, { ...modules, storedReadings });
  storedReadings.stored.subscribe(({ readings }) => engine.submit(readings));
  storedReadings.stored.subscribe(({ states, readings, heardBefore }) => faults.stored(states, readings, heardBefore));
  storedReadings.stored.subscribe(({ readings }) => recognizer.stored(readings));
  storedReadings.stored.subscribe(({ states }) =>
    void live.compose(states).then(
      (changed) => bus.publish({ type: 'device-states', states: changed }),
      (err: unknown) => app.log.warn({ err }, 'live state read failed'),
    ),
  );
  const readings = readingStore(database.db, {
    availability,
    concurrency: database.kind === 'postgres' ? 3 : 1,
    observe: metrics.readings,
    silenceAfterMs: config.offlineAfterMs,
    // The reading goes to its device's intake log with the reason; the rest of its batch is stored.
    onFailed: (err, r) => app.log.warn({ err, deviceRef: r.deviceRef, time: Number.isNaN(r.time.getTime()) ? null : r.time }, 'a reading the database refused was left out of its batch'),
    events: storedReadings,
  });
  app.decorate('readings', readings);
  // Policies, push rules, tasks and JT/T 808 item mappings are cached by each node: a change made
  // on any node drops them on every node (through the bus; on this node at once).
  const invalidate = (cache: CachedConfig) => bus.publish({ type: 'invalidate', cache });
  const jt808Models = jt808ModelService(database.db, audit.record, { changed: () => invalidate('jt808-models') });
  const invalidators: Record<CachedConfig, () => void> = {
    'alarm-policies': () => engine.invalidate(),
    'push-rules': () => push.invalidate(),
    'transport-tasks': () => recognizer.invalidate(),
    'jt808-models': () => jt808Models.invalidate(),
  };
  const unsubscribeCaches = bus.subscribe((event) => {
    if (event.type === 'invalidate') invalidators[event.cache]?.();
  });
  app.addHook('onClose', async () => unsubscribeCaches());
  metrics.watchQueue(() => readings.depth);
  let swept = new Date();
  app.decorate('sweepOffline', async () => {
    const until = new Date();
    const gone = await states.wentOffline(swept, until);
    swept = until;
    // Every node sweeps and finds the same devices: each tells its own browsers only.
    if (gone.length) bus.publishLocal({ type: 'device-states', states: gone });
  });
  const sweeper = app.job('offline sweep', { everyMs: 15_000 }, () => app.sweepOffline());
  // Time-based alarms (offline, stay timeout): one node's tick at a time does the work.
  // Escalation steps and delivery retries run on the same turn, one node at a time too.
  const alarmTick = app.job('alarm tick', { everyMs: config.alarmTickMs }, async () => void (await engine.tick()));
  const pushTick = app.job('alarm push tick', { everyMs: config.alarmTickMs }, () => push.tick());
  app.addHook('onClose', async () => {
    await Promise.all([sweeper.stop(), alarmTick.stop(), pushTick.stop()]);
    await readings.flushed();
    await engine.settled();
    await push.settled();
    await faults.settled();
    await recognizer.settled();
  });
  const intake = intakePipeline(database.db, readings, { availability, log: app.log, earliest: config.intakeEarliest, authFailuresPerMinute: config.intakeAuthFailuresPerIp, keepLogMs: config.intakeLogMs, onRefused: (r) => faults.refused(r), deviceRate: deviceRateLimiter(config.intakeDeviceRate), onCounted: metrics.countReports });
  app.decorate('intake', intake);
  const hub = await liveHub(app, { db: database.db, auth, bus, offlineAfterMs: config.offlineAfterMs, availability });
  metrics.watchClients(hub.clientCount);
  await app.register(telemetryRoutes, { service: telemetryService(database.db, states), map: config.map });
  await app.register(homeRoutes, { service: homeService(database.db, states) });
  await app.register(cockpitRoutes, { service: cockpitService(database.db, states) });
  await app.register(deviceRoutes, { service: deviceService(database.db, audit.record) });
  await app.register(jt808Routes, { view: jt808ViewService(database.db) });
  app.decorate('jt808Models', jt808Models);
  await app.register(jt808ModelRoutes, { models: jt808Models });
  await app.register(httpIntakeRoutes, { devicePerMinute: Math.ceil(config.intakeDeviceRate.rate * 60 + config.intakeDeviceRate.burst), pipeline: intake });
  await app.register(assetRoutes, { service: assetService(database.db, audit.record) });
  await app.register(faultRoutes, { faults: faultService(database.db) });
  await app.register(trackRoutes, { tracks: trackService(database.db) });
  await app.register(storagePlugin, modules);
  await app.register(retentionPlugin, modules);
  const alarmReports = alarmReportService(database.db);
  const onlineReports = onlineReportService(database.db, { offlineAfterMs: config.offlineAfterMs });
  const mileageReports = mileageReportService(database.db);
  const gsp = gspService(database.db);
  await app.register(reportRoutes, { shipments: shipmentService(database.db), production: productionService(database.db), gsp, alarmReports, onlineReports, mileageReports });
  await app.register(compareRoutes, { compare: compareService(database.db), permissionsOf: auth.permissionsOf });
  await app.register(warehouseRoutes, { records: warehouseService(database.db) });
  const levels = levelService(database.db, audit.record);
  const policies = policyService(database.db, {
    audit: audit.record,
    onChange: (ended) => {
      invalidate('alarm-policies');
      void alarmsByIds(database.db, ended).then(publishAlarms, (err: unknown) => app.log.warn({ err }, 'alarm push failed'));
    },
  });
  // An acknowledged terminal alarm the platform must clear goes to the terminal as 0x8203 (from the node holding it).
  const jt808Confirmations = alarmConfirmations(bus, database.db);
  app.decorate('jt808Confirmations', jt808Confirmations);
  await app.register(alarmRoutes, { levels, policies, alarms: alarmService(database.db, { publish: publishAlarms, acknowledged: (row) => jt808Confirmations.acknowledged(row) }) });
  await app.register(workOrderRoutes, { workOrders: workOrderService(database.db, { publish: publishAlarms }) });
  // A task's own policy and push rule change like any: the engine and the push reload, ended alarms go out.
  const transportTasks = transportTaskService(database.db, {
    audit: audit.record,
    onTaskChange: () => invalidate('transport-tasks'),
    onPolicyChange: (ended) => {
      invalidate('alarm-policies');
      void alarmsByIds(database.db, ended).then(publishAlarms, (err: unknown) => app.log.warn({ err }, 'alarm push failed'));
    },
    onPushRuleChange: () => invalidate('push-rules'),
  });
  app.decorate('transportTasks', transportTasks);
  const transportTemplates = templateService(database.db, { audit: audit.record });
  app.decorate('transportTemplates', transportTemplates);
  await app.register(transportRoutes, { tasks: transportTasks, templates: transportTemplates, routing: routingService({ url: config.routingUrl, log: app.log }) });
  await app.register(pushRoutes, {
    rules: pushRuleService(database.db, { audit: audit.record, onChange: () => invalidate('push-rules') }),
    deliveries: deliveryService(database.db, push),
  });
  await app.register(orgUserRoutes, {
    service: orgUserService(orgUserRepo(database.db), { permissionsOf: auth.permissionsOf, audit: audit.record }),
  });
  // Remote control: sent commands that nobody acknowledges in time fail (one node's check at a time).
  const commands = commandService(database.db, { log: app.log, timeoutMs: config.commandTimeoutMs });
  app.decorate('commands', commands);
  // JT/T 808 terminals get theirs through the bus from the node that holds the connection (modules/jt808/downlink.ts).
  const jt808Commands = jt808Downlink(bus, commands, { nodeId: config.nodeId, log: app.log });
  commands.attach(jt808Commands.sender, 'jt808');
  app.decorate('jt808Commands', jt808Commands.downlink);
  await app.register(commandRoutes, { commands, permissionsOf: auth.permissionsOf });
  const commandTick = app.job('command timeouts', { everyMs: Math.max(1000, Math.min(5000, config.commandTimeoutMs / 4)) }, async () => void (await commands.tick()));
  app.addHook('onClose', async () => {
    await commandTick.stop();
    await commands.settled();
  });
  // Scheduled reports: each due run is claimed by one node's tick and mailed with its file.
  const scheduler = reportScheduler(database.db, {
    log: app.log,
    messenger: messages,
    permissionsOf: auth.permissionsOf,
    makers: reportMakers({ gsp, alarm: alarmReports, online: onlineReports, mileage: mileageReports }),
  });
  app.decorate('reportScheduler', scheduler);
  await app.register(reportScheduleRoutes, { schedules: scheduleService(database.db, { audit: audit.record, scheduler, permissionsOf: auth.permissionsOf }) });
  const scheduleTick = app.job('scheduled reports', { everyMs: 60_000 }, () => scheduler.tick());
  app.addHook('onClose', async () => {
    await scheduleTick.stop();
    await scheduler.settled();
  });
  await app.register(ledgerPlugin, modules);

  const webDist = config.webDist && existsSync(join(config.webDist, 'index.html')) ? resolve(config.webDist) : undefined;
  if (webDist) {
    // wildcard: files are looked up per request, so a rebuilt app is served without a restart;
    // a missing file falls through to the not-found handler below.
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: false,
      cacheControl: false,
      // The build leaves a .br and a .gz beside each text file (apps/web/vite.config.ts).
      preCompressed: true,
      setHeaders: (reply, path) => {
        // Vite names assets by content hash: they never change; index.html always may.
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/', { schema: { hide: true } }, (_req, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html', webDist));
  }
  app.setNotFoundHandler((req, reply) => {
    const isApi = API_PREFIXES.some((p) => req.url.startsWith(p));
    if (!isApi && webDist && (req.method === 'GET' || req.method === 'HEAD')) {
      const path = req.url.split('?')[0]!;
      // Hashed assets are immutable; a missing one is a real 404, not the app shell.
      if (path.startsWith('/assets/')) return sendNotFound(req, reply);
      return reply.header('cache-control', 'no-cache').sendFile('index.html', webDist);
    }
    return sendNotFound(req, reply);
  });

  return app;
}
