/** The error body every API error has: `{type, code, detail, attr}`; `attr` names the field at fault. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    readonly detail: string,
    readonly attr: string | null,
  ) {
    super(detail);
  }
}

let csrfToken: string | null = null;
let unauthorized: (() => void) | null = null;

/** The session's CSRF token (from `Me.csrf_token`), sent as `X-CSRF-Token` on every unsafe request. */
export function setCsrfToken(token: string | null) {
  csrfToken = token;
}

/** Called when the API answers 401 to a request made in a session: the app sends the user to the login page. */
export function onUnauthorized(handler: () => void) {
  unauthorized = handler;
}

interface Options {
  /** false for the login form itself, whose 401 means a wrong password, not a lost session. */
  redirectOn401?: boolean;
  signal?: AbortSignal;
  /** The body is this text as it stands, of this type (e.g. `text/csv`), not JSON. */
  contentType?: string;
}

/** One JSON request to the service; throws ApiError for every answer that is not 2xx (status 0: no answer at all). */
export async function request<T>(method: string, path: string, body?: unknown, { redirectOn401 = true, signal, contentType }: Options = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = contentType ?? 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : contentType ? String(body) : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'unreachable', 'The service could not be reached. Check your connection and try again.', null);
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const e = (data ?? {}) as Partial<Record<'type' | 'code' | 'detail' | 'attr', string | null>>;
    const detail = typeof e.detail === 'string' && e.detail ? e.detail : `The service answered ${res.status} ${res.statusText}.`;
    const error = new ApiError(res.status, e.type ?? 'server_error', e.code ?? String(res.status), detail, typeof e.attr === 'string' ? e.attr : null);
    if (res.status === 401 && redirectOn401) unauthorized?.();
    throw error;
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, options?: Options) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: Options) => request<T>('POST', path, body ?? {}, options),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  delete: <T = void>(path: string) => request<T>('DELETE', path),
  /** A text body of its own type (a CSV file), answered with JSON. */
  sendText: <T>(method: 'POST' | 'DELETE', path: string, text: string, contentType: string) => request<T>(method, path, text, { contentType }),
};

/** A query string of the defined, non-empty values. */
export function qs(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
