import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors';

const gunzip = promisify(zlib.gunzip);

const badBody = (detail: string) => new ApiError(400, 'invalid_request', 'parse_error', detail);
const tooLarge = () => new ApiError(413, 'invalid_request', 'request_too_large', 'Request body is too large.');
const isGzip = (b: Buffer) => b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;

function fromBase64(text: string): Buffer {
  const clean = text.trim().replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) throw badBody('Body is neither JSON nor base64.');
  return Buffer.from(clean, 'base64');
}

/**
 * Decodes an SDK body the way PostHog's SDKs send them: JSON; gzip (by Content-Encoding, by
 * `?compression=gzip|gzip-js`, or by its magic bytes); `data=<base64>` forms; base64 text; and the
 * `text/plain` bodies of sendBeacon. `maxBytes` bounds the decompressed size too.
 */
export async function decodeSdkBody(request: FastifyRequest, raw: Buffer, maxBytes: number): Promise<unknown> {
  const query = request.query as Record<string, string | undefined>;
  let compression = String(query.compression ?? '').toLowerCase();
  let bytes = raw;
  if ((request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(raw.toString('latin1'));
    const data = form.get('data');
    compression = (form.get('compression') ?? compression).toLowerCase();
    if (data === null) throw badBody('Form body has no data field.');
    bytes = Buffer.from(data, 'latin1');
    if (!isGzip(bytes) && !data.trimStart().startsWith('{') && !data.trimStart().startsWith('[')) bytes = fromBase64(data);
  } else if (compression === 'base64' || compression === 'b64') {
    bytes = fromBase64(raw.toString('latin1'));
  }
  const gzipped = request.headers['content-encoding'] === 'gzip' || compression === 'gzip' || compression === 'gzip-js' || isGzip(bytes);
  if (gzipped) {
    try {
      bytes = await gunzip(bytes, { maxOutputLength: maxBytes });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
      throw badBody('Body is not valid gzip.');
    }
  }
  const text = bytes.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    // posthog-js may send base64 text without saying so
    try {
      return JSON.parse(fromBase64(text).toString('utf8'));
    } catch {
      throw badBody('Body is not valid JSON.');
    }
  }
}

/** Registers, in the caller's scope only, parsers that read any SDK body into JSON. */
export function sdkBodyParsers(app: FastifyInstance, maxBytes: number) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBytes }, async (request: FastifyRequest, body: Buffer) =>
    body.length ? decodeSdkBody(request, body, maxBytes) : undefined,
  );
}
