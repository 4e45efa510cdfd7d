// GET and POST /api/iot/v2/platform/notices, DELETE .../:id: the platform notices, platform
// administrator only.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { pageSchema } from '@iotc/shared/list';
import { NOTICE_API, noticeBodySchema, noticeQuerySchema, noticeRowSchema } from '@iotc/shared/notice';
import { idParamsSchema } from '@iotc/shared/platform';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { NoticeService } from './service.ts';

export const noticeRoutes: FastifyPluginAsyncZod<{ service: NoticeService }> = async (app, { service }) => {
  const tags = ['platform'];
  app.get(
    NOTICE_API.notices,
    {
      schema: { tags, summary: 'The published platform notices, newest first (platform administrator only)', querystring: noticeQuerySchema, response: { 200: envelopeSchema(pageSchema(noticeRowSchema)) } },
      preHandler: app.authenticate,
    },
    async (req) => ok(await service.list(callerOf(req), req.query)),
  );
  app.post(
    NOTICE_API.notices,
    {
      schema: {
        tags,
        summary: "Publish a notice, in Chinese and English, to everyone or to one organisation's tree; it reaches their inboxes at once (platform administrator only)",
        body: noticeBodySchema,
        response: { 200: envelopeSchema(noticeRowSchema) },
      },
      preHandler: app.authenticate,
    },
    async (req) => ok(await service.publish(callerOf(req), req.body, clientOf(req))),
  );
  app.delete(
    NOTICE_API.one(':id'),
    { schema: { tags, summary: 'Withdraw a notice: it leaves every inbox (platform administrator only)', params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } }, preHandler: app.authenticate },
    async (req) => {
      await service.withdraw(callerOf(req), req.params.id, clientOf(req));
      return ok(null);
    },
  );
};
