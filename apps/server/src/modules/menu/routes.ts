// loadMenu: the signed-in user's menu tree of one scenario type.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API, loadMenuBodySchema, menuItemSchema, myServicesSchema } from '@iotc/shared/auth';
import { DEFAULT_SCENARIO } from '@iotc/shared/constants';
import { envelopeSchema } from '@iotc/shared/envelope';
import { callerOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { MenuService } from './service.ts';

export const menuRoutes: FastifyPluginAsyncZod<{ menus: MenuService }> = async (app, { menus }) => {
  app.post(
    API.loadMenu,
    {
      schema: {
        tags: ['menu'],
        summary: "The user's menu tree (three levels) of a scenario type, names in the request's language",
        body: loadMenuBodySchema,
        response: { 200: envelopeSchema(z.array(menuItemSchema)) },
      },
      preHandler: app.authenticate,
    },
    async (req) => ok(await menus.load(callerOf(req), req.body.type ?? DEFAULT_SCENARIO, req.lang)),
  );

  app.get(
    API.myServices,
    {
      schema: {
        tags: ['menu'],
        summary: "'My Services': the scenarios the user may open, and platform management for administrators",
        response: { 200: envelopeSchema(myServicesSchema) },
      },
      preHandler: app.authenticate,
    },
    async (req) => ok(await menus.services(callerOf(req))),
  );
};
