import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, methodNotAllowed, notFound, validationError, type ErrorBody } from './errors';

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
export function fromValidation(error: AjvError): ApiError {
  const path = error.instancePath.split('/').filter(Boolean);
  const attrOf = (parts: string[]) => (parts.length ? parts.join('__') : null);
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return validationError('This field is required.', attrOf([...path, String(p.missingProperty)]), 'required');
    case 'maxLength':
      return validationError(`Ensure this field has no more than ${p.limit} characters.`, attrOf(path), 'max_length');
    case 'minLength':
      return p.limit === 1
        ? validationError('This field may not be blank.', attrOf(path), 'blank')
        : validationError(`Ensure this field has at least ${p.limit} characters.`, attrOf(path), 'min_length');
    case 'enum':
      return validationError(`"${String(error.data)}" is not a valid choice.`, attrOf(path), 'invalid_choice');
    case 'type':
      if (!path.length) return validationError('Invalid data. Expected a dictionary.', null);
      return validationError(typeDetails[String(p.type)] ?? `Expected ${p.type}.`, attrOf(path));
    case 'minimum':
      return validationError(`Ensure this value is greater than or equal to ${p.limit}.`, attrOf(path), 'min_value');
    case 'maximum':
      return validationError(`Ensure this value is less than or equal to ${p.limit}.`, attrOf(path), 'max_value');
    default:
      return validationError('Invalid value.', attrOf(path));
  }
}

function toApiError(error: FastifyError & { validation?: AjvError[] }): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error.validation?.length) return fromValidation(error.validation[0]!);
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
    return reply.code(apiError.statusCode).headers(apiError.headers).send(apiError.body());
  });
  app.setNotFoundHandler((request, reply) => {
    const known = knownMethods(app, request.url);
    const error = known.length ? methodNotAllowed(request.method) : notFound();
    if (known.length) void reply.header('allow', known.join(', '));
    return reply.code(error.statusCode).send(error.body());
  });
}

/** Methods routed for the request's path, so an unrouted method on a known path answers 405, not 404. */
function knownMethods(app: FastifyInstance, url: string): string[] {
  const path = url.split('?')[0]!;
  return (['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const).filter((method) => app.findRoute({ method, url: path }));
}
