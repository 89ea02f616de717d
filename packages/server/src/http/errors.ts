import { ConflictError, DomainError, ForbiddenError, NotFoundError, OverloadedError, TooLargeError, UnauthenticatedError, ValidationError } from '../errors';

/** The one error shape every response uses: `{type, code, detail, attr}`. */
export interface ErrorBody {
  type: string;
  code: string;
  detail: string;
  attr: string | null;
}

/** An error as the HTTP edge sends it: status, headers and body. Domain code throws src/errors.ts instead. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly type: string,
    readonly code: string,
    readonly detail: string,
    readonly attr: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  body(): ErrorBody {
    return { type: this.type, code: this.code, detail: this.detail, attr: this.attr };
  }
}

/** The status, type and headers of each kind of domain error. */
const domainStatus = (error: DomainError): [number, string, Record<string, string>] => {
  if (error instanceof ValidationError) return [400, 'validation_error', {}];
  if (error instanceof NotFoundError) return [404, 'invalid_request', {}];
  if (error instanceof ConflictError) return [409, 'invalid_request', {}];
  if (error instanceof UnauthenticatedError) return [401, 'authentication_error', {}];
  if (error instanceof ForbiddenError) return [403, 'authentication_error', {}];
  if (error instanceof TooLargeError) return [413, 'invalid_request', {}];
  if (error instanceof OverloadedError) return [503, 'server_error', { 'retry-after': '1' }];
  return [400, 'invalid_request', {}];
};

/** A domain error (src/errors.ts) as the HTTP edge sends it. */
export function apiErrorOf(error: DomainError): ApiError {
  const [status, type, headers] = domainStatus(error);
  return new ApiError(status, type, error.code, error.detail, error.attr, headers);
}

export const notAuthenticated = () => new ApiError(401, 'authentication_error', 'not_authenticated', 'Authentication credentials were not provided.');

export const authenticationFailed = (detail: string) => new ApiError(401, 'authentication_error', 'authentication_failed', detail);

export const permissionDenied = (detail = 'You do not have permission to perform this action.') =>
  new ApiError(403, 'authentication_error', 'permission_denied', detail);

export const methodNotAllowed = (method: string) => new ApiError(405, 'invalid_request', 'method_not_allowed', `Method "${method}" not allowed.`);

export const throttled = (seconds: number, detail = `Request was throttled. Expected available in ${seconds} seconds.`) =>
  new ApiError(429, 'throttled_error', 'throttled', detail, null, { 'retry-after': String(seconds) });

/** The database cannot be reached or written right now; nothing was stored, so the client should retry. */
export const databaseUnavailable = () =>
  new ApiError(503, 'server_error', 'service_unavailable', 'The database is unavailable. Retry in a moment.', null, { 'retry-after': '1' });

/** The database's disk is full: nothing was stored, and a retry succeeds once someone frees space (seconds at best). */
export const databaseDiskFull = () =>
  new ApiError(503, 'server_error', 'service_unavailable', "The database's disk is full. Retry later.", null, { 'retry-after': '10' });

export const missingProjectToken = () =>
  new ApiError(401, 'authentication_error', 'missing_api_key', 'API key not provided. You can find your project API key in your project settings.');

export const invalidProjectToken = () =>
  new ApiError(401, 'authentication_error', 'invalid_api_key', 'Project API key invalid. You can find your project API key in your project settings.');
