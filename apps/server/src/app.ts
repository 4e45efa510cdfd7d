// Builds the Fastify app from a config object: database (migrated and seeded), plugins,
// the spec's calls, OpenAPI, and the built web app with its client-side routes.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import secureJson from 'secure-json-parse';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { PRODUCT_TITLE } from '@iotc/shared/i18n';
import type { AppConfig } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { seed, type SeedResult } from './db/seed.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorsPlugin, sendNotFound, AppError } from './plugins/errors.ts';
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
import { intakePipeline, type IntakePipeline } from './ingest/pipeline.ts';
import { readingStore, type ReadingStore } from './ingest/store.ts';
import { localBus } from './realtime/bus.ts';
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
import { faultDetector } from './modules/fault/detector.ts';
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
import { reportMakers } from './modules/report-schedule/makers.ts';
import { reportScheduler, type ReportScheduler } from './modules/report-schedule/runner.ts';
import { scheduleService } from './modules/report-schedule/schedules.ts';
import { reportScheduleRoutes } from './modules/report-schedule/routes.ts';
import { ledgerService, type LedgerService } from './modules/ledger/service.ts';
import { ledgerRoutes } from './modules/ledger/routes.ts';

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
    alarmEngine: AlarmEngine;
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
    /** Scheduled reports: the tick sends the due ones (one node per run). */
    reportScheduler: ReportScheduler;
    /** The traceability ledger: its feeder tick and tree-head signing (one node at a time). */
    ledger: LedgerService;
  }
}

/**
 * A request address as logged: secrets in the query (the spec's bindUser carries a password;
 * an address may carry a token) never reach the log.
 */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:password|token|access_token|code|state)=)[^&#]*/gi, '$1***');
}

/** Paths that belong to the API; everything else is the web app's. */
const API_PREFIXES = ['/iot-cloud-auth/', '/api/'];

export async function buildApp(
  config: AppConfig,
  opts: { database?: Database; /** Replaces the HTTP SMS adapter (another vendor's, or a test's). */ sms?: SmsGateway } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Tokens and passwords never reach the log.
      redact: ['req.headers.access_token', 'req.headers.authorization', 'req.headers.cookie'],
      serializers: {
        req: (req: { method: string; url: string; host?: string; ip?: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
        }),
      },
    },
    bodyLimit: 1_048_576,
    trustProxy: false,
    requestIdHeader: 'x-request-id',
  }).withTypeProvider<ZodTypeProvider>();

  // An empty body on a JSON POST (the spec's `info` call) is no body, not an error.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' }));
    } catch {
      done(new AppError(400, 'VALIDATION', 'malformed JSON'), undefined);
    }
  });

  // Imports send the workbook itself as the body.
  app.addContentTypeParser([XLSX_TYPE, 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: 10 * 1_048_576 }, (_req, body, done) => done(null, body));

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database =
    opts.database ??
    (await openDatabase(
      config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir || undefined },
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
  await app.register(authPlugin, { auth });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${PRODUCT_TITLE.en} API`, version: '0.1.0' },
      components: { securitySchemes: { accessToken: { type: 'apiKey', in: 'header', name: 'access_token' } } },
    },
    transform: jsonSchemaTransform,
  });

  await app.register(authRoutes, { auth });
  await app.register(menuRoutes, { menus: menuService(menuRepo(database.db)) });
  await app.register(dictRoutes, { dicts: dictRepo(database.db) });
  await app.register(auditRoutes, { audit });
  await app.register(captchaRoutes, { captchas });
  await app.register(accountRoutes, { accounts });
  const sso = ssoService(database.db, auth, audit.record, config.oidc);
  app.decorate('ssoService', sso);
  await app.register(ssoRoutes, { sso, publicUrl: config.publicUrl });
  // Live state: stored readings update the latest states, which go out over the bus to the sockets.
  const bus = localBus();
  app.addHook('onClose', async () => bus.close());
  const states = stateReader(database.db, config.offlineAfterMs);
  const live = liveComposer(database.db, config.offlineAfterMs);
  const push = alarmPush(database.db, { log: app.log, messenger: messages });
  app.decorate('push', push);
  // Every alarm row that opened or changed: to the browsers, and to the push rules.
  const publishAlarms = (rows: AlarmRow[]) => {
    if (rows.length === 0) return;
    bus.publish({ type: 'alarms', alarms: rows });
    push.onAlarms(rows);
  };
  const engine = alarmEngine(database.db, { log: app.log, publish: publishAlarms });
  app.decorate('alarmEngine', engine);
  // Device faults from what the intake stores and refuses.
  const faults = faultDetector(database.db, { log: app.log, offlineAfterMs: config.offlineAfterMs });
  app.decorate('faultDetector', faults);
  // Transport tasks start and arrive from what the intake stores (the task service, below, moves them).
  const recognizer = taskRecognizer(database.db, { log: app.log, move: (id, to, at) => transportTasks.recognised(id, to, at) });
  app.decorate('taskRecognizer', recognizer);
  const readings = readingStore(database.db, {
    concurrency: database.kind === 'postgres' ? 3 : 1,
    silenceAfterMs: config.offlineAfterMs,
    onStored: (stored, inserted, heardBefore) => {
      engine.submit(inserted);
      faults.stored(stored, inserted, heardBefore);
      recognizer.stored(inserted);
      void live.compose(stored).then(
        (changed) => bus.publish({ type: 'device-states', states: changed }),
        (err: unknown) => app.log.warn({ err }, 'live state read failed'),
      );
    },
  });
  app.decorate('readings', readings);
  let swept = new Date();
  app.decorate('sweepOffline', async () => {
    const until = new Date();
    const gone = await states.wentOffline(swept, until);
    swept = until;
    if (gone.length) bus.publish({ type: 'device-states', states: gone });
  });
  const sweeper = setInterval(() => void app.sweepOffline().catch((err: unknown) => app.log.warn({ err }, 'offline sweep failed')), 15_000);
  sweeper.unref();
  // Time-based alarms (offline, stay timeout): one node's tick at a time does the work.
  // Escalation steps and delivery retries run on the same tick, one node at a time too.
  const alarmTicker = setInterval(() => {
    void engine.tick().catch((err: unknown) => app.log.warn({ err }, 'alarm tick failed'));
    void push.tick().catch((err: unknown) => app.log.warn({ err }, 'alarm push tick failed'));
  }, config.alarmTickMs);
  alarmTicker.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    clearInterval(alarmTicker);
    await readings.flushed();
    await engine.settled();
    await push.settled();
    await faults.settled();
    await recognizer.settled();
  });
  const intake = intakePipeline(database.db, readings, { onRefused: (r) => faults.refused(r) });
  app.decorate('intake', intake);
  await liveHub(app, { db: database.db, auth, bus, offlineAfterMs: config.offlineAfterMs });
  await app.register(telemetryRoutes, { service: telemetryService(database.db, states), map: config.map });
  await app.register(homeRoutes, { service: homeService(database.db, states) });
  await app.register(cockpitRoutes, { service: cockpitService(database.db, states) });
  await app.register(deviceRoutes, { service: deviceService(database.db, audit.record) });
  await app.register(httpIntakeRoutes, { pipeline: intake });
  await app.register(assetRoutes, { service: assetService(database.db, audit.record) });
  await app.register(faultRoutes, { faults: faultService(database.db) });
  await app.register(trackRoutes, { tracks: trackService(database.db) });
  const alarmReports = alarmReportService(database.db);
  const onlineReports = onlineReportService(database.db, { offlineAfterMs: config.offlineAfterMs });
  const mileageReports = mileageReportService(database.db);
  await app.register(reportRoutes, { shipments: shipmentService(database.db), production: productionService(database.db), gsp: gspService(database.db), alarmReports, onlineReports, mileageReports });
  await app.register(compareRoutes, { compare: compareService(database.db), permissionsOf: auth.permissionsOf });
  await app.register(warehouseRoutes, { records: warehouseService(database.db) });
  const levels = levelService(database.db, audit.record);
  const policies = policyService(database.db, {
    audit: audit.record,
    onChange: (ended) => {
      engine.invalidate();
      void alarmsByIds(database.db, ended).then(publishAlarms, (err: unknown) => app.log.warn({ err }, 'alarm push failed'));
    },
  });
  await app.register(alarmRoutes, { levels, policies, alarms: alarmService(database.db, { publish: publishAlarms }) });
  await app.register(workOrderRoutes, { workOrders: workOrderService(database.db, { publish: publishAlarms }) });
  // A task's own policy and push rule change like any: the engine and the push reload, ended alarms go out.
  const transportTasks = transportTaskService(database.db, {
    audit: audit.record,
    onTaskChange: () => recognizer.invalidate(),
    onPolicyChange: (ended) => {
      engine.invalidate();
      void alarmsByIds(database.db, ended).then(publishAlarms, (err: unknown) => app.log.warn({ err }, 'alarm push failed'));
    },
    onPushRuleChange: () => push.invalidate(),
  });
  app.decorate('transportTasks', transportTasks);
  const transportTemplates = templateService(database.db, { audit: audit.record });
  app.decorate('transportTemplates', transportTemplates);
  await app.register(transportRoutes, { tasks: transportTasks, templates: transportTemplates, routing: routingService({ url: config.routingUrl, log: app.log }) });
  await app.register(pushRoutes, {
    rules: pushRuleService(database.db, { audit: audit.record, onChange: () => push.invalidate() }),
    deliveries: deliveryService(database.db, push),
  });
  await app.register(orgUserRoutes, {
    service: orgUserService(orgUserRepo(database.db), { permissionsOf: auth.permissionsOf, audit: audit.record }),
  });
  // Remote control: sent commands that nobody acknowledges in time fail (one node's check at a time).
  const commands = commandService(database.db, { log: app.log, timeoutMs: config.commandTimeoutMs });
  app.decorate('commands', commands);
  await app.register(commandRoutes, { commands, permissionsOf: auth.permissionsOf });
  const commandTicker = setInterval(() => void commands.tick(), Math.max(1000, Math.min(5000, config.commandTimeoutMs / 4)));
  commandTicker.unref();
  app.addHook('onClose', async () => {
    clearInterval(commandTicker);
    await commands.settled();
  });
  // Scheduled reports: each due run is claimed by one node's tick and mailed with its file.
  const scheduler = reportScheduler(database.db, {
    log: app.log,
    messenger: messages,
    permissionsOf: auth.permissionsOf,
    makers: reportMakers({ gsp: gspService(database.db), alarm: alarmReports, online: onlineReports, mileage: mileageReports }),
  });
  app.decorate('reportScheduler', scheduler);
  await app.register(reportScheduleRoutes, { schedules: scheduleService(database.db, { audit: audit.record, scheduler, permissionsOf: auth.permissionsOf }) });
  const scheduleTicker = setInterval(() => void scheduler.tick(), 60_000);
  scheduleTicker.unref();
  app.addHook('onClose', async () => {
    clearInterval(scheduleTicker);
    await scheduler.settled();
  });
  // The ledger: stored readings, custody events and alarms are appended every few seconds and a
  // tree head is signed at the configured interval (one node at a time for both).
  const ledger = ledgerService(database.db, {
    log: app.log,
    dataDir: config.dataDir,
    origin: config.ledgerOrigin,
    signerKey: config.ledgerSignerKey,
    permissionsOf: auth.permissionsOf,
    publicUrl: config.publicUrl,
  });
  await ledger.signer();
  app.decorate('ledger', ledger);
  await app.register(ledgerRoutes, { ledger });
  const ledgerTicker = setInterval(() => void ledger.tick().catch((err: unknown) => app.log.warn({ err }, 'ledger tick failed')), 5_000);
  ledgerTicker.unref();
  const checkpointTicker = setInterval(
    () => void ledger.checkpoint().catch((err: unknown) => app.log.warn({ err }, 'ledger checkpoint failed')),
    config.ledgerCheckpointMs,
  );
  checkpointTicker.unref();
  app.addHook('onClose', async () => {
    clearInterval(ledgerTicker);
    clearInterval(checkpointTicker);
    await ledger.settled();
  });
  app.get('/api/docs/json', { schema: { hide: true } }, async () => app.swagger());

  const webDist = config.webDist && existsSync(join(config.webDist, 'index.html')) ? resolve(config.webDist) : undefined;
  if (webDist) {
    // wildcard: files are looked up per request, so a rebuilt app is served without a restart;
    // a missing file falls through to the not-found handler below.
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: false,
      cacheControl: false,
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
