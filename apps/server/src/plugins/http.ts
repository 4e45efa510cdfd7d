// What every request goes through before a route sees it: the route table (collected from the
// start, so it holds every route), the refusal of text that cannot be stored, the body parsers
// and the Zod validator and serializer. Registered first.
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { DEVICE_API } from '@iotc/shared/device';
import { AppError } from '../lib/errors.ts';
import { XLSX_TYPE } from '../lib/sheet.ts';
import { unstorableTextAt } from './text-guard.ts';

/** A registered route as the route table keeps it. */
export interface RouteEntry {
  method: string;
  url: string;
  schema?: { body?: unknown; querystring?: unknown; params?: unknown; hide?: boolean };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every registered route (HEAD duplicates left out), for the generated isolation and fuzz tests. */
    routeTable: RouteEntry[];
  }
}

export const httpPlugin = fp(async (app: FastifyInstance) => {
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
});
