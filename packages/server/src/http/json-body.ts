import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { deepJsonError } from '../json';
import { readBody } from './content-encoding';

/**
 * The REST API's JSON parser: the body read under the route's limit with its content codings undone (`readBody`), then
 * Fastify's own parser (which refuses `__proto__` and `constructor.prototype`), then the depth limit.
 */
export function restJsonParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', async (request: FastifyRequest, payload: IncomingMessage) => {
    const text = (await readBody(payload, request.headers, request.routeOptions.bodyLimit)).toString('utf8');
    return new Promise((resolve, reject) =>
      parse(request, text, (error, value) => {
        const refused = error ?? deepJsonError(value);
        if (refused) reject(refused);
        else resolve(value);
      }),
    );
  });
}
