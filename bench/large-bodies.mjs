// npm run bench -- large-bodies: the resident memory of a service process while 50 clients at once send a
// ~19 MB gzip body to /batch/ without a project token (issue 10), and after they are answered.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { gzipSync } from 'node:zlib';
import { machine, record, startService } from './lib.mjs';

const COMMAND = 'npm run bench -- large-bodies';
const CLIENTS = 50;
const BLOB_BYTES = 19 * 1024 * 1024;
const SETTLE_MS = 10_000;
/** Measured with this command before the fix (commit fb49b2d: each body buffered whole, then inflated at once). */
const BEFORE = '| before the fix (fb49b2d) | 161 | 3,228 | 2,044 | 50 × 401 (in 38.4 s) |';

const mb = (kb) => Math.round(kb / 1024);
const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The body: a batch holding one event with a 19 MB string, no token, gzip without compression (level 0) so it
 * is as large on the wire as inflated: under the 20 MB limit both ways, the most work a body can ask for.
 */
function body() {
  const json = `{"batch": [{"event": "big", "distinct_id": "bench", "properties": {"blob": "${'a'.repeat(BLOB_BYTES)}"}}]}`;
  return gzipSync(json, { level: 0 });
}

/** One POST; resolves with the status (or the network error's code) and the Retry-After header. */
function send(url, payload) {
  return new Promise((resolve) => {
    const request = http.request(`${url}/batch/`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'text/plain', 'content-length': payload.length },
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve({ status: String(response.statusCode), retryAfter: response.headers['retry-after'] }));
    });
    request.on('error', (error) => resolve({ status: error.code ?? 'error' }));
    request.end(payload);
  });
}

export async function main() {
  const load = os.loadavg()[0];
  const payload = body();
  const service = await startService();
  const pid = service.child.pid;
  try {
    // one small request so idle is measured with everything loaded
    await send(service.url, gzipSync(JSON.stringify({ api_key: service.token, batch: [{ event: 'warm-up', distinct_id: 'bench' }] })));
    await sleep(2000);
    const idle = rssKb(pid);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssKb(pid))), 20);
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: CLIENTS }, () => send(service.url, payload)));
    const seconds = (Date.now() - started) / 1000;
    await sleep(SETTLE_MS);
    clearInterval(sampler);
    const after = rssKb(pid);
    const counts = {};
    for (const { status, retryAfter } of answers) {
      const key = status === '503' && retryAfter ? '503 (Retry-After)' : status;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    const statuses = Object.entries(counts)
      .map(([status, n]) => `${n} × ${status}`)
      .join(', ');
    console.log({ idleMb: mb(idle), peakMb: mb(peak), afterMb: mb(after), seconds, statuses });
    record(
      'Memory under 50 concurrent oversized bodies (issue 10)',
      `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${load.toFixed(1)} at start).
A service process (\`service start\`, SQLite) gets ${CLIENTS} concurrent \`POST /batch/\` over loopback, each a
${(payload.length / 2 ** 20).toFixed(1)} MB gzip body (stored deflate blocks, so it inflates to the same size, under the 20 MB
\`CAPTURE_BATCH_BODY_LIMIT_BYTES\`) holding a batch with one 19 MB string and no project token. Resident memory
(VmRSS of the service process): idle after one small request, the peak while the bodies arrive (sampled every 20 ms),
and ${SETTLE_MS / 1000} s after the last answer. Now: \`SDK_MAX_CONCURRENT_LARGE_BODIES\` 4 (default) bodies are decoded at
once, as they arrive; the others wait up to 1 s for a turn, then get 503 with \`Retry-After\`.

| code | idle MB | peak MB | ${SETTLE_MS / 1000} s after MB | answers |
| --- | ---: | ---: | ---: | --- |
${BEFORE}
| now | ${mb(idle)} | ${mb(peak).toLocaleString('en')} | ${mb(after).toLocaleString('en')} | ${statuses} (in ${seconds.toFixed(1)} s) |
`,
    );
  } finally {
    await service.stop();
  }
}
