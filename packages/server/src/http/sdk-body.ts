import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NO_CODINGS, badBody, collect as collectBytes, contentCodings, decoded, tooLarge, wire, type Chunks, type ContentCoding } from './content-encoding';
import { ApiError } from './errors';
import { parseJsonBytes } from './sliced-json';

/** A body counts as large once this many bytes of it are held (read, or inflated): it then needs a slot. */
export const LARGE_BODY_BYTES = 1024 * 1024;
/** How long a large body waits for a slot before the request is answered 503. */
const LARGE_BODY_WAIT_MS = 1000;
/** How much of the decoded body is read before its leading token is checked. */
const PEEK_BYTES = 256;
/** How long no large body must be in hand before the garbage they left is collected. */
const IDLE_COLLECT_MS = 1000;

const busy = () =>
  new ApiError(503, 'server_error', 'overloaded', 'The service is busy reading other large request bodies. Retry in a moment.', null, { 'retry-after': '1' });
const isGzip = (b: Buffer) => b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;
const GZIP: readonly ContentCoding[] = ['gzip'];
/** `compression` values (in the query, or a form's field) that say the body is gzip, as posthog-js names it. */
const namesGzip = (compression: string) => compression === 'gzip' || compression === 'gzip-js';

let gc: (() => void) | undefined;
/**
 * A full garbage collection. V8 collects only as JavaScript allocates, so the copies the last large bodies left
 * behind (tens of MB each) would stay resident while the service idles. `gc` is had as jest's leak detector has it.
 */
function collectGarbage() {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}

/**
 * At most `max` large SDK bodies are decoded, and their requests handled, at once; one instance per app.
 * Once none has been in hand for a second, their garbage is collected.
 */
export class LargeBodySlots {
  private used = 0;
  private readonly waiting: Array<() => void> = [];
  private collecting: NodeJS.Timeout | undefined;

  constructor(
    private readonly max: number,
    private readonly waitMs = LARGE_BODY_WAIT_MS,
  ) {}

  /** Resolves with the function that frees the slot; 503 `overloaded` when none frees up in time. */
  async take(): Promise<() => void> {
    if (this.used < this.max) this.used++;
    else {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(wake), 1);
          reject(busy());
        }, this.waitMs);
        this.waiting.push(wake);
      });
    }
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      const next = this.waiting.shift();
      if (next)
        next(); // the slot passes straight on
      else if (--this.used === 0) this.collectWhenIdle();
    };
  }

  private collectWhenIdle() {
    this.collecting ??= setTimeout(() => {
      this.collecting = undefined;
      if (this.used === 0) collectGarbage();
    }, IDLE_COLLECT_MS).unref();
  }
}

/** A request's claim on a slot: taken at most once, once its body turns out large; freed when its response is done. */
class Lease {
  private taking: Promise<void> | undefined;
  private release: (() => void) | undefined;
  private done = false;

  constructor(private readonly slots: LargeBodySlots) {}

  take(): Promise<void> {
    this.taking ??= this.slots.take().then((release) => {
      if (this.done) release();
      else this.release = release;
    });
    return this.taking;
  }

  free = () => {
    this.done = true;
    this.release?.();
  };
}

export interface SdkBodyOptions {
  /** Largest body, on the wire and decoded, in bytes. */
  maxBytes: number;
  largeBodies: LargeBodySlots;
  /** The body field that names the project when it comes first: `api_key` (capture) or `token` (/flags). */
  tokenField: 'api_key' | 'token';
  /** Rejects (401) an unknown project token. */
  checkToken: (token: string) => Promise<unknown>;
}

/** What reading an SDK body needs of its request: headers, query, and the response that ends its lease. */
export interface BodyRequest {
  headers: IncomingHttpHeaders;
  query: Record<string, unknown>;
  response: ServerResponse;
}

/** What reading one request's body may cost; its lease is made when a body turns out large. */
interface Reading extends SdkBodyOptions {
  request: BodyRequest;
}

const leases = new WeakMap<BodyRequest, Lease>();

/** The request's lease, made on first use and freed when its response is done (at once if it already is). */
function leaseOf(request: BodyRequest, slots: LargeBodySlots): Lease {
  let lease = leases.get(request);
  if (lease) return lease;
  lease = new Lease(slots);
  leases.set(request, lease);
  if (request.response.closed) lease.free();
  else request.response.once('close', lease.free);
  return lease;
}

function fromBase64(text: string): Buffer {
  const clean = text.trim().replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) throw badBody('Body is neither JSON nor base64.');
  return Buffer.from(clean, 'base64');
}

/**
 * The chunks of `source` in one Buffer: 413 past `maxBytes`, a large-body slot once past LARGE_BODY_BYTES
 * (waiting for it pauses the source), and, when `peek`, the leading project token checked early on.
 */
function collect(source: Chunks, reading: Reading, peek: boolean): Promise<Buffer> {
  return collectBytes(source, reading.maxBytes, async (chunks, before, length) => {
    if (peek && before < PEEK_BYTES && length >= PEEK_BYTES) await checkLeadingToken(Buffer.concat(chunks).subarray(0, PEEK_BYTES), reading);
    if (length > LARGE_BODY_BYTES) await leaseOf(reading.request, reading.largeBodies).take();
  });
}

/** The leading `"api_key"` / `"token"` field of a body, by field name. */
const LEADING_TOKEN = {
  api_key: /^\s*\{\s*"api_key"\s*:\s*"([^"\\]+)"/,
  token: /^\s*\{\s*"token"\s*:\s*"([^"\\]+)"/,
};

/** SDKs put the token first (`{"api_key": …, "batch": …}`), so an unknown one is refused before the rest is read. */
async function checkLeadingToken(head: Buffer, reading: SdkBodyOptions) {
  const token = LEADING_TOKEN[reading.tokenField].exec(head.toString('latin1'))?.[1];
  if (token) await reading.checkToken(Buffer.from(token, 'latin1').toString('utf8'));
}

/**
 * `source` with `codings` undone as it arrives, collected under the limits. A brotli decoder may hold its whole window
 * (up to 16 MB) however small the body, so such a body takes a large-body slot first.
 */
async function inflate(source: Chunks, codings: readonly ContentCoding[], reading: Reading): Promise<Buffer> {
  if (codings.includes('br')) await leaseOf(reading.request, reading.largeBodies).take();
  return decoded(source, codings, (bytes) => collect(bytes, reading, true));
}

/**
 * What to undo of a body sent as is (not a form, not base64): its `Content-Encoding`, and gzip when the query names it
 * (`?compression=gzip-js`: posthog-js) unless the header said gzip too.
 */
const codingsOf = (transport: readonly ContentCoding[], compression: string) =>
  namesGzip(compression) && !transport.includes('gzip') ? [...GZIP, ...transport] : transport;

async function parseJson(bytes: Buffer): Promise<unknown> {
  try {
    return await parseJsonBytes(bytes);
  } catch {
    // posthog-js may send base64 text without saying so
    try {
      return await parseJsonBytes(fromBase64(bytes.toString('utf8')));
    } catch {
      throw badBody('Body is not valid JSON.');
    }
  }
}

/**
 * Decodes an SDK body the way PostHog's SDKs send them: JSON; in the codings its `Content-Encoding` names (`transport`);
 * gzip by `?compression=gzip|gzip-js` or by its magic bytes; `data=<base64>` forms; base64 text; and the `text/plain`
 * bodies of sendBeacon. Codings are undone as the bytes arrive; `maxBytes` bounds the wire and the decoded size; a
 * large body waits for one of the app's large-body slots. Undefined for an empty body.
 */
async function decode(source: Chunks, reading: Reading, transport: readonly ContentCoding[]): Promise<unknown> {
  const { request } = reading;
  const query = request.query as Record<string, string | undefined>;
  let compression = String(query.compression ?? '').toLowerCase();
  const form = (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  // Read the first bytes (an empty body is none; gzip is told by its magic), then stream the rest.
  const iterator = wire(source, reading.maxBytes);
  let head: Buffer = Buffer.alloc(0);
  while (head.length < 3) {
    const next = await iterator.next();
    if (next.done) break;
    head = head.length ? Buffer.concat([head, next.value]) : next.value;
  }
  if (!head.length) return undefined;
  const whole = (async function* () {
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
  if (form || compression === 'base64' || compression === 'b64') {
    // Encoded whole: read it all, then decode (and inflate) what it holds.
    const raw = await decoded(whole, transport, (bytes) => collect(bytes, reading, false));
    if (!raw.length) return undefined;
    let bytes = raw;
    if (form) {
      const fields = new URLSearchParams(raw.toString('latin1'));
      const data = fields.get('data');
      compression = (fields.get('compression') ?? compression).toLowerCase();
      if (data === null) throw badBody('Form body has no data field.');
      bytes = Buffer.from(data, 'latin1');
      if (!isGzip(bytes) && !data.trimStart().startsWith('{') && !data.trimStart().startsWith('[')) bytes = fromBase64(data);
    } else {
      bytes = fromBase64(raw.toString('latin1'));
    }
    return parseJson(namesGzip(compression) || isGzip(bytes) ? await inflate([bytes], GZIP, reading) : bytes);
  }
  const codings = codingsOf(transport, compression);
  if (codings.length || isGzip(head)) return parseJson(await inflate(whole, codings.length ? codings : GZIP, reading));
  return parseJson(await collect(whole, reading, true));
}

/** Decodes an SDK body already in memory (a capture `?data=` query), under the same limits as a request body. */
export function decodeSdkBody(request: FastifyRequest, raw: Buffer, options: SdkBodyOptions): Promise<unknown> {
  return decode([raw], { ...options, request: bodyRequestOf(request) }, NO_CODINGS);
}

/** Bodies of a declared length up to this are read whole, then decoded (most `/flags` and `/e/` bodies). */
const SMALL_BODY_BYTES = 64 * 1024;

/**
 * The whole body of a request of a declared small length, read with stream events (no async iterators: the hot path
 * of `/flags` reads thousands a second); 400 when the client breaks off.
 */
function readSmall(payload: IncomingMessage): Promise<Buffer> {
  // Listeners stay on: after 'end' an 'error' or 'close' finds the promise settled. Unnamed, so that nothing renames
  // them per request.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let ended = false;
    payload.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
    });
    payload.on('end', () => {
      ended = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length));
    });
    payload.on('error', () => reject(badBody('The request body could not be read.')));
    // Closed before its end: the client broke off.
    payload.on('close', () => ended || reject(badBody('The request body could not be read.')));
  });
}

/**
 * `decode` for a body of a declared length within SMALL_BODY_BYTES (and `maxBytes`, checked before parsing) that is
 * neither a form nor base64 by the query: read whole, then JSON as `decode` reads it (its codings by header, query or
 * magic bytes; the leading token checked first once there are PEEK_BYTES). The same answers, without streaming.
 */
async function decodeSmall(payload: IncomingMessage, reading: Reading, transport: readonly ContentCoding[]): Promise<unknown> {
  const bytes = await readSmall(payload);
  if (!bytes.length) return undefined;
  const codings = codingsOf(transport, String(reading.request.query.compression ?? '').toLowerCase());
  if (codings.length || isGzip(bytes)) return parseJson(await inflate([bytes], codings.length ? codings : GZIP, reading));
  if (bytes.length >= PEEK_BYTES) await checkLeadingToken(bytes.subarray(0, PEEK_BYTES), reading);
  return parseJson(bytes);
}

/** True when `decodeSmall` reads this request's body. */
function isSmall(request: BodyRequest, maxBytes: number): boolean {
  const declared = Number(request.headers['content-length']);
  if (!(declared <= SMALL_BODY_BYTES && declared <= maxBytes)) return false;
  if ((request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return false;
  const compression = (request.query as Record<string, unknown>).compression;
  return compression === undefined || !['base64', 'b64'].includes(String(compression).toLowerCase());
}

/**
 * What is checked of an SDK request before its body is read: a project token in the query (401 when unknown), a
 * declared length over `maxBytes` (413), and a slot for a declared large body (503 after a moment). Undefined when
 * there is nothing to wait for (most requests).
 */
export function checkBeforeBody(request: BodyRequest, options: SdkBodyOptions): Promise<void> | undefined {
  const declared = Number(request.headers['content-length'] ?? NaN);
  const { token, api_key: apiKey } = request.query;
  const queryToken = typeof token === 'string' && token !== '' ? token : typeof apiKey === 'string' && apiKey !== '' ? apiKey : undefined;
  if (!queryToken && !(declared > options.maxBytes) && !(declared > LARGE_BODY_BYTES)) return undefined;
  return (async () => {
    if (queryToken) await options.checkToken(queryToken);
    if (declared > options.maxBytes) throw tooLarge();
    if (declared > LARGE_BODY_BYTES) await leaseOf(request, options.largeBodies).take();
  })();
}

/** Whether a request whose `checkBeforeBody` failed should close its connection: its body was not (and will not be) read. */
export const bodyLeftUnread = (request: BodyRequest, options: SdkBodyOptions) => !(Number(request.headers['content-length'] ?? NaN) <= options.maxBytes);

/**
 * Reads and decodes an SDK body, the way PostHog's SDKs send them (see `decode`); a body of a declared small length
 * is read whole, without streaming. 415 before a byte is read for a `Content-Encoding` not read here. Undefined for an
 * empty body.
 */
export async function readSdkBody(payload: IncomingMessage, request: BodyRequest, options: SdkBodyOptions): Promise<unknown> {
  const reading = { ...options, request };
  const transport = contentCodings(request.headers['content-encoding']);
  return isSmall(request, options.maxBytes)
    ? decodeSmall(payload, reading, transport)
    : decode(payload.iterator({ destroyOnReturn: false }), reading, transport);
}

/** The body request of a Fastify request in an SDK scope (made by the `preParsing` hook of `sdkBodyParsers`). */
const bodyRequests = new WeakMap<FastifyRequest, BodyRequest>();
function bodyRequestOf(request: FastifyRequest): BodyRequest {
  const found = bodyRequests.get(request);
  if (!found) throw new Error('SDK bodies are read only in a scope set up by sdkBodyParsers');
  return found;
}

/**
 * Sets up, in the caller's scope only, the reading of SDK bodies: `checkBeforeBody`, then any body decoded into JSON
 * as it arrives (`readSdkBody`).
 */
export function sdkBodyParsers(app: FastifyInstance, options: SdkBodyOptions) {
  // A callback hook: it runs for every SDK request, and most have nothing to wait for.
  app.addHook('preParsing', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    const body: BodyRequest = { headers: request.headers, query: request.query as Record<string, unknown>, response: reply.raw };
    bodyRequests.set(request, body);
    if (request.method !== 'POST') return done(null, payload);
    const checking = checkBeforeBody(body, options);
    if (!checking) return done(null, payload);
    checking.then(
      () => done(null, payload),
      (error: Error) => {
        // A body of a known, acceptable length is drained so the client reads the answer; any other, the connection closes.
        if (bodyLeftUnread(body, options)) void reply.header('connection', 'close');
        done(error);
      },
    );
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', async (request: FastifyRequest, payload: IncomingMessage) => readSdkBody(payload, bodyRequestOf(request), options));
}
