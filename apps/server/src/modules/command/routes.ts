// The commands resource of DESIGN.md (remote control): query with per-status counts, export,
// request, one command, its story, cancel and review. Reading needs command:request or
// command:review; requesting and cancelling command:request; reviewing command:review.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { COMMAND_API, commandEventRowSchema, commandPageSchema, commandQuerySchema, commandRequestSchema, commandReviewSchema, commandRowSchema } from '@iotc/shared/command';
import { envelopeSchema } from '@iotc/shared/envelope';
import { exportFormatSchema } from '@iotc/shared/list';
import { idParamsSchema } from '@iotc/shared/platform';
import { callerOf, clientOf, sessionGuard } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { AppError } from '../../lib/errors.ts';
import { contentDisposition, requestTimezone } from '../../lib/export.ts';
import type { CommandService } from './service.ts';

export const commandRoutes: FastifyPluginAsyncZod<{ commands: CommandService }> = async (app, { commands }) => {
  const read = {
    preHandler: sessionGuard(async (req: FastifyRequest, reply: FastifyReply) => {
      await app.authenticate(req, reply);
      const granted = callerOf(req).permissions;
      if (!granted.includes('command:request') && !granted.includes('command:review')) throw new AppError(403, 'NO_PERMISSION');
    }),
  };
  const request = { preHandler: app.requirePermission('command:request') };
  const review = { preHandler: app.requirePermission('command:review') };
  const base = COMMAND_API.commands;
  const one = `${base}/:id`;
  const tags = ['commands'];
  const row = { 200: envelopeSchema(commandRowSchema) };

  app.get(base, { schema: { tags, summary: 'Command query, with how many of each status the other filters match', querystring: commandQuerySchema, response: { 200: envelopeSchema(commandPageSchema) } }, ...read }, async (req) =>
    ok(await commands.list(callerOf(req), req.query)),
  );
  app.get(`${base}/export`, { schema: { tags, summary: 'The query as CSV or Excel, in the request language and time zone', querystring: commandQuerySchema.extend({ format: exportFormatSchema.default('xlsx') }) }, ...read }, async (req, reply) => {
    const file = await commands.export(callerOf(req), req.query, req.query.format, req.lang, requestTimezone(req));
    return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
  });
  app.post(base, { schema: { tags, summary: 'Request a command to a device of the organisation tree; it waits for review', body: commandRequestSchema, response: row }, ...request }, async (req) =>
    ok(await commands.request(callerOf(req), req.body, clientOf(req))),
  );
  app.get(one, { schema: { tags, summary: 'One command', params: idParamsSchema, response: row }, ...read }, async (req) => ok(await commands.get(callerOf(req), req.params.id)));
  app.get(`${one}/events`, { schema: { tags, summary: 'Its story, oldest first', params: idParamsSchema, response: { 200: envelopeSchema(z.array(commandEventRowSchema)) } }, ...read }, async (req) =>
    ok(await commands.events(callerOf(req), req.params.id)),
  );
  app.post(`${one}/cancel`, { schema: { tags, summary: 'The requester takes back a request still waiting for review', params: idParamsSchema, response: row }, ...request }, async (req) =>
    ok(await commands.cancel(callerOf(req), req.params.id, clientOf(req))),
  );
  app.post(
    `${one}/review`,
    { schema: { tags, summary: "Approve (sent to the device at once) or reject with a reason, signed with the password again; not one's own request", params: idParamsSchema, body: commandReviewSchema, response: row }, ...review },
    async (req) => ok(await commands.review(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
};
