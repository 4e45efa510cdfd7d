// The built web app (WEB_DIST) with its client-side routes: files served as they are (with the
// .br and .gz the build made), index.html for any other GET outside the API, and the not-found
// answer for the rest. Registered last.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { sendNotFound } from './errors.ts';

/** Paths that belong to the API; everything else is the web app's. */
const API_PREFIXES = ['/iot-cloud-auth/', '/api/'];

export const webPlugin = fp(async (app: FastifyInstance, opts: { webDist?: string }) => {
  const webDist = opts.webDist && existsSync(join(opts.webDist, 'index.html')) ? resolve(opts.webDist) : undefined;
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
});
