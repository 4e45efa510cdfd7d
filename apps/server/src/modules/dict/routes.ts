// dict/v1/all/config: every dictionary, values in the request's language.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API, dictSchema } from '@iotc/shared/auth';
import { envelopeSchema } from '@iotc/shared/envelope';
import { ok } from '../../plugins/errors.ts';
import type { DictRepo } from './repo.ts';

export const dictRoutes: FastifyPluginAsyncZod<{ dicts: DictRepo }> = async (app, { dicts }) => {
  app.get(
    API.dictAll,
    {
      schema: { tags: ['dict'], summary: 'All dictionaries', response: { 200: envelopeSchema(z.array(dictSchema)) } },
      preHandler: app.authenticate,
    },
    async (req) => ok(await dicts.all(req.lang)),
  );
};
