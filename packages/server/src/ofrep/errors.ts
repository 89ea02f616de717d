import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { logsWithRequest, toApiError } from '../http/error-handler';

/**
 * OFREP's error body. OFREP providers read `errorCode` to tell a missing flag from a bad context, and know nothing of
 * our `{type, code, detail, attr}`: so the OFREP routes, and only they, answer errors in OFREP's shape (statuses and
 * headers, Retry-After included, stay those of every other route).
 */
export const OfrepErrorSchema = Type.Object(
  {
    key: Type.Optional(Type.String()),
    errorCode: Type.String({ description: 'PARSE_ERROR, TARGETING_KEY_MISSING, INVALID_CONTEXT, FLAG_NOT_FOUND or GENERAL' }),
    errorDetails: Type.Optional(Type.String()),
  },
  { title: 'OfrepError', description: "An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`)" },
);

export const OfrepServerErrorSchema = Type.Object({ errorDetails: Type.String() }, { title: 'OfrepServerError' });

const REQUEST_CODES = new Set(['PARSE_ERROR', 'TARGETING_KEY_MISSING', 'INVALID_CONTEXT']);

/** OFREP's error code for an error of ours: FLAG_NOT_FOUND for a 404, the code a 400 was raised with, else GENERAL. */
function errorCodeOf(status: number, code: string, attr: string | null): string {
  if (status === 404) return 'FLAG_NOT_FOUND';
  if (status !== 400) return 'GENERAL';
  if (REQUEST_CODES.has(code)) return code;
  // The schema's refusal of a context that is not an object; else the JSON parser's or the schema's refusal of a body
  // that is not the JSON object OFREP sends.
  return attr?.startsWith('context') ? 'INVALID_CONTEXT' : 'PARSE_ERROR';
}

/** The error handler of the OFREP routes' scope: every error, from any hook or the handler, in OFREP's shape. */
export function ofrepErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const apiError = toApiError(error);
  if (!apiError) {
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ errorDetails: 'A server error occurred.' });
  }
  if (logsWithRequest(apiError, error)) request.log.warn({ err: error }, 'database unavailable');
  const key = (request.params as { key?: string } | undefined)?.key;
  const body = {
    ...(key === undefined ? {} : { key }),
    errorCode: errorCodeOf(apiError.statusCode, apiError.code, apiError.attr),
    errorDetails: apiError.detail,
  };
  return reply.code(apiError.statusCode).headers(apiError.headers).send(body);
}
