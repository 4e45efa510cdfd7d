// /api/iot/v2/retention-rules, /legal-holds and /retention-removals. Retention is part of managing
// the organisations: reading needs `org:read`, changing `org:write` (the organisation
// administrator's actions); the service scopes every call to the caller's tree.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { pageSchema } from '@iotc/shared/list';
import {
  holdIdParamsSchema,
  legalHoldBodySchema,
  legalHoldQuerySchema,
  legalHoldRowSchema,
  orgIdParamsSchema,
  RETENTION_API,
  retentionRemovalQuerySchema,
  retentionRemovalRowSchema,
  retentionRuleBodySchema,
  retentionTreeSchema,
} from '@iotc/shared/retention';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { RetentionService } from './service.ts';

const nothing = envelopeSchema(z.null());

export const retentionRoutes: FastifyPluginAsyncZod<{ service: RetentionService }> = async (app, { service }) => {
  const can = app.requirePermission;
  app.get(
    RETENTION_API.rules,
    {
      schema: {
        tags: ['retention'],
        summary: "Retention of the caller's organisation tree: each organisation's own rule, its effective values and where they come from",
        response: { 200: envelopeSchema(retentionTreeSchema) },
      },
      preHandler: can('org:read'),
    },
    async (req) => ok(await service.tree(callerOf(req))),
  );
  app.put(
    `${RETENTION_API.rules}/:orgId`,
    {
      schema: {
        tags: ['retention'],
        summary: "Set an organisation's retention rule (the platform organisation's and the floor: the platform administrator)",
        params: orgIdParamsSchema,
        body: retentionRuleBodySchema,
        response: { 200: nothing },
      },
      preHandler: can('org:write'),
    },
    async (req) => ok(await service.saveRule(callerOf(req), req.params.orgId, req.body, clientOf(req)).then(() => null)),
  );

  app.get(
    RETENTION_API.holds,
    {
      schema: {
        tags: ['retention'],
        summary: "Legal holds of the caller's organisation tree, those in force first",
        querystring: legalHoldQuerySchema,
        response: { 200: envelopeSchema(pageSchema(legalHoldRowSchema)) },
      },
      preHandler: can('org:read'),
    },
    async (req) => ok(await service.holds(callerOf(req), req.query)),
  );
  app.post(
    RETENTION_API.holds,
    {
      schema: {
        tags: ['retention'],
        summary: 'Place a legal hold on an organisation, a device or a transport task: retention removes nothing of it until released',
        body: legalHoldBodySchema,
        response: { 200: envelopeSchema(z.object({ id: z.string() })) },
      },
      preHandler: can('org:write'),
    },
    async (req) => ok(await service.placeHold(callerOf(req), req.body, clientOf(req))),
  );
  app.post(
    `${RETENTION_API.holds}/:id/release`,
    {
      schema: { tags: ['retention'], summary: 'Release a legal hold', params: holdIdParamsSchema, response: { 200: nothing } },
      preHandler: can('org:write'),
    },
    async (req) => ok(await service.releaseHold(callerOf(req), req.params.id, clientOf(req)).then(() => null)),
  );

  app.get(
    RETENTION_API.removals,
    {
      schema: {
        tags: ['retention'],
        summary: "What retention removed in the caller's organisation tree, newest first",
        querystring: retentionRemovalQuerySchema,
        response: { 200: envelopeSchema(pageSchema(retentionRemovalRowSchema)) },
      },
      preHandler: can('org:read'),
    },
    async (req) => ok(await service.removals(callerOf(req), req.query)),
  );
};
