// Charts drawn by the server (routes.ts): any signed-in user's screen, no data of its own.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { chartRoutes } from './routes.ts';

export const chartPlugin = fp(async (app: FastifyInstance) => {
  await app.register(chartRoutes);
});
