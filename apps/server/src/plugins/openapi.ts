// The OpenAPI document (/api/docs/json, OpenAPI 3.1) and its reading page (/api/docs, Swagger UI
// served from its npm package, so it works offline). Route schemas are the Zod contracts of
// packages/shared; this is the one place that adds what integrators and client generators need
// and a route does not say itself: an operation id from the method and address, the security the
// route's guard asks for (plugins/auth.ts marks its guards), the error envelope on 4xx and 5xx,
// binary request bodies of the .xlsx imports and the file answers of exports, templates and reports.
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import fastifySwagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { z } from 'zod';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { menuItemSchema } from '@iotc/shared/auth';
import { DEVICE_API, MAX_REPORTS_PER_CALL, deviceReportSchema } from '@iotc/shared/device';
import { orgNodeSchema } from '@iotc/shared/platform';
import { jsonValueSchema } from '@iotc/shared/ledger/leaf';
import { envelopeSchema, errorEnvelopeSchema } from '@iotc/shared/envelope';
import { errorText, type ErrorCode } from '@iotc/shared/errors';
import { PRODUCT_TITLE } from '@iotc/shared/i18n';
import { XLSX_TYPE } from '../lib/sheet.ts';
import { guardOf, type Guard } from './auth.ts';

export const DOCS_PREFIX = '/api/docs';

/**
 * Schemas that become named components. The recursive ones must: a recursive schema written
 * inline refers to itself by a name that is nowhere in the document. The error envelope is one
 * component that every 4xx and 5xx answer refers to.
 */
const COMPONENTS: [z.ZodType, string][] = [
  [menuItemSchema, 'MenuItem'],
  [orgNodeSchema, 'OrgNode'],
  [jsonValueSchema, 'JsonValue'],
  [errorEnvelopeSchema, 'ErrorEnvelope'],
  // The answer of format=json of the reports that also answer files.
  [envelopeSchema(z.looseObject({})), 'Envelope'],
];
for (const [schema, id] of COMPONENTS) if (!z.globalRegistry.has(schema)) z.globalRegistry.add(schema, { id });

/** One report or an array of them (DESIGN.md, "Device report format"). */
const DEVICE_REPORTS = z.union([deviceReportSchema, z.array(deviceReportSchema).max(MAX_REPORTS_PER_CALL)]);
const ERROR_REF = { $ref: '#/components/schemas/ErrorEnvelope' };
const BINARY = { type: 'string', format: 'binary' };
const CSV_TYPE = 'text/csv; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
/** What each value of an export's or report's `format` query answers with. */
const FORMAT_TYPES: Record<string, string> = { csv: CSV_TYPE, xlsx: XLSX_TYPE, pdf: 'application/pdf', text: TEXT_TYPE, json: 'application/json' };
/** The file answers whose route has no `format` and is not an import template. */
const FILE_ANSWERS: Record<string, string[]> = {
  'GET /api/iot/v2/alarm-policies/export': ['application/json'],
  'GET /api/iot/v2/ledger/checkpoint': [TEXT_TYPE],
  // GeoJSON, sent as bytes: the web client reads any JSON answer as an envelope.
  'GET /api/iot/v2/places/geojson': ['application/octet-stream'],
  'GET /api/iot/v2/ledger/public/:token/certificate': ['application/pdf'],
};
/** Calls that answer with a redirect (the external sign-in). */
const REDIRECTS = new Set(['GET /iot-cloud-auth/auth/v1/oauth', 'GET /iot-cloud-auth/auth/v1/oauth/callback']);

/** `getDevicesById` for GET /api/iot/v2/devices/:id: the method, then the address without its prefix and versions. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/(api\/iot\/v2|iot-cloud-auth|api)\//, '')
    .split('/')
    .filter((s) => s && !/^v\d+$/.test(s))
    .flatMap((s) => (s.startsWith(':') ? ['by', ...s.slice(1).split(/[-_.]/)] : s.split(/[-_.]/)))
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** The guard of a route: the strongest of its preHandlers that plugins/auth.ts knows. */
function routeGuard(route: RouteOptions): Guard | undefined {
  let found: Guard | undefined;
  for (const fn of [route.preHandler ?? []].flat()) {
    const g = guardOf(fn);
    if (g && (!found || found.session === 'optional' || (g.permission && !found.permission))) found = g;
  }
  return found;
}

const errorAnswer = (description: string, code: ErrorCode) => ({
  description,
  content: { 'application/json': { schema: ERROR_REF, example: { isSuccess: 'N', data: null, errorcode: code, errormsg: errorText(code, 'en') } } },
});
const fileAnswer = (types: string[]) => ({
  description: 'The file, with its name in Content-Disposition',
  headers: { 'content-disposition': { type: 'string', description: 'attachment; filename="…"' } },
  content: Object.fromEntries(types.map((t) => [t, { schema: t.startsWith('text/') ? { type: 'string' } : t === 'application/json' ? {} : BINARY }])),
});

type JsonObject = { properties?: Record<string, { enum?: unknown[] }> } & Record<string, unknown>;

/** The route schema, as Zod's transform made it, with what the document needs on top. */
const transform: SwaggerTransform = (input) => {
  const out = jsonSchemaTransform(input);
  const schema = out.schema as Record<string, unknown> & { hide?: boolean; security?: Record<string, string[]>[]; operationId?: string; body?: unknown; querystring?: JsonObject; response?: Record<string, unknown> };
  if (schema.hide) return out;
  const route = input.route;
  const method = [route.method].flat()[0]!;
  const key = `${method} ${route.url}`;
  schema.operationId ??= operationIdOf(method, route.url);

  // Security: what the route says itself (the device intake's Basic auth), else what its guard asks.
  const guard = routeGuard(route);
  schema.security ??= !guard ? [] : guard.session === 'optional' ? [{}, { accessToken: [] }] : [{ accessToken: [] }];
  const secured = schema.security.some((s) => Object.keys(s).length > 0);

  // The intake takes any JSON and checks its reports one by one (a bad one is listed in the
  // answer, the others kept): what it reads is documented here.
  if (route.url === DEVICE_API.report) schema.body = (jsonSchemaTransform({ ...input, schema: { body: DEVICE_REPORTS } }).schema as { body: unknown }).body;
  // Imports take the workbook itself as the body (the parser in plugins/http.ts).
  if (method === 'POST' && route.url.endsWith('/import') && !schema.body) {
    schema.body = { content: { [XLSX_TYPE]: { schema: BINARY }, 'application/octet-stream': { schema: BINARY } } };
  }

  const response = (schema.response ??= {});
  if (!response['200']) {
    const formats = schema.querystring?.properties?.format?.enum as string[] | undefined;
    if (REDIRECTS.has(key)) {
      response['302'] = { description: 'Redirect (Location)', headers: { location: { type: 'string' } }, type: 'null' };
    } else if (formats) {
      const file = fileAnswer(formats.filter((f) => f !== 'json').map((f) => FORMAT_TYPES[f]!));
      // format=json answers the envelope; its data is the report the file shows.
      if (formats.includes('json')) (file.content as Record<string, unknown>)['application/json'] = { schema: { $ref: '#/components/schemas/Envelope' } };
      response['200'] = { ...file, description: 'The file (format), or the envelope for format=json' };
    } else if (route.url.endsWith('/import-template')) {
      response['200'] = fileAnswer([XLSX_TYPE]);
    } else if (FILE_ANSWERS[key]) {
      response['200'] = fileAnswer(FILE_ANSWERS[key]);
    }
  }
  const ok = response['200'] as Record<string, unknown> | undefined;
  if (ok && !('content' in ok)) ok['x-response-description'] = 'OK: the envelope with its data';
  response['400'] ??= errorAnswer('Invalid input (errorcode VALIDATION or the rule that was broken)', 'VALIDATION');
  if (schema.security.some((s) => 'accessToken' in s)) response['401'] ??= errorAnswer('No session, or an expired one (TOKEN_INVALID)', 'TOKEN_INVALID');
  else if (secured) response['401'] ??= errorAnswer('Unknown device or wrong secret', 'DEVICE_AUTH_FAILED');
  if (guard?.permission) response['403'] ??= errorAnswer("The caller's roles do not grant this (NO_PERMISSION)", 'NO_PERMISSION');
  if (route.url.includes(':')) response['404'] ??= errorAnswer("Not found, or not in the caller's organisations (NOT_FOUND)", 'NOT_FOUND');
  response['4XX'] ??= errorAnswer('Other refusals: 409 conflict, 413 body too large, 429 too many attempts', 'RATE_LIMITED');
  response['5XX'] ??= errorAnswer('500 internal error (no detail), 503 database unavailable (Retry-After)', 'INTERNAL');
  return { url: out.url, schema: schema as FastifySchema };
};

/**
 * A record keyed by an enum (`z.record(z.enum(...), v)`) comes out of Zod as `propertyNames` and
 * `required` without `properties`; naming the properties says the same and lets linters and
 * generators see each key.
 */
function nameRecordKeys(v: unknown): void {
  if (Array.isArray(v)) return v.forEach(nameRecordKeys);
  if (!v || typeof v !== 'object') return;
  const o = v as { propertyNames?: { enum?: unknown[] }; additionalProperties?: unknown; properties?: Record<string, unknown> };
  const keys = o.propertyNames?.enum;
  if (keys && typeof o.additionalProperties === 'object' && !o.properties) {
    o.properties = Object.fromEntries(keys.map((k) => [String(k), o.additionalProperties]));
  }
  Object.values(o).forEach(nameRecordKeys);
}

/** Zod's components, then only those the operations refer to (directly or through another component). */
const transformObject: SwaggerTransformObject = (input) => {
  const doc = jsonSchemaTransformObject(input) as ReturnType<SwaggerTransformObject> & { components?: { schemas?: Record<string, unknown> }; paths?: unknown };
  const all = doc.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!v || typeof v !== 'object') return;
    for (const [k, child] of Object.entries(v)) {
      if (k === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
        const name = child.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(all[name]);
        }
      } else visit(child);
    }
  };
  visit(doc.paths);
  nameRecordKeys(doc.paths);
  nameRecordKeys(all);
  const schemas = Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
  // Any JSON value, said as such: Zod's exact form (a union holding arrays of itself) is the
  // same set of values, but TypeScript client generators make a type of it that refers to itself
  // in its own definition, which the compiler refuses.
  if (schemas.JsonValue) schemas.JsonValue = { description: 'Any JSON value: string, number, boolean, null, array or object' };
  return { ...doc, components: { ...doc.components, schemas } } as ReturnType<SwaggerTransformObject>;
};

export const openapiPlugin = fp(async (app: FastifyInstance, opts: { publicUrl?: string }) => {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${PRODUCT_TITLE.en} API`,
        version: '0.1.0',
        description:
          'Every answer is the envelope `{ isSuccess, data, errorcode, errormsg }`. Send `access_token` (from the sign-in call), ' +
          '`language` (zh-CN | en-US: the language of errormsg, menu names and dictionary values) and `Timezone` (IANA name, for exports and reports).',
      },
      servers: [{ url: opts.publicUrl ?? '/' }],
      components: {
        securitySchemes: {
          accessToken: { type: 'apiKey', in: 'header', name: 'access_token', description: 'The token of POST /iot-cloud-auth/auth/v1/login' },
          deviceBasic: { type: 'http', scheme: 'basic', description: 'The device id and its secret' },
        },
      },
    },
    transform,
    transformObject,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    // The plain layout: no top bar with a field that loads other documents.
    uiConfig: { layout: 'BaseLayout', docExpansion: 'none', deepLinking: true, displayOperationId: true },
    theme: { title: `${PRODUCT_TITLE.en} API` },
  });
});
