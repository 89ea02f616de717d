import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { serverVersion } from '../version';
import { literalAddressProblem, publicOnlyLookup } from './target';

/** `webhook-signature` of the Standard Webhooks scheme: `v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export const USER_AGENT = `flagstation-webhooks/${serverVersion}`;

/** What one attempt gave: a status code, or no response and why. */
export type AttemptResult = { status: number; error: string | null } | { status: null; error: string };

/** Bytes of a response body read at most (kept in `last_error` when the status is not 2xx). */
const MAX_BODY_BYTES = 1024;

/**
 * POSTs one delivery, signed, to `url`: no redirect is followed, only public addresses are connected to unless
 * `allowPrivate`, at most `timeoutMs` in all (connection and response headers), at most 1 KB of the body read.
 * Never throws; `signal` aborts it (the service is stopping).
 */
export function sendDelivery(
  target: { url: string; secret: string },
  delivery: { id: string; payload: string },
  opts: { allowPrivate: boolean; timeoutMs: number; signal: AbortSignal },
): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      return resolve({ status: null, error: 'invalid URL' });
    }
    const refused = opts.allowPrivate ? undefined : literalAddressProblem(url);
    if (refused) return resolve({ status: null, error: `refused: ${refused}` });
    const timestamp = Math.floor(Date.now() / 1000);
    const body = Buffer.from(delivery.payload);
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', abort);
      request.destroy();
      resolve(result);
    };
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      agent: false,
      ...(opts.allowPrivate ? {} : { lookup: publicOnlyLookup }),
      headers: {
        'content-type': 'application/json',
        'content-length': body.length,
        'user-agent': USER_AGENT,
        'webhook-id': delivery.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(target.secret, delivery.id, timestamp, delivery.payload),
      },
    });
    const timer = setTimeout(() => finish({ status: null, error: `timed out after ${opts.timeoutMs} ms` }), opts.timeoutMs);
    const abort = () => finish({ status: null, error: 'the service stopped during the attempt' });
    opts.signal.addEventListener('abort', abort);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const refusedAddress = error.code === 'ERR_WEBHOOK_ADDRESS_REFUSED';
      finish({ status: null, error: refusedAddress ? `refused: ${error.message}` : error.code ? `${error.code}: ${error.message}` : error.message });
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) return finish({ status, error: null });
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => finish({ status, error: `HTTP ${status}${size ? `: ${Buffer.concat(chunks).toString('utf8').slice(0, MAX_BODY_BYTES)}` : ''}` });
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_BODY_BYTES) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    if (opts.signal.aborted) return abort();
    request.end(body);
  });
}
