// npm run bench -- ofrep: OpenFeature's remote evaluation protocol beside `POST /flags`, in the same run against the
// same service: the bulk evaluation client providers make (every flag for a context), its 304, and the
// single-flag evaluation server providers make per call. The service holds the 50 flags and 10k persons of the flags
// benchmark.
import os from 'node:os';
import { seed } from './flags-seed.mjs';
import { load, machine, record, startService } from './lib.mjs';

const COMMAND = 'npm run bench -- ofrep';
const ROUNDS = 3;
const SECONDS = 8;
const WARMUP = 3;
const CONNECTIONS = 32;
const IDS = 1000;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function main() {
  const startLoad = os.loadavg()[0].toFixed(1);
  const service = await startService({ WORKERS: '1' });
  try {
    await seed(service);
    const json = { 'content-type': 'application/json' };
    const auth = { ...json, authorization: `Bearer ${service.token}` };
    const ids = Array.from({ length: IDS }, (_, i) => `user-${i * 10}`);
    const flagsBodies = ids.map((id) => JSON.stringify({ token: service.token, distinct_id: id }));
    const ofrepBodies = ids.map((id) => JSON.stringify({ context: { targetingKey: id } }));
    const flagsAnswer = await (await fetch(`${service.url}/flags/?v=2`, { method: 'POST', headers: json, body: flagsBodies[0] })).text();
    const bulk = await fetch(`${service.url}/ofrep/v1/evaluate/flags`, { method: 'POST', headers: auth, body: ofrepBodies[0] });
    const bulkAnswer = await bulk.text();
    if (bulk.status !== 200) throw new Error(`OFREP bulk: ${bulk.status} ${bulkAnswer}`);
    const etag = bulk.headers.get('etag');
    const { flags } = JSON.parse(bulkAnswer);
    const oneKey = flags[0].key;
    const targets = {
      flags: {
        label: '`POST /flags?v=2` (all 50 flags)',
        requests: flagsBodies.map((body) => ({ method: 'POST', path: '/flags/?v=2', headers: json, body })),
      },
      bulk: {
        label: '`POST /ofrep/v1/evaluate/flags` (all 50 flags, ETag)',
        requests: ofrepBodies.map((body) => ({ method: 'POST', path: '/ofrep/v1/evaluate/flags', headers: auth, body })),
      },
      notModified: {
        label: '`POST /ofrep/v1/evaluate/flags` with `If-None-Match` (304)',
        requests: [{ method: 'POST', path: '/ofrep/v1/evaluate/flags', headers: { ...auth, 'if-none-match': etag }, body: ofrepBodies[0] }],
      },
      single: {
        label: `\`POST /ofrep/v1/evaluate/flags/${oneKey}\` (one flag; the first call of each id records its exposure)`,
        requests: ofrepBodies.map((body) => ({ method: 'POST', path: `/ofrep/v1/evaluate/flags/${oneKey}`, headers: auth, body })),
      },
    };
    const rounds = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
    for (const target of Object.values(targets)) await load({ url: service.url, requests: target.requests, connections: CONNECTIONS, duration: WARMUP });
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, target] of Object.entries(targets)) {
        const result = await load({ url: service.url, requests: target.requests, connections: CONNECTIONS, duration: SECONDS });
        const expected304 = name === 'notModified';
        if (result.errors || result.timeouts || (expected304 ? result.non2xx !== result.total : result.non2xx)) {
          throw new Error(`${name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx of ${result.total}`);
        }
        rounds[name].push(result);
        console.log(JSON.stringify({ round, name, ...result }));
      }
    }
    const fmt = (n) => Math.round(n).toLocaleString('en-US');
    const summary = (name) => {
      const results = rounds[name];
      return {
        rps: median(results.map((r) => r.rps)),
        p50: median(results.map((r) => r.p50)),
        p99: median(results.map((r) => r.p99)),
        all: results.map((r) => r.rps),
      };
    };
    const base = summary('flags');
    const rows = Object.entries(targets).map(([name, target]) => {
      const s = summary(name);
      return `| ${target.label} | **${fmt(s.rps)}** (${s.all.map(fmt).join(', ')}) | ${(s.rps / base.rps).toFixed(2)}× | ${s.p50} | ${s.p99} |`;
    });
    record(
      'OFREP beside /flags (issue 35)',
      `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 16)}Z, ${machine()}, load average ${startLoad} at start, ${os.loadavg()[0].toFixed(1)} at the end).
Service (its build, \`service start\`, SQLite, \`WORKERS=1\`, \`LOG_LEVEL=warn\`) in its own process, with the 50 flags and 10k persons of the
flags benchmark. autocannon (in the benchmark's process, ${CONNECTIONS} connections) against each target in turn: a ${WARMUP} s warm-up each,
then ${ROUNDS} rounds of ${SECONDS} s, alternating; medians below (each round's requests/s in brackets). Bodies: the next of ${fmt(IDS)} distinct
ids of the 10k persons (\`/flags\` answer: ${fmt(Buffer.byteLength(flagsAnswer))} bytes; OFREP bulk answer: ${fmt(Buffer.byteLength(bulkAnswer))} bytes).

| target | requests/s | beside /flags | p50 ms | p99 ms |
| --- | ---: | ---: | ---: | ---: |
${rows.join('\n')}

\`/flags\` is answered at the front door on Node's own request, from JSON fragments built once per compiled flag; OFREP goes
through Fastify (its hooks, the JSON parser, the schema) and maps each engine result to OFREP's object, then hashes the
answer for its ETag. The single-flag target's ids were all seen in the warm-up, so its exposures are already recorded
(an exposure is stored after the answer, once per person, flag and answer). The machine is shared (2 cores, the
benchmark's client on the same machine): compare the rows of one run.`,
    );
  } finally {
    await service.stop();
  }
}
