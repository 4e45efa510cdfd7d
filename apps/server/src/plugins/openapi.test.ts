// The OpenAPI document is one integrators can use: a standard linter finds no error in it, a
// standard generator makes a TypeScript client of it that compiles, every operation is named once,
// the security it documents is what the server does without credentials, real error answers match
// the documented envelope, file answers and uploads have the documented content types, and the
// reading page is served from this server.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import ts from 'typescript';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import { ADMIN_PASSWORD, login, testApp, type TestApp } from '../test/harness.ts';
import { createTenantUser } from '../test/fixtures.ts';
import { apiRoutes, pathParams, queryString, sampleOf } from '../security/route-kit.ts';
import { operationIdOf } from './openapi.ts';

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Doc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

let t: TestApp;
let doc: Doc;
let text: string;
let admin: string;
const operations: { method: string; path: string; op: Operation }[] = [];

beforeAll(async () => {
  t = await testApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  text = res.body;
  doc = res.json() as Doc;
  for (const [path, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) operations.push({ method: method.toUpperCase(), path, op });
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
});
afterAll(async () => t?.close());

interface ErrorBody {
  isSuccess: string;
  data: null;
  errorcode: string;
  errormsg: string;
}
/** The documented schema of the error envelope, as a validator. */
const errorEnvelope = () => z.fromJSONSchema(doc.components.schemas.ErrorEnvelope as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<ErrorBody>;
/** The document's operation of a route of the route table. */
const documented = (method: string, url: string) => doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];

describe('the document', () => {
  it('passes the Redocly recommended ruleset without errors (warnings only of the kinds expected)', async () => {
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    // No license is declared (the project has none), and the two external sign-in calls answer redirects.
    const warnings = problems.filter((p) => p.severity === 'warn');
    expect([...new Set(warnings.map((p) => p.ruleId))].sort()).toEqual(['info-license', 'operation-2xx-response']);
    expect(warnings.filter((p) => p.ruleId === 'operation-2xx-response').map((p) => p.location[0]?.pointer)).toEqual([
      '#/paths/~1iot-cloud-auth~1auth~1v1~1oauth/get/responses',
      '#/paths/~1iot-cloud-auth~1auth~1v1~1oauth~1callback/get/responses',
    ]);
  });

  it('names every operation once, from its method and address', () => {
    expect(operations.length).toBeGreaterThan(200);
    const ids = operations.map((o) => o.op.operationId);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(doc.paths['/iot-cloud-auth/auth/v1/login']!.post!.operationId).toBe('postAuthLogin');
    expect(operationIdOf('GET', '/api/iot/v2/devices/:id/latest')).toBe('getDevicesByIdLatest');
  });

  it('documents every route of the API and nothing else', () => {
    const routes = apiRoutes(t.app.routeTable).filter((r) => !r.schema?.hide);
    expect(routes.filter((r) => !documented(r.method, r.url)).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    expect(operations.length).toBe(routes.length);
  });

  it('resolves the recursive trees as named components', () => {
    const menu = JSON.stringify(doc.paths['/iot-cloud-auth/menu/v1/loadMenu']!.post!.responses['200']);
    expect(menu).toContain('#/components/schemas/MenuItem');
    expect(JSON.stringify(doc.components.schemas.MenuItem)).toContain('#/components/schemas/MenuItem');
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['Envelope', 'ErrorEnvelope', 'JsonValue', 'MenuItem', 'OrgNode']);
  });
});

describe('security as documented is what the server does', () => {
  it('refuses every operation documented as needing credentials with 401 and the error envelope, and no other', async () => {
    const check = errorEnvelope();
    const wrong: string[] = [];
    /** Calls whose sample the route's validation refused (it runs before the guard, and a guard answers 401 or 403): the guard was not reached. */
    const unreached: string[] = [];
    let refused = 0;
    for (const r of apiRoutes(t.app.routeTable)) {
      const op = documented(r.method, r.url);
      if (!op) continue;
      const required = op.security!.length > 0 && op.security!.every((s) => Object.keys(s).length > 0);
      const device = JSON.stringify(op.security) === JSON.stringify([{ deviceBasic: [] }]);
      // A call that passes validation (the route's own sample), so what answers is the guard.
      const params = (sampleOf(r.schema?.params) ?? {}) as Record<string, string>;
      let url = r.url;
      for (const p of pathParams(r.url)) url = url.replace(`:${p}`, encodeURIComponent(String(params[p] ?? 'probe-0001')));
      const query = r.schema?.querystring ? queryString(sampleOf(r.schema.querystring, { fullest: false })) : '';
      const body = r.schema?.body ? sampleOf(r.schema.body) : undefined;
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: url + query,
        headers: { language: 'en-US', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = res.headers['content-type']?.toString().startsWith('application/json') ? (res.json() as { errorcode?: string }) : {};
      // Sign-in refuses a wrong password with 401 too: what tells a session refusal is its code.
      const sessionRefused = res.statusCode === 401 && (device || answer.errorcode === 'TOKEN_INVALID');
      if (res.statusCode === 400) unreached.push(`${r.method} ${r.url} ${answer.errorcode}`);
      else if (required !== sessionRefused) wrong.push(`${r.method} ${r.url}: documented ${JSON.stringify(op.security)}, answered ${res.statusCode} ${res.body.slice(0, 100)}`);
      if (res.statusCode === 401) {
        refused++;
        if (!check.safeParse(res.json()).success) wrong.push(`${r.method} ${r.url}: 401 body ${res.body}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(200);
    // A few samples cannot meet their route's refinements (14 of 254 when written); they stay few.
    expect(unreached.length, unreached.join('\n')).toBeLessThan(operations.length / 10);
  });

  it('documents the public calls as public and the device intake as Basic auth', () => {
    expect(doc.paths['/iot-cloud-auth/auth/v1/login']!.post!.security).toEqual([]);
    expect(doc.paths['/api/iot/v2/captchas']!.post!.security).toEqual([]);
    expect(doc.paths['/api/iot/v2/ledger/public/{token}']!.get!.security).toEqual([]);
    expect(doc.paths['/api/iot/v2/device/report']!.post!.security).toEqual([{ deviceBasic: [] }]);
    // What the intake reads, though it takes any JSON and checks the reports one by one.
    expect(JSON.stringify(doc.paths['/api/iot/v2/device/report']!.post!.requestBody)).toContain('"deviceId"');
    expect(doc.paths['/iot-cloud-auth/user/v1/resetPassword']!.post!.security).toEqual([{}, { accessToken: [] }]);
    expect(doc.paths['/api/iot/v2/devices']!.get!.responses).toHaveProperty('403');
  });
});

describe('error answers', () => {
  it('match the documented envelope for 400, 403 and 404', async () => {
    const check = errorEnvelope();
    const bad = await t.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: '{"account":1}' });
    expect(bad.statusCode).toBe(400);
    expect(check.parse(bad.json())).toMatchObject({ isSuccess: 'N', errorcode: expect.any(String) });
    expect(doc.paths['/iot-cloud-auth/auth/v1/login']!.post!.responses['400']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });

    const missing = await t.app.inject({ method: 'GET', url: `/api/iot/v2/devices/${crypto.randomUUID()}`, headers: { access_token: admin } });
    expect(missing.statusCode).toBe(404);
    expect(check.parse(missing.json()).errorcode).toBe('NOT_FOUND');
    expect(doc.paths['/api/iot/v2/devices/{id}']!.get!.responses).toHaveProperty('404');

    await createTenantUser(t.app.database.db, { code: 'oa-viewer', account: 'oa-viewer', password: ADMIN_PASSWORD, permissions: [] });
    const viewer = await login(t.app, 'oa-viewer', ADMIN_PASSWORD);
    const denied = await t.app.inject({ method: 'GET', url: '/api/iot/v2/devices', headers: { access_token: viewer } });
    expect(denied.statusCode).toBe(403);
    expect(check.parse(denied.json()).errorcode).toBe('NO_PERMISSION');
    // A body that is not the documented envelope is refused by the check.
    expect(check.safeParse({ ...(denied.json() as ErrorBody), errorcode: 'NOT_A_CODE' }).success).toBe(false);
  });
});

describe('files', () => {
  it('answers every export and import template with a documented content type', async () => {
    const base = (type: string) => type.split(';')[0]!.trim();
    const downloads = apiRoutes(t.app.routeTable).filter((r) => r.method === 'GET' && /\/(export|import-template)$/.test(r.url));
    expect(downloads.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    let files = 0;
    for (const r of downloads) {
      const op = documented(r.method, r.url)!;
      const types = Object.keys(op.responses['200']?.content ?? {}).map(base);
      const formats = r.url.endsWith('/export') && types.length > 1 ? ['csv', 'xlsx'] : [undefined];
      const query = (r.schema?.querystring ? sampleOf(r.schema.querystring, { fullest: false }) : {}) as Record<string, unknown>;
      for (const format of formats) {
        const res = await t.app.inject({ method: 'GET', url: r.url + queryString({ ...query, ...(format ? { format } : {}) }), headers: { access_token: admin, language: 'en-US' } });
        const type = base(String(res.headers['content-type']));
        if (res.statusCode !== 200) {
          // A sample the route cannot answer (no such device): refused with the documented envelope.
          if (!errorEnvelope().safeParse(res.json()).success) wrong.push(`${r.url} ${format ?? ''}: ${res.statusCode} ${res.body}`);
          continue;
        }
        files++;
        if (!types.includes(type)) wrong.push(`${r.url} ${format ?? ''}: ${type}, documented ${types.join(' | ')}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(files).toBeGreaterThan(30);
  });

  it('takes the .xlsx uploads as the documented binary bodies', async () => {
    const upload = doc.paths['/api/iot/v2/devices/import']!.post!.requestBody!.content;
    expect(Object.keys(upload)).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/octet-stream']);
    expect(upload['application/octet-stream']).toEqual({ schema: { type: 'string', format: 'binary' } });
    const template = await t.app.inject({ method: 'GET', url: '/api/iot/v2/devices/import-template', headers: { access_token: admin } });
    for (const type of Object.keys(upload)) {
      const res = await t.app.inject({ method: 'POST', url: '/api/iot/v2/devices/import', headers: { access_token: admin, 'content-type': type }, payload: template.rawPayload });
      // The sheet is read (an empty one is refused for being empty, not for its type).
      expect(res.statusCode, res.body).not.toBe(415);
      expect(res.json()).toHaveProperty('isSuccess');
    }
    const image = await t.app.inject({ method: 'POST', url: '/api/iot/v2/devices/import', headers: { access_token: admin, 'content-type': 'image/png' }, payload: template.rawPayload });
    expect(image.statusCode).toBe(415);
  });
});

describe('a typed client', () => {
  it('is generated by openapi-typescript and compiles, with the sign-in call typed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'iotc-openapi-'));
    try {
      writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(text)));
      writeFileSync(
        join(dir, 'use.ts'),
        `import type { components, operations, paths } from './api';
type SignIn = paths['/iot-cloud-auth/auth/v1/login']['post'];
export const body: SignIn['requestBody']['content']['application/json'] = { account: 'admin', password: 'secret', period: 7 };
type Answer = SignIn['responses'][200]['content']['application/json'];
export const token = (a: Answer): string | undefined => a.data?.token;
export const code: components['schemas']['ErrorEnvelope']['errorcode'] = 'TOKEN_INVALID';
// @ts-expect-error: not a code of the catalogue
export const wrong: components['schemas']['ErrorEnvelope']['errorcode'] = 'NOT_A_CODE';
export type Menu = components['schemas']['MenuItem']['children'][number]['name'];
export type Device = operations['getDevicesById']['parameters']['path']['id'];
`,
      );
      const program = ts.createProgram([join(dir, 'use.ts')], { strict: true, noEmit: true, skipLibCheck: false, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: [] });
      const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the reading page', () => {
  it('is served from this server at /api/docs, scripts included', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^(https?:)?\/\//);
      const res = await t.app.inject({ method: 'GET', url: new URL(src, 'http://x/api/docs/').pathname });
      expect(res.statusCode, src).toBe(200);
    }
  });
});
