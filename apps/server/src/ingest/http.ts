// HTTP intake: POST /api/iot/v2/device/report with `Authorization: Basic base64(deviceId:secret)`,
// one report or an array. Answers how many were stored, how many repeated a stored device time,
// and each refused report's index and reason.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEVICE_API, intakeResultSchema } from '@iotc/shared/device';
import { envelopeSchema } from '@iotc/shared/envelope';
import { AppError, ok } from '../plugins/errors.ts';
import { reportList, type IntakePipeline } from './pipeline.ts';

function basicCredentials(header: string | undefined): { deviceId: string; secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const at = text.indexOf(':');
  return at > 0 ? { deviceId: text.slice(0, at), secret: text.slice(at + 1) } : null;
}

export const httpIntakeRoutes: FastifyPluginAsyncZod<{ pipeline: IntakePipeline }> = async (app, { pipeline }) => {
  app.post(
    DEVICE_API.report,
    {
      schema: {
        tags: ['intake'],
        summary: 'Device reports over HTTP (Basic auth with the device id and secret), one or an array',
        body: z.unknown(),
        response: { 200: envelopeSchema(intakeResultSchema) },
      },
    },
    async (req) => {
      const creds = basicCredentials(req.headers.authorization);
      const device = creds ? await pipeline.authenticate(creds.deviceId, creds.secret) : null;
      if (!device) {
        await pipeline.refuse('http', creds?.deviceId ?? null, 'device authentication failed', null);
        throw new AppError(401, 'DEVICE_AUTH_FAILED');
      }
      const reports = reportList(req.body);
      if (!reports) throw new AppError(400, 'TOO_MANY_REPORTS');
      return ok(await pipeline.ingest(device, reports, 'http'));
    },
  );
};
