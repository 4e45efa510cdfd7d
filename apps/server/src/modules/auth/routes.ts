// The spec's auth calls: login, logout, info.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API, changePasswordBodySchema, loginBodySchema, loginDataSchema, userInfoSchema } from '@iotc/shared/auth';
import { envelopeSchema } from '@iotc/shared/envelope';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { AuthService } from './service.ts';

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    API.login,
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with account and password; period 7 keeps the session for a week',
        body: loginBodySchema,
        response: { 200: envelopeSchema(loginDataSchema) },
      },
    },
    async (req) => ok(await auth.login(req.body, clientOf(req))),
  );

  app.get(
    API.logout,
    {
      schema: { tags: ['auth'], summary: 'Sign out: revokes the access token', response: { 200: envelopeSchema(z.null()) } },
      preHandler: app.authenticate,
    },
    async (req) => {
      await auth.logout(callerOf(req), req.accessToken!, clientOf(req));
      return ok(null);
    },
  );

  app.post(
    API.resetPassword,
    {
      schema: {
        tags: ['auth'],
        summary: 'Change the password with the original one and a captcha; other sessions of the user end',
        body: changePasswordBodySchema,
        response: { 200: envelopeSchema(z.null()) },
      },
      preHandler: app.authenticateIfToken,
    },
    async (req) => {
      await auth.changePassword(req.body, req.caller, clientOf(req));
      return ok(null);
    },
  );

  app.post(
    API.info,
    {
      schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: envelopeSchema(userInfoSchema) } },
      preHandler: app.authenticate,
    },
    async (req) => ok(await auth.userInfo(callerOf(req).userId)),
  );
};
