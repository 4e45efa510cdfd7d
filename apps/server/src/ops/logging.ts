// The server's log: pino's JSON lines, each naming the node and process that wrote it, so lines
// of several nodes gathered in one place can be told apart. One line per request, at its end,
// with the method, route pattern, status and time (Fastify's log controller, overridden here);
// the probes' lines only at debug. Secrets never reach a line: headers are not logged, secrets in
// an address are masked (query values, and a ledger share's token in its path), errors' texts are
// masked the same way, and objects logged with a password, token or secret field have it replaced.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { stdSerializers, type DestinationStream, type LoggerOptions } from 'pino';
import { OPS_PATHS } from './health.ts';

/**
 * A request address as logged: secrets in the query (the spec's bindUser carries a password;
 * an address may carry a token) never reach the log.
 */
export function redactUrl(url: string): string {
  return redactSharePaths(url.replace(/([?&](?:password|token|access_token|code|state)=)[^&#]*/gi, '$1***'));
}

/**
 * The addresses whose next segment is a ledger share's or a tracking link's token (the public API
 * calls, the certificate among them, and the web app's verification and tracking pages): wherever
 * they appear in a text, in any letter case and with doubled slashes, the token is replaced by `***`.
 */
const SHARE_PATH = /(\/+(?:api\/+iot\/+v2\/+ledger\/+public|verify|api\/+iot\/+v2\/+transport-tracking\/+public|track)\/+)[^/?#\s"'<>]+/gi;

export function redactSharePaths(text: string): string {
  return text.replace(SHARE_PATH, '$1***');
}

/** pino's error serializer, with share tokens masked in the message and stack. */
function errSerializer(err: Error) {
  const out = stdSerializers.err(err) as ReturnType<typeof stdSerializers.err> & { message?: string; stack?: string };
  if (typeof out.message === 'string') out.message = redactSharePaths(out.message);
  if (typeof out.stack === 'string') out.stack = redactSharePaths(out.stack);
  return out;
}

/** Field names whose values never reach a line, wherever they are logged (one level deep). */
const SECRET_FIELDS = ['password', 'confirmPassword', 'oldPassword', 'newPassword', 'token', 'accessToken', 'access_token', 'secret', 'authorization'];

/** The pino options of the app's logger: level, node identity, redaction, request serializer. */
export function loggerOptions(opts: { level: string; nodeId: string; stream?: DestinationStream }): LoggerOptions & { stream?: DestinationStream } {
  return {
    level: opts.level,
    // Replaces pino's default (pid, hostname): the node is the host name unless NODE_ID says otherwise.
    base: { node: opts.nodeId, pid: process.pid },
    redact: {
      paths: ['req.headers.access_token', 'req.headers.authorization', 'req.headers.cookie', ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`])],
      censor: '***',
    },
    serializers: {
      req: (req: { method: string; url: string; host?: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
      }),
      err: errSerializer,
    },
    ...(opts.stream ? { stream: opts.stream } : {}),
  };
}

const PROBES = new Set<string>(Object.values(OPS_PATHS));

/** Fastify's request lines: the start only at debug, the end with what an operator looks for. */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }

  /** Fastify's own 404 line names the raw address: masked like every other. */
  override routeNotFound(request: FastifyRequest) {
    request.log.info(`Route ${request.method}:${redactUrl(request.url)} not found`);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const route = request.routeOptions.url ?? null;
    const line = {
      method: request.method,
      route,
      url: redactUrl(request.url),
      status: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (route && PROBES.has(route)) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
