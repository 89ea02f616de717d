// npm run bench -- cohorts: `POST /flags` of a project whose flags target a static cohort of 1,000,000 distinct ids or a
// behavioral cohort, beside the same project with a flag on no cohort; and the upload of the 1,000,000 ids (one JSON
// body), on SQLite and on PostgreSQL. A started service (`service start`, one worker), driven by autocannon.
import os from 'node:os';
import { load, machine, PG_URL, postgresReachable, record, startServiceOn } from './lib.mjs';

const COMMAND = 'npm run bench -- cohorts';
const IDS = 1_000_000;
const ROUNDS = 3;
const SECONDS = 5;
const WARMUP = 2;
const CONNECTIONS = 32;
/** People who did the behavioral cohort's event (once each), of the 1,000 the requests name. */
const BUYERS = 500;

async function api(service, method, route, body) {
  const res = await fetch(`${service.url}/api/projects/${service.projectId}/${route}`, {
    method,
    headers: { authorization: `Bearer ${service.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: typeof body === 'string' ? body : body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const flag = (key, properties) => ({ key, filters: { groups: [{ properties, rollout_percentage: 100 }] } });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `/flags` for 1,000 distinct ids (every other one a member of the static cohort and a buyer): the median of ROUNDS. */
async function measure(service, expect) {
  const ids = Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? `u${i * 997}` : `stranger-${i}`));
  const requests = ids.map((distinct_id) => ({
    method: 'POST',
    path: '/flags/?v=2',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: service.token, distinct_id }),
  }));
  const answer = await (await fetch(`${service.url}/flags/?v=2`, { method: 'POST', body: requests[0].body })).json();
  for (const [key, enabled] of Object.entries(expect)) {
    if (answer.flags[key]?.enabled !== enabled) throw new Error(`${key} for ${ids[0]}: ${JSON.stringify(answer.flags[key])}, expected ${enabled}`);
  }
  await load({ url: service.url, requests, connections: CONNECTIONS, duration: WARMUP });
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await load({ url: service.url, requests, connections: CONNECTIONS, duration: SECONDS }));
  if (rounds.some((r) => r.non2xx || r.errors || r.timeouts)) throw new Error(`failed requests: ${JSON.stringify(rounds)}`);
  const best = rounds.find((r) => r.rps === median(rounds.map((x) => x.rps)));
  return { rps: best.rps, p50: best.p50, p99: best.p99, all: rounds.map((r) => r.rps) };
}

async function run(dialect) {
  const service = await startServiceOn(dialect, { WORKERS: '1' });
  try {
    await api(service, 'POST', 'feature_flags/', flag('plain', [{ key: 'plan', type: 'person', operator: 'is_not', value: 'none' }]));
    const plain = await measure(service, { plain: true });

    const body = JSON.stringify({ name: 'A million', is_static: true, distinct_ids: Array.from({ length: IDS }, (_, i) => `u${i}`) });
    const began = performance.now();
    const cohort = await api(service, 'POST', 'cohorts/', body);
    const uploadSeconds = (performance.now() - began) / 1000;
    if (cohort.count !== IDS) throw new Error(`${cohort.count} ids stored`);
    const onStatic = await api(service, 'POST', 'feature_flags/', flag('on-static', [{ key: 'id', type: 'cohort', value: cohort.id }]));
    const staticRun = await measure(service, { plain: true, 'on-static': true });

    await api(service, 'PATCH', `feature_flags/${onStatic.id}/`, { deleted: true });
    const behavioral = await api(service, 'POST', 'cohorts/', {
      name: 'Bought this month',
      filters: {
        properties: {
          type: 'AND',
          values: [{ type: 'behavioral', value: 'performed_event', key: 'purchase', operator: 'gte', operator_value: 1, time_value: 30, time_interval: 'day' }],
        },
      },
    });
    await api(service, 'POST', 'feature_flags/', flag('on-behavioral', [{ key: 'id', type: 'cohort', value: behavioral.id }]));
    const batch = Array.from({ length: BUYERS }, (_, i) => ({ event: 'purchase', distinct_id: `u${i * 2 * 997}` }));
    const captured = await fetch(`${service.url}/batch/`, { method: 'POST', body: JSON.stringify({ api_key: service.token, batch }) });
    if (captured.status !== 200) throw new Error(`capture: ${captured.status}`);
    const behavioralRun = await measure(service, { plain: true, 'on-behavioral': true });
    const result = { dialect, uploadSeconds, plain, staticRun, behavioralRun };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    await service.stop();
  }
}

export async function main() {
  const startLoad = os.loadavg()[0].toFixed(1);
  const results = [await run('sqlite')];
  if (await postgresReachable()) results.push(await run('postgres'));
  else console.warn(`PostgreSQL not reachable at ${PG_URL}; set BENCH_DATABASE_URL to include it.`);
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const cell = (r) => `**${fmt(r.rps)}** (${r.all.map(fmt).join(', ')}); p50 ${r.p50} ms, p99 ${r.p99} ms`;
  const rows = results.map((r) => `| ${r.dialect} | ${r.uploadSeconds.toFixed(1)} s | ${cell(r.plain)} | ${cell(r.staticRun)} | ${cell(r.behavioralRun)} |`);
  record(
    'Cohorts in /flags (issue 36)',
    `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${startLoad} at start).
A service in its own process (\`service start\`, WORKERS=1; SQLite, or PostgreSQL in a fresh schema). \`POST /flags?v=2\` driven by
autocannon (${CONNECTIONS} connections, 1,000 distinct ids in turn, half of them members; ${WARMUP} s warm-up, then ${ROUNDS} rounds of ${SECONDS} s,
the median shown with every round's requests a second) for the project with: one flag on a person property only; that flag and a
flag on a static cohort of ${fmt(IDS)} distinct ids; that flag and a flag on a behavioral cohort (\`purchase\` at least once in
30 days; ${BUYERS} buyers). The upload is one \`POST /api/projects/:id/cohorts/\` of the ${fmt(IDS)} ids as JSON (about 9 MB), timed
until its 201. A flag on a static or behavioral cohort costs each request one more indexed query (the person's memberships and
counts, \`cohort_members\` / \`cohort_event_counts\` by \`(project_id, distinct_id)\`), beside the read of the person.

| database | upload of ${fmt(IDS)} ids | /flags, a flag without a cohort (requests/s) | with a flag on the static cohort | with a flag on the behavioral cohort |
| --- | ---: | ---: | ---: | ---: |
${rows.join('\n')}

The machine is shared (2 cores, several engineers); figures move with its load. The flag without a cohort is measured first,
right after the service starts (its code still warming up): differences between the columns within a run's spread are noise.`,
  );
}
