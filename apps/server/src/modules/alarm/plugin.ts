// The alarm module: the engine judging the stored readings against the policies, the message push
// (rules, escalation, the delivery log), levels, policies and the alarm list with their routes.
// Every alarm that opens or changes goes out through the alarm changes (ctx.publishAlarms) to the
// browsers and the push. Time-based alarms (offline, stay timeout), escalation steps and delivery
// retries run on the alarm tick, one node's at a time.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AlarmRow } from '@iotc/shared/alarm';
import type { ModuleContext } from '../context.ts';
import { alarmService } from './alarms.ts';
import { deliveryService } from './deliveries.ts';
import { alarmEngine, type AlarmEngine } from './engine.ts';
import { levelService } from './levels.ts';
import { policyService } from './policies.ts';
import { alarmPush, type AlarmPush } from './push.ts';
import { pushRuleService } from './push-rules.ts';
import { pushRoutes } from './push-routes.ts';
import { alarmsByIds } from './records.ts';
import { alarmRoutes } from './routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    alarmEngine: AlarmEngine;
    /** Message push for alarms: rules, escalation, the delivery log. */
    push: AlarmPush;
  }
}

export const alarmPlugin = fp(
  async (
    app: FastifyInstance,
    ctx: ModuleContext & {
      /** An operator acknowledged an alarm (a JT/T 808 terminal's is confirmed to it). */
      acknowledged: (row: AlarmRow) => void;
    },
  ) => {
    const db = ctx.database.db;
    // An in-app delivery tells its recipient's open tabs (the header's inbox bell).
    const push = alarmPush(db, { log: app.log, messenger: ctx.messenger, lease: ctx.lease, inApp: (userIds) => ctx.bus.publish({ type: 'inbox', userIds }) });
    app.decorate('push', push);
    ctx.alarmChanges.subscribe((alarms) => ctx.bus.publish({ type: 'alarms', alarms }));
    ctx.alarmChanges.subscribe((alarms) => push.onAlarms(alarms));
    const engine = alarmEngine(db, { log: app.log, publish: ctx.publishAlarms, opened: ctx.metrics.alarmsOpened, lease: ctx.lease });
    app.decorate('alarmEngine', engine);
    ctx.storedReadings.stored.subscribe(({ readings }) => engine.submit(readings));
    ctx.onInvalidate('alarm-policies', () => engine.invalidate());
    ctx.onInvalidate('push-rules', () => push.invalidate());

    const policies = policyService(db, {
      audit: ctx.audit,
      onChange: (ended) => {
        ctx.invalidate('alarm-policies');
        void alarmsByIds(db, ended).then(ctx.publishAlarms, (err: unknown) => app.log.warn({ err }, 'alarm push failed'));
      },
    });
    const alarms = alarmService(db, { audit: ctx.audit, publish: ctx.publishAlarms, acknowledged: ctx.acknowledged });
    await app.register(alarmRoutes, { levels: levelService(db, ctx.audit), policies, alarms });
    await app.register(pushRoutes, {
      rules: pushRuleService(db, { audit: ctx.audit, onChange: () => ctx.invalidate('push-rules') }),
      deliveries: deliveryService(db, push, ctx.audit),
    });

    const alarmTick = app.job('alarm tick', { everyMs: ctx.config.alarmTickMs }, async () => void (await engine.tick()));
    const pushTick = app.job('alarm push tick', { everyMs: ctx.config.alarmTickMs }, () => push.tick());
    app.addHook('onClose', async () => {
      await Promise.all([alarmTick.stop(), pushTick.stop()]);
      await engine.settled();
      await push.settled();
    });
  },
);
