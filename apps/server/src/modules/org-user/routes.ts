// Platform management calls: /api/iot/v2/orgs, /users, /roles and /permissions. Each call
// requires its action (403 'No permission' otherwise); the service scopes it to the caller's tree.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { pageSchema } from '@iotc/shared/list';
import {
  grantablesSchema,
  idParamsSchema,
  initialPasswordDataSchema,
  orgCreateBodySchema,
  orgNodeSchema,
  orgUpdateBodySchema,
  PLATFORM_API,
  roleCreateBodySchema,
  roleQuerySchema,
  roleRowSchema,
  roleUpdateBodySchema,
  userCreateBodySchema,
  userQuerySchema,
  userRolesBodySchema,
  userRowSchema,
  userUpdateBodySchema,
} from '@iotc/shared/platform';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { OrgUserService } from './service.ts';

const nothing = envelopeSchema(z.null());


export const orgUserRoutes: FastifyPluginAsyncZod<{ service: OrgUserService }> = async (app, { service }) => {
  const can = app.requirePermission;

  // ---- organisations
  app.get(
    PLATFORM_API.orgTree,
    {
      schema: { tags: ['platform'], summary: "The caller's organisation and its descendants, as a tree", response: { 200: envelopeSchema(z.array(orgNodeSchema)) } },
      preHandler: can('org:read'),
    },
    async (req) => ok(await service.orgTree(callerOf(req))),
  );
  app.post(
    PLATFORM_API.orgs,
    {
      schema: { tags: ['platform'], summary: 'Create a child organisation', body: orgCreateBodySchema, response: { 200: envelopeSchema(orgNodeSchema) } },
      preHandler: can('org:write'),
    },
    async (req) => ok(await service.createOrg(callerOf(req), req.body, clientOf(req))),
  );
  app.put(
    `${PLATFORM_API.orgs}/:id`,
    {
      schema: { tags: ['platform'], summary: 'Rename an organisation', params: idParamsSchema, body: orgUpdateBodySchema, response: { 200: nothing } },
      preHandler: can('org:write'),
    },
    async (req) => ok(await service.updateOrg(callerOf(req), req.params.id, req.body, clientOf(req)).then(() => null)),
  );
  for (const [verb, status] of [
    ['deactivate', 'disabled'],
    ['activate', 'active'],
  ] as const) {
    app.post(
      `${PLATFORM_API.orgs}/:id/${verb}`,
      {
        schema: { tags: ['platform'], summary: `${verb === 'activate' ? 'Activate' : 'Deactivate'} an organisation and its subtree`, params: idParamsSchema, response: { 200: nothing } },
        preHandler: can('org:write'),
      },
      async (req) => ok(await service.setOrgStatus(callerOf(req), req.params.id, status, clientOf(req)).then(() => null)),
    );
  }
  app.delete(
    `${PLATFORM_API.orgs}/:id`,
    {
      schema: { tags: ['platform'], summary: 'Delete an empty organisation', params: idParamsSchema, response: { 200: nothing } },
      preHandler: can('org:write'),
    },
    async (req) => ok(await service.deleteOrg(callerOf(req), req.params.id, clientOf(req)).then(() => null)),
  );

  // ---- users
  app.get(
    PLATFORM_API.users,
    {
      schema: { tags: ['platform'], summary: 'Users of the caller’s organisation tree', querystring: userQuerySchema, response: { 200: envelopeSchema(pageSchema(userRowSchema)) } },
      preHandler: can('user:read'),
    },
    async (req) => ok(await service.users(callerOf(req), req.query, req.lang)),
  );
  app.post(
    PLATFORM_API.users,
    {
      schema: {
        tags: ['platform'],
        summary: 'Create a user with an initial password (generated when not given), shown once',
        body: userCreateBodySchema,
        response: { 200: envelopeSchema(initialPasswordDataSchema) },
      },
      preHandler: can('user:write'),
    },
    async (req) => ok(await service.createUser(callerOf(req), req.body, clientOf(req))),
  );
  app.put(
    `${PLATFORM_API.users}/:id`,
    {
      schema: { tags: ['platform'], summary: 'Change a user’s name, e-mail and mobile', params: idParamsSchema, body: userUpdateBodySchema, response: { 200: nothing } },
      preHandler: can('user:write'),
    },
    async (req) => ok(await service.updateUser(callerOf(req), req.params.id, req.body, clientOf(req)).then(() => null)),
  );
  for (const [verb, status] of [
    ['deactivate', 'disabled'],
    ['activate', 'active'],
  ] as const) {
    app.post(
      `${PLATFORM_API.users}/:id/${verb}`,
      {
        schema: { tags: ['platform'], summary: `${verb === 'activate' ? 'Activate' : 'Deactivate (and sign out)'} a user`, params: idParamsSchema, response: { 200: nothing } },
        preHandler: can('user:write'),
      },
      async (req) => ok(await service.setUserStatus(callerOf(req), req.params.id, status, clientOf(req)).then(() => null)),
    );
  }
  app.post(
    `${PLATFORM_API.users}/:id/reset-password`,
    {
      schema: {
        tags: ['platform'],
        summary: 'A new initial password for the user (shown once); their sessions end',
        params: idParamsSchema,
        response: { 200: envelopeSchema(initialPasswordDataSchema) },
      },
      preHandler: can('user:write'),
    },
    async (req) => ok(await service.resetPassword(callerOf(req), req.params.id, clientOf(req))),
  );
  app.put(
    `${PLATFORM_API.users}/:id/roles`,
    {
      schema: { tags: ['platform'], summary: 'Assign roles to a user', params: idParamsSchema, body: userRolesBodySchema, response: { 200: nothing } },
      preHandler: can('user:write'),
    },
    async (req) => ok(await service.setUserRoles(callerOf(req), req.params.id, req.body, clientOf(req)).then(() => null)),
  );

  // ---- roles
  app.get(
    PLATFORM_API.roles,
    {
      schema: { tags: ['platform'], summary: 'Roles of the caller’s organisation tree', querystring: roleQuerySchema, response: { 200: envelopeSchema(pageSchema(roleRowSchema)) } },
      preHandler: can('role:read'),
    },
    async (req) => ok(await service.roles(callerOf(req), req.query, req.lang)),
  );
  app.get(
    `${PLATFORM_API.roles}/:id`,
    {
      schema: { tags: ['platform'], summary: 'One role with its grants', params: idParamsSchema, response: { 200: envelopeSchema(roleRowSchema) } },
      preHandler: can('role:read'),
    },
    async (req) => ok(await service.role(callerOf(req), req.params.id, req.lang)),
  );
  app.post(
    PLATFORM_API.roles,
    {
      schema: { tags: ['platform'], summary: 'Create a role granting actions and menu items', body: roleCreateBodySchema, response: { 200: envelopeSchema(roleRowSchema) } },
      preHandler: can('role:write'),
    },
    async (req) => ok(await service.createRole(callerOf(req), req.body, req.lang, clientOf(req))),
  );
  app.put(
    `${PLATFORM_API.roles}/:id`,
    {
      schema: { tags: ['platform'], summary: 'Change a role’s names and grants', params: idParamsSchema, body: roleUpdateBodySchema, response: { 200: envelopeSchema(roleRowSchema) } },
      preHandler: can('role:write'),
    },
    async (req) => ok(await service.updateRole(callerOf(req), req.params.id, req.body, req.lang, clientOf(req))),
  );
  app.delete(
    `${PLATFORM_API.roles}/:id`,
    {
      schema: { tags: ['platform'], summary: 'Delete a role no user holds', params: idParamsSchema, response: { 200: nothing } },
      preHandler: can('role:write'),
    },
    async (req) => ok(await service.deleteRole(callerOf(req), req.params.id, req.lang, clientOf(req)).then(() => null)),
  );
  app.get(
    PLATFORM_API.grantables,
    {
      schema: { tags: ['platform'], summary: 'The actions and menu items the caller may grant', response: { 200: envelopeSchema(grantablesSchema) } },
      preHandler: can('role:write'),
    },
    async (req) => ok(await service.grantables(callerOf(req), req.lang)),
  );
};
