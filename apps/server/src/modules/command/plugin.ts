// Remote control: commands approved and sent over the device link (attached with
// `app.commands.attach(link)`); sent ones that nobody acknowledges in time fail (one node's check
// at a time).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { commandRoutes } from './routes.ts';
import { commandService, type CommandService } from './service.ts';
import { signaturesOf } from '../signature/plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Remote control: the device link attaches here (`app.commands.attach(link)`) and hands it acknowledgements (`onAck`). */
    commands: CommandService;
  }
}

export const commandPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const { config } = ctx;
  const commands = commandService(ctx.database.db, { log: app.log, timeoutMs: config.commandTimeoutMs, lease: ctx.lease, signatures: signaturesOf(ctx) });
  app.decorate('commands', commands);
  await app.register(commandRoutes, { commands });
  const tick = app.job('command timeouts', { everyMs: Math.max(1000, Math.min(5000, config.commandTimeoutMs / 4)) }, async () => void (await commands.tick()));
  app.addHook('onClose', async () => {
    await tick.stop();
    await commands.settled();
  });
});
