// GET and PUT /api/iot/v2/platform/map-tiles: the base map's tile source, platform administrator only.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { MAP_TILES_API, mapTilesSettingSchema, mapTilesViewSchema } from '@iotc/shared/map-tiles';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { MapTilesService } from './service.ts';

export const mapTilesRoutes: FastifyPluginAsyncZod<{ service: MapTilesService }> = async (app, { service }) => {
  app.get(
    MAP_TILES_API.setting,
    {
      schema: {
        tags: ['platform'],
        summary: "The base map's tile source: the saved choice, the start-up default (MAP_TILE_*) and what applies (platform administrator only)",
        response: { 200: envelopeSchema(mapTilesViewSchema) },
      },
      preHandler: app.authenticate,
    },
    async (req) => ok(service.view(callerOf(req))),
  );
  app.put(
    MAP_TILES_API.setting,
    {
      schema: {
        tags: ['platform'],
        summary: "Set the base map's tile source for every organisation (platform administrator only)",
        body: mapTilesSettingSchema,
        response: { 200: envelopeSchema(mapTilesViewSchema) },
      },
      preHandler: app.authenticate,
    },
    async (req) => ok(await service.save(callerOf(req), req.body, clientOf(req))),
  );
};
