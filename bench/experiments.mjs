// npm run bench -- experiments: an experiment's results (issue 14) over 1M events of which 100k people's exposures
// and their goal events, on SQLite and on PostgreSQL. The events go in through the capture path (`POST /batch/` of a
// started service, persons and all), timed; then `GET .../experiments/:id/results/` is timed (median of RUNS).
import os from 'node:os';
import { machine, PG_URL, postgresReachable, record, startServiceOn } from './lib.mjs';

const COMMAND = 'npm run bench -- experiments';
const EVENTS = 1_000_000;
const EXPOSED = 100_000;
/** People with events who are never exposed. */
const BYSTANDERS = 20_000;
const PER_REQUEST = 1_000;
const CONCURRENCY = 4;
const RUNS = 5;
const DAYS = 14;
const FLAG = 'bench-experiment';
const OTHER = ['$pageview', '$autocapture', '$pageleave', 'clicked_button', 'signed_up'];

/** A seeded generator, so that both databases get the same events. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The events in time order over DAYS days ending now: person p (of EXPOSED) is first exposed at the p-th of EXPOSED
 * moments spread over the first 70 % of the time; every other event is a random person's (a bystander's too), an
 * exposed person's events after exposure being a repeated exposure (5 %), a purchase (5 %, 6 % in `test`) or
 * something else, before it a page view. Yields arrays of PER_REQUEST events.
 */
function* batches(start) {
  const rand = random(14);
  const step = (DAYS * 86_400_000) / EVENTS;
  const exposedAt = (p) => Math.floor(((p + 0.5) * EVENTS * 0.7) / EXPOSED);
  const variant = (p) => (p % 2 === 0 ? 'control' : 'test');
  const exposure = (p, t) => ({
    event: '$feature_flag_called',
    distinct_id: `person-${p}`,
    properties: { $feature_flag: FLAG, $feature_flag_response: variant(p), $lib: 'web' },
    timestamp: new Date(t).toISOString(),
  });
  let batch = [];
  let next = 0;
  for (let k = 0; k < EVENTS; k++) {
    const t = start + Math.floor(k * step);
    if (next < EXPOSED && exposedAt(next) <= k) {
      batch.push(exposure(next++, t));
    } else {
      const p = Math.floor(rand() * (EXPOSED + BYSTANDERS));
      const exposed = p < next;
      const r = rand();
      if (exposed && r < 0.05) batch.push(exposure(p, t));
      else if (exposed && r < (variant(p) === 'test' ? 0.11 : 0.1)) {
        batch.push({
          event: 'purchase',
          distinct_id: `person-${p}`,
          properties: { amount: Math.round(rand() * 10_000) / 100, $lib: 'web' },
          timestamp: new Date(t).toISOString(),
        });
      } else {
        const event = exposed ? OTHER[Math.floor(rand() * OTHER.length)] : '$pageview';
        batch.push({
          event,
          distinct_id: `person-${p}`,
          properties: { $current_url: `https://app.example.com/${k % 50}`, $lib: 'web' },
          timestamp: new Date(t).toISOString(),
        });
      }
    }
    if (batch.length === PER_REQUEST) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

async function post(url, body) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (res.status !== 200) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
}

/** Sends every event through /batch/ over CONCURRENCY connections; the seconds it took. */
async function ingest(service, start) {
  const source = batches(start);
  const began = performance.now();
  let sent = 0;
  const worker = async () => {
    for (let next = source.next(); !next.done; next = source.next()) {
      await post(`${service.url}/batch/`, JSON.stringify({ api_key: service.token, batch: next.value }));
      sent += next.value.length;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (sent !== EVENTS) throw new Error(`sent ${sent} events`);
  return (performance.now() - began) / 1000;
}

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

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function run(dialect) {
  const service = await startServiceOn(dialect);
  try {
    const start = Date.now() - (DAYS + 1) * 86_400_000;
    const base = `/api/projects/${service.projectId}/experiments`;
    const experiment = await api(service, 'POST', `${base}/`, {
      name: 'Bench experiment',
      feature_flag_key: FLAG,
      start_date: new Date(start).toISOString(),
      status: 'running',
      metrics: [
        { kind: 'conversion', event: 'purchase' },
        { kind: 'mean', event: 'purchase', property: 'amount' },
      ],
    });
    const ingestSeconds = await ingest(service, start);
    const times = [];
    let body;
    let first = 0;
    for (let i = 0; i < RUNS + 1; i++) {
      const began = performance.now();
      body = await api(service, 'GET', `${base}/${experiment.id}/results/`);
      // The first run warms caches (and PostgreSQL's statistics of the fresh tables): not counted.
      if (i > 0) times.push(performance.now() - began);
      else first = performance.now() - began;
    }
    const frequentist = [];
    for (let i = 0; i < RUNS; i++) {
      const began = performance.now();
      await api(service, 'GET', `${base}/${experiment.id}/results/?method=frequentist&sequential=true`);
      frequentist.push(performance.now() - began);
    }
    const [conversion] = body.metrics;
    const result = {
      dialect,
      ingestSeconds,
      eventsPerSecond: EVENTS / ingestSeconds,
      medianMs: median(times),
      firstMs: first,
      times,
      frequentistMs: median(frequentist),
      exposures: body.exposures_total,
      excluded: body.excluded_multiple_variants,
      conversions: conversion.variants.map((v) => `${v.key} ${v.conversions}/${v.exposures}`).join(', '),
    };
    console.log(JSON.stringify(result));
    if (body.exposures_total !== EXPOSED) throw new Error(`${body.exposures_total} exposed people, expected ${EXPOSED}`);
    return result;
  } finally {
    await service.stop();
  }
}

export async function main() {
  const load = os.loadavg()[0].toFixed(1);
  const results = [await run('sqlite')];
  if (await postgresReachable()) results.push(await run('postgres'));
  else console.warn(`PostgreSQL not reachable at ${PG_URL}; set BENCH_DATABASE_URL to include it.`);
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const rows = results.map(
    (r) =>
      `| ${r.dialect} | ${r.ingestSeconds.toFixed(1)} s (${fmt(r.eventsPerSecond)} events/s) | **${fmt(r.medianMs)}** (${r.times.map(fmt).join(', ')}) | ${fmt(r.firstMs)} | ${fmt(r.frequentistMs)} | ${fmt(r.exposures)} | ${r.conversions} |`,
  );
  record(
    'Experiment results (issue 14)',
    `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${load} at start).
A service in its own process (\`service start\`; SQLite, or PostgreSQL in a fresh schema) gets ${fmt(EVENTS)} events through
\`POST /batch/\` (the capture path: persons made and applied; ${PER_REQUEST} events a request, ${CONCURRENCY} at a time), in time order over
${DAYS} days: ${fmt(EXPOSED)} people each first exposed (\`$feature_flag_called\` of the experiment's flag, variant control or test) once
in the first 70 % of the time, a repeated exposure as 5 % of their later events, purchases (with an \`amount\`) as 5 % (control) or
6 % (test), the rest page views and other events, also from ${fmt(BYSTANDERS)} people never exposed. Then
\`GET /api/projects/:id/experiments/:id/results/\` over HTTP with two metrics (conversion to \`purchase\` within 14 days, mean
\`amount\` per person): ${RUNS} timed runs after one untimed, bayesian; then ${RUNS} frequentist sequential. Every figure comes from one
SQL statement per request (exposures, both metrics' sums, exposures per day), with the index \`events (project_id, event, timestamp)\`
(migration 0009).

| database | ingest of the ${fmt(EVENTS)} events | results, median ms (runs) | first run right after the ingest, ms | frequentist sequential, median ms | exposed people | conversions (primary) |
| --- | ---: | ---: | ---: | ---: | ---: | --- |
${rows.join('\n')}

Target: results ≤ 1 s on each database. The machine is shared; figures move with its load.

What the index costs ingestion, measured once with \`npm run bench -- ingest\` right before and right after migration 0009
(2026-11-23, same machine, load average 1–3; the two runs differ by about as much as runs do): SQLite 20,421 → 24,676 events/s
through HTTP (117 % → 103 % of the raw-insert ceiling measured in the same run), PostgreSQL 24,806 → 19,840 events/s (53 % → 51 %
of its ceiling). Within the noise of this machine; an index on three columns adds one B-tree insert per event.`,
  );
}
