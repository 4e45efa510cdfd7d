// The ledger's calls (DESIGN.md "Ledger (traceability) interface"). Without login: the latest
// checkpoint and the public key (plain text, as transparency-log tools read them), inclusion and
// consistency proofs (hashes only), and the records a share link publishes. With login: one
// leaf (its organisation tree only), the records of a task, a device range, a warehouse batch or
// one warehouse record with their proofs, and making, listing and revoking share links of the
// same scopes (shares.ts). A share's token is in its public addresses only: the request log masks
// it there (ops/logging.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import {
  LEDGER_API,
  consistencyProofSchema,
  consistencyQuerySchema,
  inclusionProofSchema,
  inclusionQuerySchema,
  leafAnswerSchema,
  leafParamsSchema,
  publicKeyAnswerSchema,
  publicRecordsAnswerSchema,
  publicRecordsQuerySchema,
  recordsAnswerSchema,
  recordsQuerySchema,
  shareAnswerSchema,
  shareBodySchema,
  shareQuerySchema,
  shareRowSchema,
} from '@iotc/shared/ledger/api';
import { pageSchema } from '@iotc/shared/list';
import { idParamsSchema } from '@iotc/shared/platform';
import { contentDisposition, requestTimezone } from '../../lib/export.ts';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { certificatePdf, subjectName } from './certificate.ts';
import { CERTIFICATE_TEXTS } from './certificate-texts.ts';
import type { LedgerService } from './service.ts';

const TEXT = 'text/plain; charset=utf-8';

export const ledgerRoutes: FastifyPluginAsyncZod<{ ledger: LedgerService }> = async (app, { ledger }) => {
  const tags = ['ledger'];
  const signedIn = { preHandler: app.authenticate };

  app.get(LEDGER_API.checkpoint, { schema: { tags, summary: 'The latest signed tree head (C2SP tlog-checkpoint in a signed note), text' } }, async (_req, reply) => {
    const cp = await ledger.latestCheckpoint();
    return reply.type(TEXT).header('cache-control', 'no-cache').send(cp.note);
  });
  app.get(
    LEDGER_API.publicKey,
    { schema: { tags, summary: 'The verifier key of the tree heads (C2SP signed-note), text; ?format=json for the key and the origin', querystring: z.object({ format: z.enum(['text', 'json']).default('text') }) } },
    async (req, reply) => {
      const key = await ledger.publicKey();
      if (req.query.format === 'json') return reply.send(ok(publicKeyAnswerSchema.parse(key)));
      return reply.type(TEXT).send(`${key.verifierKey}\n`);
    },
  );
  app.get(
    LEDGER_API.inclusion,
    { schema: { tags, summary: 'RFC 6962 audit path of leaf `index` in the tree of `size` leaves (default: the latest checkpoint)', querystring: inclusionQuerySchema, response: { 200: envelopeSchema(inclusionProofSchema) } } },
    async (req) => ok(await ledger.inclusion(req.query.index, req.query.size)),
  );
  app.get(
    LEDGER_API.consistency,
    { schema: { tags, summary: 'RFC 6962 consistency proof between the trees of `from` and `to` leaves', querystring: consistencyQuerySchema, response: { 200: envelopeSchema(consistencyProofSchema) } } },
    async (req) => ok(await ledger.consistency(req.query.from, req.query.to)),
  );
  app.get(
    '/api/iot/v2/ledger/leaves/:index',
    { schema: { tags, summary: "One leaf's bytes, for a user of the record's organisation tree", params: leafParamsSchema, response: { 200: envelopeSchema(leafAnswerSchema) } }, ...signedIn },
    async (req) => ok(await ledger.leaf(callerOf(req), req.params.index)),
  );
  app.get(
    LEDGER_API.records,
    {
      schema: {
        tags,
        summary: 'The logged records of a task, a device range, a warehouse batch or one warehouse record (200 a page), with the rows as stored now, proofs and the checkpoint',
        querystring: recordsQuerySchema,
        response: { 200: envelopeSchema(recordsAnswerSchema) },
      },
      ...signedIn,
    },
    async (req) => ok(await ledger.records(callerOf(req), req.query)),
  );
  app.post(
    LEDGER_API.shares,
    {
      schema: {
        tags,
        summary: 'A link that publishes the records of a task, a device range, a warehouse batch or one warehouse record without login, until it expires (30 days unless `expiresInDays` or `expiresAt` says otherwise, at most 5 years) or is revoked',
        body: shareBodySchema,
        response: { 200: envelopeSchema(shareAnswerSchema) },
      },
      ...signedIn,
    },
    async (req) => ok(await ledger.shares.create(callerOf(req), req.body, clientOf(req))),
  );
  app.get(
    LEDGER_API.shares,
    {
      schema: {
        tags,
        summary: "The share links of the caller's organisation tree (of the kinds the caller may read), newest first, with their status: active, expired or revoked",
        querystring: shareQuerySchema,
        response: { 200: envelopeSchema(pageSchema(shareRowSchema)) },
      },
      ...signedIn,
    },
    async (req) => ok(await ledger.shares.list(callerOf(req), req.query)),
  );
  app.post(
    '/api/iot/v2/ledger/shares/:id/revoke',
    { schema: { tags, summary: 'Ends a share link now: its token answers 410 LEDGER_SHARE_REVOKED from then on', params: idParamsSchema, response: { 200: envelopeSchema(shareRowSchema) } }, ...signedIn },
    async (req) => ok(await ledger.shares.revoke(callerOf(req), req.params.id, clientOf(req))),
  );
  app.get(
    '/api/iot/v2/ledger/public/:token',
    {
      schema: {
        tags,
        summary: 'The records a share link publishes (200 a page), without login; an ended link answers 410 (LEDGER_SHARE_EXPIRED, LEDGER_SHARE_REVOKED), an unknown one 404',
        params: z.object({ token: z.string().min(1).max(100) }),
        querystring: publicRecordsQuerySchema,
        response: { 200: envelopeSchema(publicRecordsAnswerSchema) },
      },
    },
    async (req) => ok(await ledger.shares.publicRecords(req.params.token, req.query.after)),
  );
  app.get(
    '/api/iot/v2/ledger/public/:token/certificate',
    {
      schema: {
        tags,
        summary: "A share's verification certificate: a PDF in the request language and time zone, every record verified at download, with a QR code of the public verification page; without login",
        params: z.object({ token: z.string().min(1).max(100) }),
      },
    },
    async (req, reply) => {
      const tz = requestTimezone(req);
      const v = await ledger.shares.verification(req.params.token, `${req.protocol}://${req.host}`);
      const pdf = await certificatePdf(v, req.lang, tz);
      const name = subjectName(v.subject);
      return reply
        .header('content-type', 'application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', contentDisposition(`${CERTIFICATE_TEXTS[req.lang].fileName}-${name.replace(/[\\/:*?"<>|]/g, '_')}.pdf`))
        .send(pdf);
    },
  );
};
