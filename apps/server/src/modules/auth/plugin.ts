// Signing in and the account: sessions (the request guards of plugins/auth.ts are built on them),
// image captchas, the account's own changes (password, email and phone with codes) and single
// sign-on. Registered before every other module: their routes use the guards, and the module
// context's permission lookup is the auth service's.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { authPlugin } from '../../plugins/auth.ts';
import type { ModuleContext } from '../context.ts';
import { accountRepo } from '../account/repo.ts';
import { accountRoutes } from '../account/routes.ts';
import { accountService, type AccountService } from '../account/service.ts';
import { captchaRoutes } from '../captcha/routes.ts';
import { captchaService, type CaptchaService } from '../captcha/service.ts';
import { ssoRoutes } from '../sso/routes.ts';
import { ssoService, type SsoService } from '../sso/service.ts';
import { authRepo } from './repo.ts';
import { authRoutes } from './routes.ts';
import { authService, type AuthService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    authService: AuthService;
    captchaService: CaptchaService;
    accountService: AccountService;
    ssoService: SsoService;
  }
}

export const authModulePlugin = fp(async (app: FastifyInstance, ctx: Pick<ModuleContext, 'config' | 'database' | 'audit' | 'messenger'>) => {
  const { config, audit } = ctx;
  const db = ctx.database.db;
  const captchas = captchaService(db);
  app.decorate('captchaService', captchas);
  const auth = authService(authRepo(db), { sessionHours: config.sessionHours, audit, atomically: (work) => db.transaction((tx) => work(authRepo(tx), tx)), captchas });
  app.decorate('authService', auth);
  const accounts = accountService(accountRepo(db), { messenger: ctx.messenger, audit, atomically: (work) => db.transaction((tx) => work(accountRepo(tx), tx)), captchas });
  app.decorate('accountService', accounts);
  const sso = ssoService(db, auth, audit, config.oidc);
  app.decorate('ssoService', sso);

  await app.register(authPlugin, { auth });
  await app.register(authRoutes, { auth });
  await app.register(captchaRoutes, { captchas });
  await app.register(accountRoutes, { accounts });
  await app.register(ssoRoutes, { sso, publicUrl: config.publicUrl });
});
