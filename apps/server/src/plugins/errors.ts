// One place that turns every failure into the envelope with a stable errorcode and a text in
// the request's language. 5xx answers never carry internal messages; the log has them.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorText, isErrorCode, type ErrorCode } from '@iotc/shared/errors';
import { langFromHeader, type Lang } from '@iotc/shared/i18n';
import type { Envelope } from '@iotc/shared/envelope';
import type { DatabaseAvailability } from '../db/availability.ts';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    /** Extra detail appended to the catalogue text (never internal details). */
    readonly detail?: string,
  ) {
    super(code);
  }
}

export function ok<T>(data: T): Envelope<T> {
  return { isSuccess: 'Y', data, errorcode: null, errormsg: null };
}

export function fail(code: string, msg: string): Envelope<null> {
  return { isSuccess: 'N', data: null, errorcode: code, errormsg: msg };
}

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
  }
}

function validationMessage(err: FastifyError, lang: Lang): { code: string; msg: string } {
  if (hasZodFastifySchemaValidationErrors(err)) {
    const first = err.validation[0]!;
    const text = first.message ?? "";
    if (isErrorCode(text)) return { code: text, msg: errorText(text, lang) };
    const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.') || err.validationContext || 'body';
    const detail = lang === 'zh' ? zhIssueText(first) : text;
    return { code: 'VALIDATION', msg: `${errorText('VALIDATION', lang)}: ${field}: ${detail}` };
  }
  return { code: 'VALIDATION', msg: errorText('VALIDATION', lang) };
}

const zhLocale = z.locales.zhCN();

type LocaleIssue = Parameters<typeof zhLocale.localeError>[0];

/** Zod's own Chinese text for an issue, without its "received" part (the input is not always kept). */
function zhText(issue: LocaleIssue, fallback: string): string {
  const out = zhLocale.localeError(issue);
  const text = typeof out === 'string' ? out : out?.message;
  return text ? text.replace(/[，,]\s*实际接收.*$/, '') : fallback;
}

/** The Chinese text of a request validation issue (its keyword is the Zod issue code). */
function zhIssueText(v: { keyword: string; message?: string; params: Record<string, unknown> }): string {
  return zhText({ ...v.params, code: v.keyword, path: [] } as unknown as LocaleIssue, v.message ?? '');
}

/** A Zod issue of a checked value (an imported row) in the user's language. */
export function zodIssueText(issue: z.core.$ZodIssue, lang: Lang): string {
  if (isErrorCode(issue.message)) return errorText(issue.message, lang);
  if (lang === 'en') return issue.message;
  return zhText(issue as unknown as LocaleIssue, issue.message);
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', async (req) => {
    const h = req.headers['language'];
    req.lang = langFromHeader(Array.isArray(h) ? h[0] : h);
  });

  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const lang = req.lang ?? 'en';
    if (err instanceof AppError) {
      const msg = errorText(err.code, lang) + (err.detail ? `: ${err.detail}` : '');
      return reply.status(err.statusCode).send(fail(err.code, msg));
    }
    if (err.validation) {
      const { code, msg } = validationMessage(err, lang);
      return reply.status(400).send(fail(code, msg));
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send(fail('BODY_TOO_LARGE', errorText('BODY_TOO_LARGE', lang)));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Malformed JSON, wrong content type and the like: the client's fault, said plainly.
      return reply.status(err.statusCode).send(fail('VALIDATION', `${errorText('VALIDATION', lang)}: ${err.message}`));
    }
    const internal = () => {
      req.log.error({ err }, 'request failed');
      return reply.status(500).send(fail('INTERNAL', errorText('INTERNAL', lang)));
    };
    // The database unreachable (db/availability.ts): 503 with Retry-After, and the outage is
    // logged once rather than a failed request per call.
    const availability = (req.server as { availability?: DatabaseAvailability }).availability;
    if (!availability) return internal();
    return availability.failed(err).then((down) =>
      down ? reply.status(503).header('retry-after', '10').send(fail('SERVICE_UNAVAILABLE', errorText('SERVICE_UNAVAILABLE', lang))) : internal(),
    );
  });
});

/** 404 for API paths; the web app's fallback is registered separately in app.ts. */
export function sendNotFound(req: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send(fail('NOT_FOUND', errorText('NOT_FOUND', req.lang ?? 'en')));
}
