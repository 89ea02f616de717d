import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';

/** Query parameters and path segments that carry a key, a project token or a link's secret (an invite's, a password reset's). */
const SECRET_QUERY = /([?&](?:token|api_key|personal_api_key)=)[^&#]*/gi;
const SECRET_PATH = /^(\/(?:array|invite|reset-password|api\/invites|api\/password_resets)\/)[^/?#]+/;
const REDACTED = '[redacted]';

/** The URL with its secrets masked, as it may be logged. */
export const loggableUrl = (url: string) => url.replace(SECRET_PATH, `$1${REDACTED}`).replace(SECRET_QUERY, `$1${REDACTED}`);

/** Pino's levels other than info, as a terminal line shows them. */
const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE ', 20: 'DEBUG ', 40: 'WARN ', 50: 'ERROR ', 60: 'FATAL ' };

/** A pino JSON line as a person reads it in a terminal: `12:00:01 GET /flags 200 3.1ms`; the level unless info; an error's stack. */
export function terminalLine(json: string): string {
  const entry = JSON.parse(json) as { time: number; level: number; msg?: string; err?: { message?: string; stack?: string } };
  const error = !entry.err ? '' : entry.level >= 50 ? `\n${entry.err.stack ?? entry.err.message}` : `: ${entry.err.message}`;
  return `${new Date(entry.time).toTimeString().slice(0, 8)} ${LEVEL_NAMES[entry.level] ?? ''}${entry.msg ?? ''}${error}\n`;
}

/**
 * The logger's options: never a secret in the log. Requests are logged with `loggableUrl`, and the `Authorization`
 * header, cookies and `token` / `api_key` / `personal_api_key` fields are redacted wherever something logs them.
 * Lines are JSON (pino), or readable lines (`terminalLine`) when standard output is a terminal.
 */
export function loggerOptions(level: string, terminal = Boolean(process.stdout.isTTY)) {
  return {
    level,
    ...(terminal ? { stream: { write: (json: string) => void process.stdout.write(terminalLine(json)) } } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        'authorization',
        ...['token', 'api_key', 'personal_api_key'].flatMap((field) => [field, `*.${field}`]),
      ],
      censor: REDACTED,
    },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggableUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}

/**
 * Fastify's request log: one line per answered request instead of two, `GET /flags 200 3.1ms`, with `method`,
 * `url` (secrets masked), `status` and `duration_ms` as fields; at level error when the response failed.
 */
export class RequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    // A front door route (`front-door.ts`) logs its requests itself.
    if (request.routeOptions.config?.frontDoor) return;
    logRequest(reply.log, error, request.method, request.url, reply.statusCode, reply.elapsedTime);
  }
}

/**
 * The line of one answered request, `GET /flags 200 3.1ms` (fields `method`, `url` with its secrets masked, `status`,
 * `duration_ms`), at info, or at error with the error when the response failed. Below info (LOG_LEVEL=warn) the line
 * of a successful request is not even built (pino's loggers say; the no-op logger of LOG_LEVEL=silent does not, and
 * drops it).
 */
export function logRequest(log: FastifyBaseLogger, error: Error | null | undefined, method: string, rawUrl: string, status: number, elapsedMs: number) {
  const levels = log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  if (!error && levels.isLevelEnabled && !levels.isLevelEnabled('info')) return;
  const url = loggableUrl(rawUrl);
  const duration = elapsedMs.toFixed(1);
  const fields = { method, url, status, duration_ms: Number(duration) };
  const line = `${method} ${url} ${status} ${duration}ms`;
  if (error) log.error({ ...fields, err: error }, line);
  else log.info(fields, line);
}
