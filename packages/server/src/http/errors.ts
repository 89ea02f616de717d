/** The one error shape every response uses: `{type, code, detail, attr}`. */
export interface ErrorBody {
  type: string;
  code: string;
  detail: string;
  attr: string | null;
}

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

export const validationError = (detail: string, attr: string | null = null, code = 'invalid_input') =>
  new ApiError(400, 'validation_error', code, detail, attr);

export const notFound = (detail = 'Not found.') => new ApiError(404, 'invalid_request', 'not_found', detail);

export const notAuthenticated = () =>
  new ApiError(401, 'authentication_error', 'not_authenticated', 'Authentication credentials were not provided.');

export const authenticationFailed = (detail: string) =>
  new ApiError(401, 'authentication_error', 'authentication_failed', detail);

export const permissionDenied = (detail = 'You do not have permission to perform this action.') =>
  new ApiError(403, 'authentication_error', 'permission_denied', detail);

export const methodNotAllowed = (method: string) =>
  new ApiError(405, 'invalid_request', 'method_not_allowed', `Method "${method}" not allowed.`);

export const throttled = (seconds: number) =>
  new ApiError(429, 'throttled_error', 'throttled', `Request was throttled. Expected available in ${seconds} seconds.`, null, {
    'retry-after': String(seconds),
  });

export const missingProjectToken = () =>
  new ApiError(401, 'authentication_error', 'missing_api_key', 'API key not provided. You can find your project API key in your project settings.');

export const invalidProjectToken = () =>
  new ApiError(401, 'authentication_error', 'invalid_api_key', 'Project API key invalid. You can find your project API key in your project settings.');
