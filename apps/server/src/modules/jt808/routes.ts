// GET /api/iot/v2/devices/:id/jt808: a JT/T 808 terminal as the device registry shows it
// (registration, connection, a page of its last frames). Needs device:read.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DEVICE_API } from '@iotc/shared/device';
import { envelopeSchema } from '@iotc/shared/envelope';
import { jt808TerminalQuerySchema, jt808TerminalSchema } from '@iotc/shared/jt808';
import { idParamsSchema } from '@iotc/shared/platform';
import { callerOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { Jt808ViewService } from './view.ts';

export const jt808Routes: FastifyPluginAsyncZod<{ view: Jt808ViewService }> = async (app, { view }) => {
  app.get(
    `${DEVICE_API.devices}/:id/jt808`,
    {
      schema: {
        tags: ['device'],
        summary: 'A JT/T 808 terminal: registration, connection now, and its last frames (newest first)',
        params: idParamsSchema,
        querystring: jt808TerminalQuerySchema,
        response: { 200: envelopeSchema(jt808TerminalSchema) },
      },
      preHandler: app.requirePermission('device:read'),
    },
    async (req) => ok(await view.terminal(callerOf(req).orgId, req.params.id, req.query)),
  );
};
