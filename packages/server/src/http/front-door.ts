import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifySchema } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is answered by its front door handler, which sets the headers, limits and logs by itself. */
    frontDoor?: boolean;
  }
}

/** Answers a request on Node's own request and response; `query` is its query string, `ip` the client's address as the app sees it. */
export type FrontDoorHandler = (request: IncomingMessage, response: ServerResponse, query: string, ip: string) => void;

/**
 * Routes answered on Node's own request and response, before Fastify routes anything: the requests that must cost
 * the least (`POST /flags`). The app's server hands them to `answer`; each also has a Fastify route, which `inject`
 * reaches and the OpenAPI document describes, that hands its requests to the same handler. So there is one
 * implementation of such a route either way: its handler does what the app's hooks do for other routes (security and
 * CORS headers, the failed-auth throttle, the rate limit, the log line), and those hooks leave its requests alone.
 */
export class FrontDoor {
  private readonly handlers = new Map<string, FrontDoorHandler>();

  /** Registers `POST <path>` (a trailing slash or not): `handle` answers it, and a Fastify route with `schema` hands over to it. */
  post(app: FastifyInstance, path: string, schema: FastifySchema, handle: FrontDoorHandler): void {
    this.handlers.set(path, handle);
    app.post(
      path,
      {
        schema,
        config: { rateLimit: false, frontDoor: true },
        // Not continued (`done` never called): the handler answers on the raw request and response.
        onRequest: (request, reply, _done) => {
          void reply.hijack();
          const mark = request.url.indexOf('?');
          handle(request.raw, reply.raw, mark < 0 ? '' : request.url.slice(mark + 1), request.ip);
        },
      },
      () => undefined,
    );
  }

  /** Answers the request when a front door route takes it, and says whether it did; `ip` is asked only then. */
  answer(request: IncomingMessage, response: ServerResponse, ip: (request: IncomingMessage) => string): boolean {
    const url = request.url;
    if (request.method !== 'POST' || !url) return false;
    const mark = url.indexOf('?');
    let path = mark < 0 ? url : url.slice(0, mark);
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const handle = this.handlers.get(path);
    if (!handle) return false;
    handle(request, response, mark < 0 ? '' : url.slice(mark + 1), ip(request));
    return true;
  }
}
