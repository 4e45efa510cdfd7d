// The ledger's module: stored readings, custody events and alarms are appended every few seconds
// and a tree head is signed at the configured interval (one node at a time for both); its routes
// give proofs, certificates and share links.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { ledgerRoutes } from './routes.ts';
import { ledgerService, type LedgerService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The traceability ledger: its feeder tick and tree-head signing (one node at a time). */
    ledger: LedgerService;
  }
}

export const ledgerPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const { config } = ctx;
  const ledger = ledgerService(ctx.database.db, {
    log: app.log,
    dataDir: config.dataDir,
    origin: config.ledgerOrigin,
    signerKey: config.ledgerSignerKey,
    audit: ctx.audit,
    publicUrl: config.publicUrl,
    lease: ctx.lease,
  });
  await ledger.signer();
  app.decorate('ledger', ledger);
  await app.register(ledgerRoutes, { ledger });
  const tick = app.job('ledger tick', { everyMs: config.ledgerTickMs }, async () => void (await ledger.tick()));
  const checkpoint = app.job('ledger checkpoint', { everyMs: config.ledgerCheckpointMs }, async () => void (await ledger.checkpoint()));
  app.addHook('onClose', async () => {
    await Promise.all([tick.stop(), checkpoint.stop()]);
    await ledger.settled();
  });
});
