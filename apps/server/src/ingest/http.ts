// HTTP intake: POST /api/iot/v2/device/report with `Authorization: Basic base64(deviceId:secret)`,
// one report or an array. Answers how many were stored, how many repeated a stored device time,
// and each refused report's index and reason. While the database is unreachable (or too many
// readings wait for it) the call is refused at once with 503 INTAKE_UNAVAILABLE and Retry-After,
// nothing of it stored.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEVICE_API, intakeResultSchema } from '@iotc/shared/device';
import { envelopeSchema } from '@iotc/shared/envelope';
import { ok } from '../plugins/errors.ts';
import { AppError } from '../lib/errors.ts';
import { reportList, type IntakePipeline } from './pipeline.ts';
import { isUnavailable } from '../db/availability.ts';

/** Seconds a refused caller is asked to wait (the database's recovery is probed every 2 s). */
export const INTAKE_RETRY_AFTER_S = 10;

function basicCredentials(header: string | undefined): { deviceId: string; secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const at = text.indexOf(':');
  return at > 0 ? { deviceId: text.slice(0, at), secret: text.slice(at + 1) } : null;
}

export const httpIntakeRoutes: FastifyPluginAsyncZod<{
  pipeline: IntakePipeline;
  /** Calls per minute per device over all nodes (counted in Redis with REDIS_URL); the per-node token bucket is the pipeline's. */
  devicePerMinute?: number;
}> = async (app, { pipeline, devicePerMinute }) => {
  const deviceCeiling = devicePerMinute ? app.rateLimitOf('intake-device', devicePerMinute, 'DEVICE_RATE_LIMITED')((req) => basicCredentials(req.headers.authorization)?.deviceId ?? null) : undefined;
  app.post(
    DEVICE_API.report,
    {
      schema: {
        tags: ['intake'],
        summary: 'Device reports over HTTP (Basic auth with the device id and secret), one or an array',
        security: [{ deviceBasic: [] }],
        body: z.unknown(),
        response: { 200: envelopeSchema(intakeResultSchema) },
      },
    },
    async (req, reply) => {
      try {
        return await intake(req, reply);
      } catch (err) {
        if (!isUnavailable(err)) throw err;
        if (!err.counted) pipeline.refusedUnavailable(reportList(req.body)?.length ?? 1);
        void reply.header('retry-after', String(INTAKE_RETRY_AFTER_S));
        throw new AppError(503, 'INTAKE_UNAVAILABLE');
      }
    },
  );

  /** One call: sign-in, then the reports. */
  async function intake(req: FastifyRequest, reply: FastifyReply) {
    // An address with too many failed sign-ins this minute is refused unread and unlogged.
    const blocked = pipeline.authFailures.blocked(req.ip);
    if (blocked) {
      void reply.header('retry-after', String(Math.max(1, Math.ceil(blocked.retryAfterMs / 1000))));
      throw new AppError(429, 'RATE_LIMITED');
    }
    const creds = basicCredentials(req.headers.authorization);
    const device = creds ? await pipeline.authenticate(creds.deviceId, creds.secret) : null;
    if (!device) {
      pipeline.authFailures.failed(req.ip);
      await pipeline.refuse('http', creds?.deviceId ?? null, 'device authentication failed', null);
      throw new AppError(401, 'DEVICE_AUTH_FAILED');
    }
    // Too many calls of this device: 429 with Retry-After, the refusal in its intake log.
    await deviceCeiling?.(req, reply);
    const wait = await pipeline.throttle(device, 'http');
    if (wait) {
      void reply.header('retry-after', String(Math.max(1, Math.ceil(wait.retryAfterMs / 1000))));
      throw new AppError(429, 'DEVICE_RATE_LIMITED');
    }
    const reports = reportList(req.body);
    if (!reports) throw new AppError(400, 'TOO_MANY_REPORTS');
    return ok(await pipeline.ingest(device, reports, 'http'));
  }
};
