// A `text/event-stream` response read as text, for tests and benchmarks of `/flags/stream`. Types in event-stream.d.mts.
/* global Headers -- Node's, like fetch */
import http from 'node:http';

/**
 * Opens `url` with these headers (node:http, one connection of its own: aborting a fetch left undici opening another,
 * idle one) and reads what it sends into `text` as it arrives. `closed` settles when the server ends the stream (or
 * `close()` cuts it); `waitFor(pattern)` resolves with the text once it matches (or rejects when the stream ends
 * first or `ms` pass).
 */
export function openEventStream(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent: false });
    request.once('error', reject);
    request.once('response', (response) => {
      let ended;
      const stream = {
        status: response.statusCode ?? 0,
        headers: new Headers(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')])),
        text: '',
        ended: false,
        closed: new Promise((done) => (ended = done)),
        /** Resolves with the whole text once `pattern` matches it. */
        async waitFor(pattern, ms = 10_000) {
          for (const until = Date.now() + ms; !pattern.test(stream.text); await new Promise((done) => setTimeout(done, 10))) {
            if (stream.ended || Date.now() > until) {
              throw new Error(`the stream ${stream.ended ? 'ended' : `sent nothing matching ${pattern} in ${ms} ms`}; it sent: ${JSON.stringify(stream.text)}`);
            }
          }
          return stream.text;
        },
        close() {
          request.destroy();
          return stream.closed;
        },
      };
      response.setEncoding('utf8');
      response.on('data', (chunk) => (stream.text += chunk));
      response.once('close', () => {
        stream.ended = true;
        ended();
      });
      // A cut connection ends the stream as `close` says; it is no failure here.
      response.on('error', () => undefined);
      request.removeListener('error', reject);
      request.on('error', () => undefined);
      if (stream.status === 200) resolve(stream);
      else response.once('end', () => resolve(stream));
    });
  });
}
