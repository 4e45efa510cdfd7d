// The server's log: pino's JSON lines, each naming the node and process that wrote it, so lines
// of several nodes gathered in one place can be told apart. One line per request, at its end,
// with the method, route pattern, status and time (Fastify's log controller, overridden here);
// the probes' lines only at debug. Secrets never reach a line: headers are not logged, secrets in
// an address are masked, and objects logged with a password, token or secret field have it replaced.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { DestinationStream, LoggerOptions } from 'pino';
import { OPS_PATHS } from './health.ts';

/**
 * A request address as logged: secrets in the query (the spec's bindUser carries a password;
 * an address may carry a token) never reach the log.
 */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:password|token|access_token|code|state)=)[^&#]*/gi, '$1***');
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
