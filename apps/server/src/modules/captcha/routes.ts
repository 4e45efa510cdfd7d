// POST /api/iot/v2/captchas: a new image captcha (no login needed: the change-password page
// is open to a user who must change an initial password first).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API, captchaSchema } from '@iotc/shared/auth';
import { envelopeSchema } from '@iotc/shared/envelope';
import { ok } from '../../plugins/errors.ts';
import type { CaptchaService } from './service.ts';

export const captchaRoutes: FastifyPluginAsyncZod<{ captchas: CaptchaService }> = async (app, { captchas }) => {
  app.post(
    API.captchas,
    { schema: { tags: ['auth'], summary: 'A new single-use image captcha, valid for five minutes', response: { 200: envelopeSchema(captchaSchema) } } },
    async (_req, reply) => {
      const { answer: _answer, ...captcha } = await captchas.create();
      reply.header('cache-control', 'no-store');
      return ok(captcha);
    },
  );
};
