import { move } from 'piscina';
import secureJson from 'secure-json-parse';
import { deepJsonError } from '../../json';
import { decodeSourceMap, type SourceMapLimits } from './decode';
import { readFunctionScopes } from './function-scopes';

/**
 * The tasks of the source map worker thread (pool.ts runs them by name). In the build this file is an entry of its own
 * (`dist/sourcemap-worker.js`, tsup.config.ts); from the sources, esbuild bundles it (pool.ts).
 */

const utf8 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

/** Decodes a map (its JSON text or that text's UTF-8 bytes): its packed form, moved to the calling thread (not copied), or why it is refused. */
export function decode({ map, limits }: { map: string | Uint8Array; limits: SourceMapLimits }) {
  const decoded = decodeSourceMap(typeof map === 'string' ? map : utf8(map), limits);
  return 'packed' in decoded ? move(decoded.packed) : decoded;
}

/** Reads the functions of a minified file (its text): their packed form, moved to the calling thread, or why it is refused. */
export function scopes(source: string) {
  const read = readFunctionScopes(source);
  return 'packed' in read ? move(read.packed) : read;
}

/** Why a JSON body was refused: not JSON (`empty`, `invalid`, as Fastify's parser says), or too deep (`ValidationError`'s fields). */
export type BodyError = 'empty' | 'invalid' | { detail: string; attr: string | null; code: string };

/**
 * Parses a JSON request body (UTF-8) as the REST API's parser does (`http/json-body.ts`): Fastify's (secure-json-parse,
 * refusing `__proto__` and `constructor.prototype`), then the depth limit.
 */
export function parseBody(bytes: Uint8Array): { value: unknown } | { error: BodyError } {
  if (bytes.byteLength === 0) return { error: 'empty' };
  let value: unknown;
  try {
    value = secureJson.parse(utf8(bytes), undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    return { error: 'invalid' };
  }
  const deep = deepJsonError(value);
  return deep ? { error: { detail: deep.detail, attr: deep.attr, code: deep.code } } : { value };
}
