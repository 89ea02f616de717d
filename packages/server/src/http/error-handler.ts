import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isUnavailable } from '../db/database';
import { isDiskFull } from '../db/disk-space';
import { DomainError, NotFoundError, ValidationError } from '../errors';
import { ApiError, apiErrorOf, databaseDiskFull, databaseUnavailable, methodNotAllowed, type ErrorBody } from './errors';
import { NO_NUL } from './schemas';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  data?: unknown;
}

const typeDetails: Record<string, string> = {
  string: 'Not a valid string.',
  integer: 'A valid integer is required.',
  number: 'A valid number is required.',
  boolean: 'Must be a valid boolean.',
  object: 'Expected a dictionary of items.',
  array: 'Expected a list of items.',
};

/** Turns the first schema violation into the DRF-style body: field path in `attr`, joined with `__`. */
export function fromValidation(error: AjvError): ValidationError {
  const path = error.instancePath.split('/').filter(Boolean);
  const attrOf = (parts: string[]) => (parts.length ? parts.join('__') : null);
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return new ValidationError('This field is required.', attrOf([...path, String(p.missingProperty)]), 'required');
    case 'maxLength':
      return new ValidationError(`Ensure this field has no more than ${p.limit} characters.`, attrOf(path), 'max_length');
    case 'minLength':
      return p.limit === 1
        ? new ValidationError('This field may not be blank.', attrOf(path), 'blank')
        : new ValidationError(`Ensure this field has at least ${p.limit} characters.`, attrOf(path), 'min_length');
    case 'enum':
      return new ValidationError(`"${String(error.data)}" is not a valid choice.`, attrOf(path), 'invalid_choice');
    case 'type':
      if (!path.length) return new ValidationError('Invalid data. Expected a dictionary.', null);
      return new ValidationError(typeDetails[String(p.type)] ?? `Expected ${p.type}.`, attrOf(path));
    case 'minimum':
      return new ValidationError(`Ensure this value is greater than or equal to ${p.limit}.`, attrOf(path), 'min_value');
    case 'maximum':
      return new ValidationError(`Ensure this value is less than or equal to ${p.limit}.`, attrOf(path), 'max_value');
    case 'pattern':
      if (p.pattern === NO_NUL) return new ValidationError('Null characters are not allowed.', attrOf(path), 'null_characters_not_allowed');
      return new ValidationError('Invalid value.', attrOf(path));
    default:
      return new ValidationError('Invalid value.', attrOf(path));
  }
}

/**
 * Whether an answered error gets a line of its own in the log: an unavailable database's does; a full disk's does not,
 * being logged once as it starts and once as it ends (`DiskSpace`), where every refused write would be a line.
 */
export const logsWithRequest = (apiError: ApiError, error: unknown) => apiError.code === 'service_unavailable' && !isDiskFull(error);

export function toApiError(error: Error & { code?: string; statusCode?: number; validation?: AjvError[] }): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return apiErrorOf(error);
  if (isDiskFull(error)) return databaseDiskFull();
  if (isUnavailable(error)) return databaseUnavailable();
  if (error.validation?.length) return apiErrorOf(fromValidation(error.validation[0]!));
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'invalid_request', 'parse_error', `JSON parse error - ${error.message}`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'invalid_request', 'unsupported_media_type', error.message);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'invalid_request', 'request_too_large', 'Request body is too large.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'invalid_request', 'parse_error', 'Request body size did not match Content-Length.');
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError(error.statusCode, 'invalid_request', 'invalid_request', error.message);
  }
  return undefined;
}

/** Every error leaves through here, as `{type, code, detail, attr}`. A client's mistake is never a 500. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (!apiError) {
      request.log.error({ err: error }, 'unhandled error');
      const body: ErrorBody = { type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null };
      return reply.code(500).send(body);
    }
    if (logsWithRequest(apiError, error)) request.log.warn({ err: error }, 'database unavailable');
    return reply.code(apiError.statusCode).headers(apiError.headers).send(apiError.body());
  });
  app.setNotFoundHandler((request, reply) => {
    const known = knownMethods(app, request.url);
    // A route of this very method sends here what it did not find (a missing static file): 404, not 405.
    const routed = known.includes(request.method === 'HEAD' ? 'GET' : request.method);
    const error = known.length && !routed ? methodNotAllowed(request.method) : apiErrorOf(new NotFoundError());
    if (error.statusCode === 405) void reply.header('allow', known.join(', '));
    return reply.code(error.statusCode).send(error.body());
  });
}

/** Methods routed for the request's path, so an unrouted method on a known path answers 405, not 404. */
function knownMethods(app: FastifyInstance, url: string): string[] {
  const path = url.split('?')[0]!;
  return (['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const).filter((method) => app.findRoute({ method, url: path }));
}

/** The error for a request Node refused before routing: too-large headers, too slow, or not HTTP. */
function clientError(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') return new ApiError(431, 'invalid_request', 'request_header_fields_too_large', 'Request header fields are too large.');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new ApiError(408, 'invalid_request', 'request_timeout', 'The request was not received in time.');
  return new ApiError(400, 'invalid_request', 'bad_request', 'Malformed HTTP request.');
}

/**
 * Fastify's `clientErrorHandler`: errors Node raises on a connection before there is a request (oversized headers,
 * the headers or request timeout, a malformed request) get the same JSON body, written on the socket, which is then closed.
 */
export function sendClientError(this: FastifyInstance, error: ConnectionError, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError = clientError(error.code);
  this.log.debug({ err: error }, 'client error');
  // As Node does: write only when no response has started on this connection, not to corrupt it.
  if (socket.writable && !(socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    const body = JSON.stringify(apiError.body());
    const status = apiError.statusCode;
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
