import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { ApiError } from './errors';

/**
 * Request bodies in the content codings of HTTP (`Content-Encoding`), read the same way on every route that takes
 * one: each coding undone as the bytes arrive, the limit counting the decoded bytes as they come out, and reading
 * stopped (the decoders freed) as soon as it is passed, so a small body that inflates to gigabytes costs no more than
 * the limit and its decoders' windows (32 KB for gzip and deflate, up to 16 MB for br).
 */

/** A content coding this service reads. `deflate-raw` is not HTTP's, but what a browser's CompressionStream names it. */
export type ContentCoding = 'gzip' | 'deflate' | 'deflate-raw' | 'br';

/** Bytes as they arrive: a request's body, or a body already in memory. */
export type Chunks = AsyncIterable<Buffer> | Iterable<Buffer>;

export const badBody = (detail: string) => new ApiError(400, 'invalid_request', 'parse_error', detail);
export const tooLarge = () => new ApiError(413, 'invalid_request', 'request_too_large', 'Request body is too large.');

/** Each name `Content-Encoding` may give, and its coding (null: none; `x-gzip` is gzip, RFC 9110 §8.4.1.3). */
const NAMES = new Map<string, ContentCoding | null>([
  ['gzip', 'gzip'],
  ['x-gzip', 'gzip'],
  ['deflate', 'deflate'],
  ['deflate-raw', 'deflate-raw'],
  ['br', 'br'],
  ['identity', null],
]);
/** Codings one body may list: each costs a decoder, and no client compresses more than twice. */
const MAX_CODINGS = 2;
export const NO_CODINGS: readonly ContentCoding[] = [];

/**
 * The codings of a `Content-Encoding` header, in the order they were applied; 415 `unsupported_encoding` for a coding
 * this service does not read, or a list longer than two.
 */
export function contentCodings(header: string | string[] | undefined): readonly ContentCoding[] {
  if (header === undefined || header === '') return NO_CODINGS;
  const codings: ContentCoding[] = [];
  for (const name of String(header).split(',')) {
    const token = name.trim().toLowerCase();
    if (token === '') continue;
    const coding = NAMES.get(token);
    if (coding === undefined || (coding && codings.length === MAX_CODINGS)) {
      throw new ApiError(
        415,
        'invalid_request',
        'unsupported_encoding',
        `Content-Encoding "${String(header)}" is not supported: send gzip, deflate, deflate-raw or br (at most two, in the order applied), or none.`,
      );
    }
    if (coding) codings.push(coding);
  }
  return codings;
}

/** A zlib header (RFC 1950): compression method 8, a window of at most 32 KB, and a check that divides by 31. */
const isZlibHeader = (head: Buffer) => head.length >= 2 && (head[0]! & 0x0f) === 8 && head[0]! >> 4 <= 7 && ((head[0]! << 8) | head[1]!) % 31 === 0;

/**
 * HTTP's `deflate` is zlib-wrapped (RFC 9110), yet some clients send raw deflate under that name; they are told apart
 * by the zlib header, as browsers do.
 */
async function* inflateDeflate(source: Chunks): AsyncGenerator<Buffer> {
  const chunks = (async function* () {
    yield* source;
  })();
  let head = Buffer.alloc(0);
  while (head.length < 2) {
    const next = await chunks.next();
    if (next.done) break;
    head = Buffer.concat([head, next.value]);
  }
  const inflater = isZlibHeader(head) ? zlib.createInflate() : zlib.createInflateRaw();
  const all = async function* () {
    yield head;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  };
  // Its failures reach the reading below, through the inflater it destroys.
  pipeline(all, inflater).catch(() => undefined);
  yield* inflater as AsyncIterable<Buffer>;
}

/** The step of a pipeline that undoes `coding`. */
function decoder(coding: ContentCoding) {
  if (coding === 'gzip') return zlib.createGunzip();
  if (coding === 'br') return zlib.createBrotliDecompress();
  if (coding === 'deflate-raw') return zlib.createInflateRaw();
  return inflateDeflate;
}

/** `source`, where whatever fails that is not already an answer is `invalid`: the decoders found the body was not theirs. */
async function* failingAs(source: AsyncIterable<Buffer>, invalid: () => ApiError): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of source) yield chunk;
  } catch (error) {
    throw error instanceof ApiError ? error : invalid();
  }
}

/**
 * `read` given `source` with `codings` undone as it arrives (the last applied undone first); 400 when the body is not
 * what its codings say. What `read` throws (413 at its limit, say) is thrown at once: the pipeline settles only once
 * its source yields again or ends, and a client that sent all it had may send nothing more (its connection's end
 * settles it then). Once `read` stops, the decoders are destroyed, whatever is left of the body undecoded.
 */
export async function decoded<T>(source: Chunks, codings: readonly ContentCoding[], read: (bytes: Chunks) => Promise<T>): Promise<T> {
  if (!codings.length) return read(source);
  const invalid = () => badBody(`Body is not valid ${codings.join(', ')}.`);
  let result!: T;
  let own: unknown;
  let refuse!: (error: unknown) => void;
  const refused = new Promise<never>((_, reject) => (refuse = reject));
  const steps = [...codings].reverse().map(decoder);
  const reading = async (bytes: AsyncIterable<Buffer>) => {
    try {
      result = await read(failingAs(bytes, invalid));
    } catch (error) {
      own = error;
      refuse(error);
      throw error;
    }
  };
  const piping = (pipeline as (...streams: unknown[]) => Promise<void>)(source, ...steps, reading);
  piping.catch(() => undefined); // once refused, what it settles with later is no one's
  try {
    await Promise.race([piping, refused]);
  } catch (error) {
    if (error instanceof ApiError || error === own) throw error;
    throw invalid();
  }
  return result;
}

/**
 * The chunks of `source` in one Buffer; 413 past `maxBytes`. `grown`, when given, runs after each chunk with the chunks
 * held and their length before and after it (a reader's checks as the body grows).
 */
export async function collect(source: Chunks, maxBytes: number, grown?: (chunks: Buffer[], before: number, length: number) => Promise<void>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of source) {
    const before = length;
    length += chunk.length;
    if (length > maxBytes) throw tooLarge();
    chunks.push(chunk);
    if (grown) await grown(chunks, before, length);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
}

/** `source` (a request's bytes) counted against the limit as sent; 400 when the client breaks off. */
export async function* wire(source: Chunks, maxBytes: number): AsyncGenerator<Buffer> {
  let length = 0;
  try {
    for await (const chunk of source) {
      length += chunk.length;
      if (length > maxBytes) throw tooLarge();
      yield chunk;
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw badBody('The request body could not be read.');
  }
}

/**
 * A request's whole body with its content codings undone: 415 for a coding not read here (before a byte is read), 413
 * once the body, as sent or as decoded, passes `maxBytes`, 400 when it is not what its codings say or the client
 * breaks off.
 */
export async function readBody(payload: Readable, headers: IncomingHttpHeaders, maxBytes: number): Promise<Buffer> {
  const codings = contentCodings(headers['content-encoding']);
  if (Number(headers['content-length']) > maxBytes) throw tooLarge();
  return decoded(wire(payload.iterator({ destroyOnReturn: false }), maxBytes), codings, (bytes) => collect(bytes, maxBytes));
}
