// JT/T 808: the terminals' view and their models' item mappings (cached by each node, dropped on
// every node when one changes), the commands that reach a terminal through the bus from the node
// holding its connection, and operators' alarm confirmations (0x8203) the same way. The gateway
// itself is started by main.ts with what this plugin decorates.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import type { CommandService } from '../command/service.ts';
import { alarmConfirmations, type AlarmConfirmations } from './alarm-confirm.ts';
import { jt808Downlink, type Jt808Downlink } from './downlink.ts';
import { jt808ModelService, type Jt808ModelService } from './models.ts';
import { jt808ModelRoutes } from './models-routes.ts';
import { jt808Routes } from './routes.ts';
import { jt808ViewService } from './view.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** JT/T 808 commands: what the gateway of this node takes (deliveries from the bus, answers). */
    jt808Commands: Jt808Downlink;
    /** Vendor item mappings of JT/T 808 terminal models, applied by the gateway to each report. */
    jt808Models: Jt808ModelService;
    /** Operators' confirmations of JT/T 808 terminal alarms, to the node holding the terminal (0x8203). */
    jt808Confirmations: AlarmConfirmations;
  }
}

export const jt808Plugin = fp(async (app: FastifyInstance, ctx: ModuleContext & { commands: CommandService }) => {
  const db = ctx.database.db;
  await app.register(jt808Routes, { view: jt808ViewService(db) });
  const models = jt808ModelService(db, ctx.audit, { changed: () => ctx.invalidate('jt808-models') });
  ctx.onInvalidate('jt808-models', () => models.invalidate());
  app.decorate('jt808Models', models);
  await app.register(jt808ModelRoutes, { models });
  app.decorate('jt808Confirmations', alarmConfirmations(ctx.bus, db));
  const downlink = jt808Downlink(ctx.bus, ctx.commands, { nodeId: ctx.config.nodeId, log: app.log });
  ctx.commands.attach(downlink.sender, 'jt808');
  app.decorate('jt808Commands', downlink.downlink);
});
