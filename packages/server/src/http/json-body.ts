import type { FastifyInstance } from 'fastify';
import { deepJsonError } from '../json';

/** The REST API's JSON parser: Fastify's own (which refuses `__proto__` and `constructor.prototype`), then the depth limit. */
export function restJsonParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    parse(request, body as string, (error, value) => {
      const refused = error ?? deepJsonError(value);
      if (refused) done(refused, undefined);
      else done(null, value);
    }),
  );
}
