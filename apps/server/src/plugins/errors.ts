// One place that turns every failure into the envelope with a stable errorcode and a text in
// the request's language. 5xx answers never carry internal messages; the log has them.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { errorText, isErrorCode, type ErrorCode } from '@iotc/shared/errors';
import { langFromHeader, type I18nText, type Lang } from '@iotc/shared/i18n';
import { issueSentence, type ValidationPart } from '@iotc/shared/validation-text';
import type { Envelope } from '@iotc/shared/envelope';
import type { DatabaseAvailability } from '../db/availability.ts';
import { AppError } from '../lib/errors.ts';

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

/** The catalogue text followed by a detail ("请求参数有误：账号应为文本", "The request is invalid: Account must be text"). */
export function withDetail(code: ErrorCode, detail: string | I18nText | undefined, lang: Lang): string {
  const text = errorText(code, lang);
  if (detail === undefined) return text;
  const d = typeof detail === 'string' ? detail : detail[lang];
  // A detail in brackets follows the text as it is; a Chinese sentence takes the full-width
  // colon; a field path or a number (a plain string) keeps the ASCII one.
  if (d.startsWith('（')) return `${text}${d}`;
  if (d.startsWith('(')) return `${text} ${d}`;
  return lang === 'zh' && (code === 'VALIDATION' || typeof detail !== 'string') ? `${text}：${d}` : `${text}: ${d}`;
}

/** The value at `path` of what the client sent (undefined when it is not there). */
function sentValue(req: FastifyRequest, part: ValidationPart, path: string[]): unknown {
  const root: unknown = part === 'body' ? req.body : part === 'querystring' ? req.query : part === 'params' ? req.params : req.headers;
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function validationMessage(err: FastifyError, req: FastifyRequest, lang: Lang): { code: string; msg: string } {
  if (hasZodFastifySchemaValidationErrors(err)) {
    const first = err.validation[0]!;
    const text = first.message ?? '';
    if (isErrorCode(text)) return { code: text, msg: errorText(text, lang) };
    const part = (err.validationContext ?? 'body') as ValidationPart;
    const path = first.instancePath.split('/').filter(Boolean);
    // Zod leaves the received value out of its issues: the request itself says whether it was absent.
    const missing = sentValue(req, part, path) == null;
    const sentence = issueSentence({ ...first.params, code: first.keyword, message: text, path }, lang, { missing, part });
    return { code: 'VALIDATION', msg: withDetail('VALIDATION', sentence, lang) };
  }
  return { code: 'VALIDATION', msg: errorText('VALIDATION', lang) };
}

/** A Zod issue of a checked value (an imported row) in the user's language, in the project's words. */
export function zodIssueText(issue: z.core.$ZodIssue, lang: Lang): string {
  if (isErrorCode(issue.message)) return errorText(issue.message, lang);
  return issueSentence(issue as unknown as Parameters<typeof issueSentence>[0], lang);
}

/** Fastify's own refusals of a request it could not read, in the project's words. */
const FRAMEWORK_REFUSALS: Record<string, I18nText> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: { en: 'the request body cannot be empty', zh: '请求内容不能为空' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { en: 'this content type is not accepted', zh: '不支持该内容类型' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { en: 'the length of the body does not match its Content-Length', zh: '请求内容长度与 Content-Length 不符' },
  FST_ERR_CTP_INVALID_TYPE: { en: 'the Content-Type header is not valid', zh: 'Content-Type 请求头无效' },
  FST_ERR_CTP_EMPTY_TYPE: { en: 'the Content-Type header is empty', zh: 'Content-Type 请求头为空' },
  FST_ERR_CTP_INVALID_JSON_BODY: { en: 'the body is not valid JSON', zh: '请求内容不是有效的 JSON' },
};

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', async (req) => {
    const h = req.headers['language'];
    req.lang = langFromHeader(Array.isArray(h) ? h[0] : h);
  });

  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const lang = req.lang ?? 'en';
    if (err instanceof AppError) {
      const msg = withDetail(err.code, err.detail || undefined, lang);
      return reply.status(err.statusCode).send(fail(err.code, msg));
    }
    if (err.validation) {
      const { code, msg } = validationMessage(err, req, lang);
      return reply.status(400).send(fail(code, msg));
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send(fail('BODY_TOO_LARGE', errorText('BODY_TOO_LARGE', lang)));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Malformed JSON, wrong content type and the like: the client's fault, said plainly in the
      // project's words (an unlisted refusal: the generic text, with Fastify's English in English).
      const own = FRAMEWORK_REFUSALS[err.code];
      const detail = own ?? (lang === 'en' ? err.message : undefined);
      return reply.status(err.statusCode).send(fail('VALIDATION', withDetail('VALIDATION', detail, lang)));
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

/** 404 for API paths; the web app's fallback is registered separately in plugins/web.ts. */
export function sendNotFound(req: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send(fail('NOT_FOUND', errorText('NOT_FOUND', req.lang ?? 'en')));
}
