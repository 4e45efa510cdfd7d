// Signatures: GET /signatures?recordType&recordId (any signed record, each with `matches`), and a
// transport task's GSP record and shipment report: GET and POST /transport-tasks/:id/signatures.
// Reading needs the read permission of the record's area; signing a task document transport:write.
// An asset's GSP record (a cold room's day, in the request's time zone): GET and POST
// /reports/temperature/signatures, for whoever reads the record (device:read); signing also needs
// the write permission of its area (the service checks: warehouse:write or transport:write).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import type { Permission } from '@iotc/shared/platform';
import { idParamsSchema } from '@iotc/shared/platform';
import {
  gspRecordKeySchema,
  gspSignBodySchema,
  SIGNATURE_API,
  signatureQuerySchema,
  signatureRowSchema,
  taskSignBodySchema,
  taskSignatureQuerySchema,
  type SignatureRecordType,
} from '@iotc/shared/signature';
import { requestTimezone } from '../../lib/export.ts';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { SignatureService } from './service.ts';

/** Who may read a record's signatures: any one of these permissions. */
const READ: Record<SignatureRecordType, Permission[]> = {
  warehouse_record: ['warehouse:read'],
  command: ['command:request', 'command:review'],
  work_order: ['alarm:read'],
  gsp_record: ['transport:read'],
  shipment_report: ['transport:read'],
  asset_gsp_record: ['device:read'],
};

export const signatureRoutes: FastifyPluginAsyncZod<{ signatures: SignatureService }> = async (app, { signatures }) => {
  const tags = ['signatures'];
  const rows = { 200: envelopeSchema(z.array(signatureRowSchema)) };
  const task = '/api/iot/v2/transport-tasks/:id/signatures';

  app.get(
    SIGNATURE_API.signatures,
    { schema: { tags, summary: "A record's signatures, oldest first, each with whether the record still matches what was signed", querystring: signatureQuerySchema, response: rows }, preHandler: app.authenticate },
    async (req) => {
      const caller = callerOf(req);
      if (!READ[req.query.recordType].some((p) => caller.permissions.includes(p))) throw new AppError(403, 'NO_PERMISSION');
      return ok(await signatures.list(caller, req.query.recordType, req.query.recordId));
    },
  );
  app.get(
    task,
    { schema: { tags, summary: "The signatures of a task's GSP record and shipment report", params: idParamsSchema, querystring: taskSignatureQuerySchema, response: rows }, preHandler: app.requirePermission('transport:read') },
    async (req) => {
      const caller = callerOf(req);
      const docs = req.query.document ? [req.query.document] : (['gsp_record', 'shipment_report'] as const);
      const out = [];
      for (const d of docs) out.push(...(await signatures.list(caller, d, req.params.id)));
      return ok(out.sort((a, b) => a.signedAt.localeCompare(b.signedAt)));
    },
  );
  app.post(
    task,
    {
      schema: { tags, summary: "Sign a task's GSP record or shipment report as reviewed or responsible (password again; the reviewer is not the person responsible)", params: idParamsSchema, body: taskSignBodySchema, response: { 200: envelopeSchema(signatureRowSchema) } },
      preHandler: app.requirePermission('transport:write'),
    },
    async (req) => ok(await signatures.signTask(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
  app.get(
    SIGNATURE_API.gspSignatures,
    {
      schema: { tags, summary: "The signatures of an asset's GSP temperature and humidity record (its day or month in the request's time zone), each with whether the record still matches", querystring: gspRecordKeySchema, response: rows },
      preHandler: app.requirePermission('device:read'),
    },
    async (req) => ok(await signatures.listGspRecord(callerOf(req), req.query, requestTimezone(req))),
  );
  app.post(
    SIGNATURE_API.gspSignatures,
    {
      schema: {
        tags,
        summary: "Sign an asset's GSP record of a past day or month (request time zone) as recorded (responsible) or reviewed: password again; the reviewer is not the person who recorded it",
        body: gspSignBodySchema,
        response: { 200: envelopeSchema(signatureRowSchema) },
      },
      preHandler: app.requirePermission('device:read'),
    },
    async (req) => ok(await signatures.signGspRecord(callerOf(req), req.body, requestTimezone(req), clientOf(req))),
  );
};
