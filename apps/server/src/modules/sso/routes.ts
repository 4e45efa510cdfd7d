// External sign-in: the login screen's configuration, the start (to the provider), the
// provider's callback (to the console with a token, or to the bind page), and the spec's bindUser.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACCOUNT_API, bindUserQuerySchema, ssoConfigSchema, ssoReauthStartSchema } from '@iotc/shared/account';
import { loginDataSchema } from '@iotc/shared/auth';
import { DEFAULT_LANDING } from '@iotc/shared/constants';
import { envelopeSchema } from '@iotc/shared/envelope';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { SsoService } from './service.ts';


/** Browser-facing failures go back to the login page, which shows the code's text. */
function backToLogin(reply: FastifyReply, req: FastifyRequest, error: unknown) {
  const code = error instanceof AppError ? error.code : 'SSO_FAILED';
  if (!(error instanceof AppError)) req.log.warn({ err: error }, 'external sign-in failed');
  return reply.redirect(`/login?ssoError=${encodeURIComponent(code)}`, 302);
}

export const ssoRoutes: FastifyPluginAsyncZod<{ sso: SsoService; publicUrl?: string }> = async (app, { sso, publicUrl }) => {
  const origin = (req: FastifyRequest) => publicUrl?.replace(/\/$/, '') ?? `${req.protocol}://${req.host}`;

  app.get(
    ACCOUNT_API.ssoConfig,
    { schema: { tags: ['sso'], summary: 'Whether external sign-in is offered, and by which provider', response: { 200: envelopeSchema(ssoConfigSchema) } } },
    async () => ok(sso.config()),
  );

  app.get(
    ACCOUNT_API.oauth,
    {
      schema: { tags: ['sso'], summary: 'Starts the external sign-in: redirects to the OpenID Connect provider' },
    },
    async (req, reply) => {
      try {
        return reply.redirect(await sso.start(origin(req) + ACCOUNT_API.oauthCallback), 302);
      } catch (error) {
        return backToLogin(reply, req, error);
      }
    },
  );

  app.get(
    ACCOUNT_API.oauthCallback,
    { schema: { tags: ['sso'], summary: "The provider's answer: signs in, or leads to the bind page" } },
    async (req, reply) => {
      try {
        const outcome = await sso.callback(new URL(req.url, origin(req)), clientOf(req));
        if (outcome.kind === 'bind') return reply.redirect(`/view/login/bindUserPage?openid=${encodeURIComponent(outcome.openid)}`, 302);
        // A re-authentication's window: the proof (or the refusal) goes in the fragment, never to a server log.
        if (outcome.kind === 'reauth') return reply.redirect(`${ACCOUNT_API.ssoReauthDone}#proof=${encodeURIComponent(outcome.proof)}`, 302);
        if (outcome.kind === 'reauthFailed') return reply.redirect(`${ACCOUNT_API.ssoReauthDone}#error=${outcome.code}`, 302);
        // The console takes a token from the address (spec section 4) and drops it from the address at once.
        return reply.redirect(`${DEFAULT_LANDING}?token=${encodeURIComponent(outcome.data.token)}`, 302);
      } catch (error) {
        return backToLogin(reply, req, error);
      }
    },
  );

  app.post(
    ACCOUNT_API.ssoReauth,
    {
      schema: {
        tags: ['sso'],
        summary: "Starts a signed-in user's sign-in again at the provider (to sign a record): answers where to open it",
        response: { 200: envelopeSchema(ssoReauthStartSchema) },
      },
      preHandler: app.authenticate,
    },
    async (req) => ok({ url: await sso.reauthStart(callerOf(req), origin(req) + ACCOUNT_API.oauthCallback) }),
  );

  app.get(
    ACCOUNT_API.bindUser,
    {
      schema: {
        tags: ['sso'],
        summary: 'Binds the pending external identity to an account (its password proves it) and signs in',
        querystring: bindUserQuerySchema,
        response: { 200: envelopeSchema(loginDataSchema) },
      },
    },
    async (req) => ok(await sso.bind(req.query, clientOf(req))),
  );
};
