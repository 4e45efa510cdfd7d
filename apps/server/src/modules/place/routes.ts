// GET /api/iot/v2/places (paged, keyword, shape, orgId), POST; /:id GET, PUT, DELETE (refused
// while in use, naming where); /:id/usage GET; /geojson GET (a FeatureCollection, sent as a file: the web client takes a JSON answer for an envelope) and POST (an
// import). Reading needs place:read; every change place:write. The list (the forms' "pick from
// library" search) also answers those who may write what names a place without place:read:
// transport tasks and templates, alarm policies, warehouses (read-only, their own tree as always).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { pageSchema } from '@iotc/shared/list';
import { idParamsSchema, type Permission } from '@iotc/shared/platform';
import {
  PLACE_API,
  placeBodySchema,
  placeExportQuerySchema,
  placeImportBodySchema,
  placeImportResultSchema,
  placeQuerySchema,
  placeRowSchema,
  placeUsageSchema,
} from '@iotc/shared/place';
import { callerOf, clientOf, sessionGuard } from '../../plugins/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { ok } from '../../plugins/errors.ts';
import { contentDisposition } from '../../lib/export.ts';
import type { PlaceService } from './service.ts';

/** Who may search the library to pick a place: its readers and the writers of what names one. */
export const PLACE_PICK_PERMISSIONS: readonly Permission[] = ['place:read', 'transport:write', 'alarm:write', 'device:write'];

export const placeRoutes: FastifyPluginAsyncZod<{ service: PlaceService }> = async (app, { service }) => {
  const read = { preHandler: app.requirePermission('place:read') };
  const write = { preHandler: app.requirePermission('place:write') };
  const pick = {
    preHandler: sessionGuard(async (req: FastifyRequest, reply: FastifyReply) => {
      await app.authenticate(req, reply);
      if (!callerOf(req).permissions.some((p) => PLACE_PICK_PERMISSIONS.includes(p))) throw new AppError(403, 'NO_PERMISSION');
    }),
  };
  const tags = ['places'];
  const base = PLACE_API.places;
  const one = `${base}/:id`;
  const row = { 200: envelopeSchema(placeRowSchema) };

  app.get(base, { schema: { tags, summary: 'Place query', querystring: placeQuerySchema, response: { 200: envelopeSchema(pageSchema(placeRowSchema)) } }, ...pick }, async (req) =>
    ok(await service.list(callerOf(req), req.query)),
  );
  app.get(PLACE_API.export, { schema: { tags, summary: 'The places as a GeoJSON FeatureCollection (a circle is a Point with radiusM)', querystring: placeExportQuerySchema }, ...read }, async (req, reply) => {
    const collection = await service.exportGeoJson(callerOf(req), req.query.orgId);
    return reply.header('content-type', 'application/octet-stream').header('content-disposition', contentDisposition('places.geojson')).send(JSON.stringify(collection));
  });
  app.post(
    PLACE_API.import,
    { schema: { tags, summary: 'Import a GeoJSON FeatureCollection: a known name is changed (with its copies), a new one made', body: placeImportBodySchema, response: { 200: envelopeSchema(placeImportResultSchema) } }, ...write },
    async (req) => ok(await service.importGeoJson(callerOf(req), req.body, req.lang, clientOf(req))),
  );
  app.post(base, { schema: { tags, summary: 'Create a place', body: placeBodySchema, response: row }, ...write }, async (req) => ok(await service.create(callerOf(req), req.body, clientOf(req))));
  app.get(one, { schema: { tags, summary: 'One place', params: idParamsSchema, response: row }, ...read }, async (req) => ok(await service.get(callerOf(req), req.params.id)));
  app.get(`${one}/usage`, { schema: { tags, summary: 'Where the place is used', params: idParamsSchema, response: { 200: envelopeSchema(placeUsageSchema) } }, ...read }, async (req) =>
    ok(await service.usage(callerOf(req), req.params.id)),
  );
  app.put(one, { schema: { tags, summary: 'Change a place (every policy, template and open task using it follows)', params: idParamsSchema, body: placeBodySchema, response: row }, ...write }, async (req) =>
    ok(await service.update(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
  app.delete(one, { schema: { tags, summary: 'Delete a place that is not in use', params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } }, ...write }, async (req) => {
    await service.remove(callerOf(req), req.params.id, clientOf(req));
    return ok(null);
  });
};
