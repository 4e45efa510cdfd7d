// The push resources of DESIGN.md: push-rules (list, create, change, delete, enable, disable) and
// deliveries (the log with its filters, one delivery with every attempt, send again), plus the
// deliveries of one alarm. Reading needs alarm:read (a user's own messages, `mine=true`, only a
// sign-in), changing rules alarm:write, sending again alarm:handle.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PUSH_API,
  deliveryDetailSchema,
  deliveryQuerySchema,
  deliveryRowSchema,
  type DeliveryQuery,
  pushRuleBodySchema,
  pushRuleQuerySchema,
  pushRuleRowSchema,
} from '@iotc/shared/alarm-push';
import { ALARM_API } from '@iotc/shared/alarm';
import { envelopeSchema } from '@iotc/shared/envelope';
import { pageSchema } from '@iotc/shared/list';
import { idParamsSchema } from '@iotc/shared/platform';
import { callerOf, clientOf, sessionGuard } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { DeliveryService } from './deliveries.ts';
import type { PushRuleService } from './push-rules.ts';

export const pushRoutes: FastifyPluginAsyncZod<{ rules: PushRuleService; deliveries: DeliveryService }> = async (app, { rules, deliveries }) => {
  const read = { preHandler: app.requirePermission('alarm:read') };
  const write = { preHandler: app.requirePermission('alarm:write') };
  const handle = { preHandler: app.requirePermission('alarm:handle') };
  const readAlarms = app.requirePermission('alarm:read');

  // ---- push rules
  {
    const base = PUSH_API.rules;
    const one = `${base}/:id`;
    const tags = ['push rules'];
    const row = { 200: envelopeSchema(pushRuleRowSchema) };
    app.get(base, { schema: { tags, summary: 'Push rules', querystring: pushRuleQuerySchema, response: { 200: envelopeSchema(pageSchema(pushRuleRowSchema)) } }, ...read }, async (req) =>
      ok(await rules.list(callerOf(req), req.query)),
    );
    app.post(base, { schema: { tags, summary: 'Create a push rule', body: pushRuleBodySchema, response: row }, ...write }, async (req) => ok(await rules.create(callerOf(req), req.body, clientOf(req))));
    app.get(one, { schema: { tags, summary: 'One push rule (webhook secrets masked)', params: idParamsSchema, response: row }, ...read }, async (req) => ok(await rules.get(callerOf(req), req.params.id)));
    app.put(one, { schema: { tags, summary: 'Change a push rule (a masked webhook secret keeps the stored one)', params: idParamsSchema, body: pushRuleBodySchema, response: row }, ...write }, async (req) =>
      ok(await rules.update(callerOf(req), req.params.id, req.body, clientOf(req))),
    );
    app.delete(one, { schema: { tags, summary: 'Delete a push rule (its deliveries stay in the log)', params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } }, ...write }, async (req) =>
      ok(await rules.remove(callerOf(req), req.params.id, clientOf(req)).then(() => null)),
    );
    app.post(`${one}/enable`, { schema: { tags, summary: 'Enable', params: idParamsSchema, response: row }, ...write }, async (req) => ok(await rules.setEnabled(callerOf(req), req.params.id, true, clientOf(req))));
    app.post(`${one}/disable`, { schema: { tags, summary: 'Disable (running escalations send no further step)', params: idParamsSchema, response: row }, ...write }, async (req) =>
      ok(await rules.setEnabled(callerOf(req), req.params.id, false, clientOf(req))),
    );
  }

  // ---- deliveries
  {
    const base = PUSH_API.deliveries;
    const tags = ['deliveries'];
    app.get(
      base,
      {
        schema: { tags, summary: 'The delivery log; mine=true: what was addressed to the caller (in-app messages)', querystring: deliveryQuerySchema, response: { 200: envelopeSchema(pageSchema(deliveryRowSchema)) } },
        preHandler: sessionGuard(async (req: FastifyRequest, reply: FastifyReply) => {
          if ((req.query as DeliveryQuery).mine === 'true') await app.authenticate(req, reply);
          else await readAlarms(req, reply);
        }),
      },
      async (req) => ok(await deliveries.list(callerOf(req), req.query)),
    );
    app.get(
      `${base}/:id`,
      { schema: { tags, summary: 'One delivery with every attempt (own messages need no alarm:read)', params: idParamsSchema, response: { 200: envelopeSchema(deliveryDetailSchema) } }, preHandler: app.authenticate },
      async (req) => {
        const caller = callerOf(req);
        const orgWide = caller.permissions.includes('alarm:read');
        return ok(await deliveries.get(caller, req.params.id, orgWide));
      },
    );
    app.post(`${base}/:id/resend`, { schema: { tags, summary: 'Send again now (a new attempt; its result is final)', params: idParamsSchema, response: { 200: envelopeSchema(deliveryDetailSchema) } }, ...handle }, async (req) =>
      ok(await deliveries.resend(callerOf(req), req.params.id, clientOf(req))),
    );
    app.get(`${ALARM_API.alarms}/:id/deliveries`, { schema: { tags, summary: "The alarm's deliveries, oldest first", params: idParamsSchema, response: { 200: envelopeSchema(z.array(deliveryRowSchema)) } }, ...read }, async (req) =>
      ok(await deliveries.ofAlarm(callerOf(req), req.params.id)),
    );
  }
};
