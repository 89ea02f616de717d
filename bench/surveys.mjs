// npm run bench -- surveys: the public survey list posthog-js reads (`GET /api/surveys/?token=`) beside `POST /flags`,
// in the same run against the same service (issue 32). The service holds the 50 flags and 10k persons of the flags
// benchmark, and surveys: some running (in the list), some drafts (their flags answered by /flags all the same).
import os from 'node:os';
import { seed } from './flags-seed.mjs';
import { load, machine, record, startService } from './lib.mjs';

const COMMAND = 'npm run bench -- surveys';
const RUNNING = 5;
const DRAFTS = 5;
const ROUNDS = 3;
const SECONDS = 8;
const WARMUP = 3;
const CONNECTIONS = 32;

const QUESTIONS = [
  { type: 'rating', question: 'How likely are you to recommend us to a friend?', scale: 10, lowerBoundLabel: 'Unlikely', upperBoundLabel: 'Very likely' },
  { type: 'single_choice', question: 'What do you use most?', choices: ['Flags', 'Experiments', 'Surveys', 'Other'], hasOpenChoice: true },
  { type: 'open', question: 'What should we improve?', optional: true },
];

async function api(service, method, route, body) {
  const res = await fetch(`${service.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${service.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** RUNNING launched surveys and DRAFTS drafts, each with three questions, URL and event conditions, person targeting. */
async function surveys(service) {
  const base = `/api/projects/${service.projectId}/surveys`;
  for (let i = 0; i < RUNNING + DRAFTS; i++) {
    const survey = await api(service, 'POST', `${base}/`, {
      name: `Bench survey ${i}`,
      type: i % 2 ? 'widget' : 'popover',
      questions: QUESTIONS,
      appearance: { position: 'right', backgroundColor: '#ffffff', submitButtonColor: '#1d4aff' },
      conditions: { url: `/app/${i}`, urlMatchType: 'icontains', seenSurveyWaitPeriodInDays: 14, events: { values: [{ name: `opened ${i}` }] } },
      targeting_flag_filters: {
        groups: [{ properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro', 'team'] }], rollout_percentage: 50 }],
      },
    });
    if (i < RUNNING) await api(service, 'POST', `${base}/${survey.id}/launch/`);
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function main() {
  const startLoad = os.loadavg()[0].toFixed(1);
  const service = await startService({ WORKERS: '1' });
  try {
    await seed(service);
    await surveys(service);
    const list = await fetch(`${service.url}/api/surveys/?token=${service.token}`);
    const listBody = await list.text();
    const etag = list.headers.get('etag');
    const listed = JSON.parse(listBody).surveys.length;
    if (listed !== RUNNING) throw new Error(`${listed} surveys listed, expected ${RUNNING}`);
    const flagsBodies = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ token: service.token, distinct_id: `user-${i * 10}` }));
    const flagsAnswer = await (await fetch(`${service.url}/flags/?v=2`, { method: 'POST', body: flagsBodies[0] })).text();
    const targets = {
      flags: {
        label: '`POST /flags?v=2` (all 70 flags: the 50 and the 10 surveys’ 20)',
        requests: flagsBodies.map((body) => ({ method: 'POST', path: '/flags/?v=2', headers: { 'content-type': 'application/json' }, body })),
      },
      list: {
        label: '`GET /api/surveys/?token=` (the whole list, as posthog-js asks with its timestamp)',
        requests: Array.from({ length: 1000 }, (_, i) => ({ method: 'GET', path: `/api/surveys/?token=${service.token}&_=${1_790_000_000_000 + i}` })),
      },
      notModified: {
        label: '`GET /api/surveys/?token=` with `If-None-Match` (304)',
        requests: [{ method: 'GET', path: `/api/surveys/?token=${service.token}`, headers: { 'if-none-match': etag } }],
      },
    };
    const rounds = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
    for (const target of Object.values(targets)) await load({ url: service.url, requests: target.requests, connections: CONNECTIONS, duration: WARMUP });
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, target] of Object.entries(targets)) {
        const result = await load({ url: service.url, requests: target.requests, connections: CONNECTIONS, duration: SECONDS });
        const bad = result.non2xx - (name === 'notModified' ? result.total : 0);
        if (result.errors || result.timeouts || (name === 'notModified' ? result.non2xx !== result.total : result.non2xx)) {
          throw new Error(`${name}: ${result.errors} errors, ${result.timeouts} timeouts, ${bad} unexpected statuses`);
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
    const flags = summary('flags');
    const rows = Object.entries(targets).map(([name, target]) => {
      const s = summary(name);
      return `| ${target.label} | **${fmt(s.rps)}** (${s.all.map(fmt).join(', ')}) | ${(s.rps / flags.rps).toFixed(2)}× | ${s.p50} | ${s.p99} |`;
    });
    record(
      'Surveys: the public list beside /flags (issue 32)',
      `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 16)}Z, ${machine()}, load average ${startLoad} at start, ${os.loadavg()[0].toFixed(1)} at the end).
Service (its build, \`service start\`, SQLite, \`WORKERS=1\`, \`LOG_LEVEL=warn\`) in its own process, with the 50 flags and 10k persons of the
flags benchmark and ${RUNNING + DRAFTS} surveys of three questions (rating 0–10, single choice with an open choice, open), URL and event
conditions and person-property targeting at 50 %: ${RUNNING} running (the list: ${fmt(Buffer.byteLength(listBody))} bytes), ${DRAFTS} drafts.
autocannon (in the benchmark's process, ${CONNECTIONS} connections) against each target in turn: a ${WARMUP} s warm-up each, then ${ROUNDS}
rounds of ${SECONDS} s, alternating; medians below (each round's requests/s in brackets). \`/flags\` bodies: the next of 1,000 distinct
ids of the 10k persons (answer: ${fmt(Buffer.byteLength(flagsAnswer))} bytes); the list's URLs carry a changing \`_=\` timestamp as posthog-js's do.

| target | requests/s | beside /flags | p50 ms | p99 ms |
| --- | ---: | ---: | ---: | ---: |
${rows.join('\n')}

The list is built once per change (every survey write announces one, in every process) and kept per project; a request
finds the project by its token, takes the per-project rate limit, and sends the kept JSON with its ETag. The machine is
shared (2 cores, the benchmark's client on the same machine): compare the rows of one run.`,
    );
  } finally {
    await service.stop();
  }
}
