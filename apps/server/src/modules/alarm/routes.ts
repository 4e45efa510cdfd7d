// The alarm resources of DESIGN.md: alarm-levels and alarm-policies (list, create, change,
// delete; policies also enable, disable, copy, export and import as JSON) and alarms (query,
// one with its timeline, export, statistics, acknowledge, comment, assign, close). Reading needs alarm:read,
// changing levels and policies alarm:write, handling alarms alarm:handle.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ALARM_API,
  alarmQuerySchema,
  alarmRowSchema,
  alarmStatsQuerySchema,
  alarmStatsSchema,
  alarmEventRowSchema,
  assignBodySchema,
  closeBodySchema,
  commentBodySchema,
  levelBodySchema,
  levelRowSchema,
  policyBodySchema,
  policyQuerySchema,
  policyRowSchema,
} from '@iotc/shared/alarm';
import { envelopeSchema } from '@iotc/shared/envelope';
import { exportFormatSchema, listQuerySchema, pageSchema } from '@iotc/shared/list';
import { idParamsSchema } from '@iotc/shared/platform';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { contentDisposition, requestTimezone } from '../../lib/export.ts';
import type { AlarmService } from './alarms.ts';
import type { LevelService } from './levels.ts';
import type { PolicyService } from './policies.ts';

const orgFilter = z.object({ orgId: z.preprocess((v) => (v === '' ? undefined : v), z.uuid().optional()) });
const idsQuery = z.object({
  ids: z.preprocess((v) => (typeof v === 'string' && v !== '' ? v.split(',') : undefined), z.array(z.uuid()).max(500).optional()),
});

export const alarmRoutes: FastifyPluginAsyncZod<{ levels: LevelService; policies: PolicyService; alarms: AlarmService }> = async (app, { levels, policies, alarms }) => {
  const read = { preHandler: app.requirePermission('alarm:read') };
  const write = { preHandler: app.requirePermission('alarm:write') };
  const handle = { preHandler: app.requirePermission('alarm:handle') };

  // ---- levels
  {
    const base = ALARM_API.levels;
    const tags = ['alarm levels'];
    app.get(base, { schema: { tags, summary: 'Alarm levels, by priority', querystring: listQuerySchema.extend(orgFilter.shape), response: { 200: envelopeSchema(pageSchema(levelRowSchema)) } }, ...read }, async (req) =>
      ok(await levels.list(callerOf(req), req.query)),
    );
    app.post(base, { schema: { tags, summary: 'Create a level', body: levelBodySchema, response: { 200: envelopeSchema(levelRowSchema) } }, ...write }, async (req) =>
      ok(await levels.create(callerOf(req), req.body, clientOf(req))),
    );
    app.get(`${base}/:id`, { schema: { tags, summary: 'One level', params: idParamsSchema, response: { 200: envelopeSchema(levelRowSchema) } }, ...read }, async (req) =>
      ok(await levels.get(callerOf(req), req.params.id)),
    );
    app.put(`${base}/:id`, { schema: { tags, summary: 'Change a level', params: idParamsSchema, body: levelBodySchema, response: { 200: envelopeSchema(levelRowSchema) } }, ...write }, async (req) =>
      ok(await levels.update(callerOf(req), req.params.id, req.body, clientOf(req))),
    );
    app.delete(`${base}/:id`, { schema: { tags, summary: 'Delete a level no rule or alarm uses', params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } }, ...write }, async (req) =>
      ok(await levels.remove(callerOf(req), req.params.id, clientOf(req)).then(() => null)),
    );
  }

  // ---- policies
  {
    const base = ALARM_API.policies;
    const one = `${base}/:id`;
    const tags = ['alarm policies'];
    const row = { 200: envelopeSchema(policyRowSchema) };
    app.get(base, { schema: { tags, summary: 'Alarm policies', querystring: policyQuerySchema, response: { 200: envelopeSchema(pageSchema(policyRowSchema)) } }, ...read }, async (req) =>
      ok(await policies.list(callerOf(req), req.query)),
    );
    app.post(base, { schema: { tags, summary: 'Create a policy', body: policyBodySchema, response: row }, ...write }, async (req) => ok(await policies.create(callerOf(req), req.body, clientOf(req))));
    app.get(`${base}/export`, { schema: { tags, summary: 'The policies (ids, or all) as a JSON file', querystring: idsQuery }, ...read }, async (req, reply) => {
      const file = await policies.exportFile(callerOf(req), req.query.ids);
      const name = `alarm-policies-${new Date().toISOString().slice(0, 10)}.json`;
      return reply.header('content-type', 'application/json; charset=utf-8').header('content-disposition', contentDisposition(name)).send(JSON.stringify(file, null, 2));
    });
    app.post(
      `${base}/import`,
      { schema: { tags, summary: 'Create the policies of an exported file: all of them or, with any error, none', querystring: orgFilter, body: z.unknown(), response: { 200: envelopeSchema(z.object({ created: z.number().int() })) } }, ...write },
      async (req) => ok(await policies.importFile(callerOf(req), req.body, req.query.orgId, clientOf(req))),
    );
    app.get(one, { schema: { tags, summary: 'One policy', params: idParamsSchema, response: row }, ...read }, async (req) => ok(await policies.get(callerOf(req), req.params.id)));
    app.put(one, { schema: { tags, summary: 'Change a policy (the open alarms of rules it no longer runs are cleared)', params: idParamsSchema, body: policyBodySchema, response: row }, ...write }, async (req) =>
      ok(await policies.update(callerOf(req), req.params.id, req.body, clientOf(req))),
    );
    app.delete(one, { schema: { tags, summary: 'Delete a policy (its alarms are kept, the open ones cleared)', params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } }, ...write }, async (req) =>
      ok(await policies.remove(callerOf(req), req.params.id, clientOf(req)).then(() => null)),
    );
    app.post(`${one}/enable`, { schema: { tags, summary: 'Enable', params: idParamsSchema, response: row }, ...write }, async (req) => ok(await policies.setEnabled(callerOf(req), req.params.id, true, clientOf(req))));
    app.post(`${one}/disable`, { schema: { tags, summary: 'Disable (its open alarms are cleared)', params: idParamsSchema, response: row }, ...write }, async (req) =>
      ok(await policies.setEnabled(callerOf(req), req.params.id, false, clientOf(req))),
    );
    app.post(`${one}/copy`, { schema: { tags, summary: 'A disabled copy', params: idParamsSchema, response: row }, ...write }, async (req) => ok(await policies.copy(callerOf(req), req.params.id, req.lang, clientOf(req))));
  }

  // ---- alarms
  {
    const base = ALARM_API.alarms;
    const one = `${base}/:id`;
    const tags = ['alarms'];
    const row = { 200: envelopeSchema(alarmRowSchema) };
    app.get(base, { schema: { tags, summary: 'Alarm query', querystring: alarmQuerySchema, response: { 200: envelopeSchema(pageSchema(alarmRowSchema)) } }, ...read }, async (req) =>
      ok(await alarms.list(callerOf(req), req.query)),
    );
    app.get(`${base}/export`, { schema: { tags, summary: 'The query as CSV or Excel, in the request language and time zone', querystring: alarmQuerySchema.extend({ format: exportFormatSchema.default('xlsx') }) }, ...read }, async (req, reply) => {
      const file = await alarms.export(callerOf(req), req.query, req.query.format, req.lang, requestTimezone(req));
      return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
    });
    app.get(`${base}/stats`, { schema: { tags, summary: 'Counts by type, by level and over time (buckets in the request time zone)', querystring: alarmStatsQuerySchema, response: { 200: envelopeSchema(alarmStatsSchema) } }, ...read }, async (req) =>
      ok(await alarms.stats(callerOf(req), req.query, requestTimezone(req))),
    );
    app.get(one, { schema: { tags, summary: 'One alarm', params: idParamsSchema, response: row }, ...read }, async (req) => ok(await alarms.get(callerOf(req), req.params.id)));
    app.get(`${one}/events`, { schema: { tags, summary: 'Its timeline, oldest first', params: idParamsSchema, response: { 200: envelopeSchema(z.array(alarmEventRowSchema)) } }, ...read }, async (req) =>
      ok(await alarms.events(callerOf(req), req.params.id)),
    );
    app.post(`${one}/acknowledge`, { schema: { tags, summary: 'Acknowledge', params: idParamsSchema, response: row }, ...handle }, async (req) => ok(await alarms.acknowledge(callerOf(req), req.params.id, clientOf(req))));
    app.post(`${one}/comments`, { schema: { tags, summary: 'Add a comment to the timeline; answers the timeline', params: idParamsSchema, body: commentBodySchema, response: { 200: envelopeSchema(z.array(alarmEventRowSchema)) } }, ...handle }, async (req) =>
      ok(await alarms.comment(callerOf(req), req.params.id, req.body.text, clientOf(req))),
    );
    app.post(`${one}/assign`, { schema: { tags, summary: 'Hand to a user of the organisation tree', params: idParamsSchema, body: assignBodySchema, response: row }, ...handle }, async (req) =>
      ok(await alarms.assign(callerOf(req), req.params.id, req.body.userId, clientOf(req))),
    );
    app.post(`${one}/close`, { schema: { tags, summary: 'Close by hand with a reason', params: idParamsSchema, body: closeBodySchema, response: row }, ...handle }, async (req) =>
      ok(await alarms.close(callerOf(req), req.params.id, req.body.reason, clientOf(req))),
    );
  }
};
