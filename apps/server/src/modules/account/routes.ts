// Registration (POST /api/iot/v2/registrations) and the spec's password-retrieval calls:
// sysUserModel, sendMail, mailVerify, forgot. All open without a token.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCOUNT_API,
  forgotBodySchema,
  registerBodySchema,
  registerDataSchema,
  sendCodeBodySchema,
  sendCodeDataSchema,
  userModelBodySchema,
  userModelDataSchema,
  verifyCodeBodySchema,
  verifyCodeDataSchema,
} from '@iotc/shared/account';
import { envelopeSchema } from '@iotc/shared/envelope';
import { clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { AccountService } from './service.ts';


export const accountRoutes: FastifyPluginAsyncZod<{ accounts: AccountService }> = async (app, { accounts }) => {
  app.post(
    ACCOUNT_API.register,
    {
      schema: {
        tags: ['account'],
        summary: 'Register a new account with its own organisation (picture captcha required)',
        body: registerBodySchema,
        response: { 200: envelopeSchema(registerDataSchema) },
      },
    },
    async (req) => ok(await accounts.register(req.body, clientOf(req))),
  );

  app.post(
    ACCOUNT_API.sysUserModel,
    {
      schema: {
        tags: ['account'],
        summary: 'Password retrieval, step 1: the verification channels of an account, masked',
        body: userModelBodySchema,
        response: { 200: envelopeSchema(userModelDataSchema) },
      },
    },
    async (req) => ok(await accounts.userModel(req.body.account)),
  );

  app.post(
    ACCOUNT_API.sendMail,
    {
      schema: {
        tags: ['account'],
        summary: 'Password retrieval, step 2: send a four-digit code by e-mail or SMS',
        body: sendCodeBodySchema,
        response: { 200: envelopeSchema(sendCodeDataSchema) },
      },
    },
    async (req) => ok(await accounts.sendCode(req.body, req.lang, clientOf(req))),
  );

  app.post(
    ACCOUNT_API.mailVerify,
    {
      schema: {
        tags: ['account'],
        summary: 'Password retrieval, step 3: check the code; a right one yields a reset ticket',
        body: verifyCodeBodySchema,
        response: { 200: envelopeSchema(verifyCodeDataSchema) },
      },
    },
    async (req) => ok(await accounts.verifyCode(req.body, clientOf(req))),
  );

  app.post(
    ACCOUNT_API.forgot,
    {
      schema: {
        tags: ['account'],
        summary: 'Password retrieval, step 4: the new password, authorised by the ticket',
        body: forgotBodySchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (req) => ok(await accounts.forgot(req.body, clientOf(req)).then(() => null)),
  );
};
