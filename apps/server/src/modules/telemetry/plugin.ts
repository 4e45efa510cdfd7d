// Telemetry: the latest states and history routes, and the live states: what the intake stores
// updates the latest states, which go out over the bus to the browsers; a sweep every 15 s sends
// the states of devices that went offline since the last one.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { telemetryRoutes } from './routes.ts';
import { telemetryService } from './service.ts';
import { liveComposer, stateReader } from './states.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Pushes the states of devices that went offline since the last sweep. */
    sweepOffline: () => Promise<void>;
  }
}

export const telemetryPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const { config, bus } = ctx;
  const db = ctx.database.db;
  const states = stateReader(db, config.offlineAfterMs);
  const live = liveComposer(db, config.offlineAfterMs);
  ctx.storedReadings.stored.subscribe(({ states: stored }) =>
    void live.compose(stored).then(
      (changed) => bus.publish({ type: 'device-states', states: changed }),
      (err: unknown) => app.log.warn({ err }, 'live state read failed'),
    ),
  );
  let swept = new Date();
  app.decorate('sweepOffline', async () => {
    const until = new Date();
    const gone = await states.wentOffline(swept, until);
    swept = until;
    // Every node sweeps and finds the same devices: each tells its own browsers only.
    if (gone.length) bus.publishLocal({ type: 'device-states', states: gone });
  });
  const sweeper = app.job('offline sweep', { everyMs: 15_000 }, () => app.sweepOffline());
  app.addHook('onClose', async () => sweeper.stop());
  await app.register(telemetryRoutes, { service: telemetryService(db, states), map: () => app.mapTiles.current() });
});
