// npm run bench -- local-eval: service-node's local evaluation next to posthog-node's, both evaluating the
// 50 flags of packages/test-support/flag-set.mjs for its 10k persons from definitions served by a started service.
// Fails unless both clients give the same value for every (flag, distinct id) pair.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PostHog } from 'posthog-node';
import { register } from 'tsx/esm/api';
import { DISTINCT_IDS, personOf } from '@service/test-support';
import { seed } from './flags-seed.mjs';
import { machine, record, root, startService } from './lib.mjs';

const COMMAND = 'npm run bench -- local-eval';
const FLAGS = 50;
const PER_FLAG_IDS = 1000; // per-flag calls: the first 1k ids × 50 flags
const MIN_SECONDS = 3;

register(); // service-node is TypeScript source in the monorepo
const { Service } = await import('../packages/node/src/index.ts');
const posthogVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/posthog-node/package.json'), 'utf8')).version;

const people = Array.from({ length: DISTINCT_IDS }, (_, i) => ({ id: `user-${i}`, personProperties: personOf(i) }));
const keys = Array.from({ length: FLAGS }, (_, i) => `bench-${i}`);

/** All flags of every id, one call at a time. */
async function allFlags(client) {
  const values = new Array(people.length);
  for (let i = 0; i < people.length; i++) {
    const { id, personProperties } = people[i];
    values[i] = await client.getAllFlags(id, { personProperties, onlyEvaluateLocally: true });
  }
  return values;
}

/** Each flag of the first PER_FLAG_IDS ids, one getFeatureFlag call at a time. */
async function perFlag(client) {
  const values = [];
  for (const { id, personProperties } of people.slice(0, PER_FLAG_IDS)) {
    const row = {};
    for (const key of keys) row[key] = await client.getFeatureFlag(key, id, { personProperties, onlyEvaluateLocally: true, sendFeatureFlagEvents: false });
    values.push(row);
  }
  return values;
}

/** Runs passes of `fn` until MIN_SECONDS have passed (at least one); returns flag evaluations per second and the last values. */
async function rate(fn, client, evaluationsPerPass) {
  let passes = 0;
  let values;
  const start = performance.now();
  do {
    values = await fn(client);
    passes++;
  } while (performance.now() - start < MIN_SECONDS * 1000);
  return { perSecond: Math.round((passes * evaluationsPerPass) / ((performance.now() - start) / 1000)), values };
}

/** Every (flag, id) pair must have the same value from both clients, and every flag must be decided. */
function compare(ours, theirs, what) {
  const mismatches = [];
  let pairs = 0;
  ours.forEach((row, i) => {
    for (const key of keys) {
      pairs++;
      if (row[key] === undefined || row[key] !== theirs[i][key])
        mismatches.push(`${people[i].id} ${key}: service-node ${row[key]}, posthog-node ${theirs[i][key]}`);
    }
    if (Object.keys(row).length !== FLAGS || Object.keys(theirs[i]).length !== FLAGS)
      mismatches.push(`${people[i].id}: flag counts ${Object.keys(row).length} / ${Object.keys(theirs[i]).length}`);
  });
  if (mismatches.length) throw new Error(`${what}: ${mismatches.length} mismatches, e.g.\n${mismatches.slice(0, 10).join('\n')}`);
  return pairs;
}

const service = await startService();
const ours = new Service(service.token, { host: service.url, personalApiKey: service.key, featureFlagsPollingInterval: 60_000 });
const theirs = new PostHog(service.token, { host: service.url, personalApiKey: service.key, featureFlagsPollingInterval: 60_000 });
try {
  const load = os.loadavg()[0].toFixed(1);
  await seed(service);
  await ours.reloadFeatureFlags();
  await theirs.reloadFeatureFlags();

  // Warm up both, then measure each in turn.
  await allFlags(ours);
  await allFlags(theirs);
  const oursAll = await rate(allFlags, ours, DISTINCT_IDS * FLAGS);
  const theirsAll = await rate(allFlags, theirs, DISTINCT_IDS * FLAGS);
  const pairs = compare(oursAll.values, theirsAll.values, 'getAllFlags');
  const oursOne = await rate(perFlag, ours, PER_FLAG_IDS * FLAGS);
  const theirsOne = await rate(perFlag, theirs, PER_FLAG_IDS * FLAGS);
  const perFlagPairs = compare(oursOne.values, theirsOne.values, 'getFeatureFlag');
  compare(oursOne.values, oursAll.values.slice(0, PER_FLAG_IDS), 'service-node getFeatureFlag vs getAllFlags');

  const ratioAll = oursAll.perSecond / theirsAll.perSecond;
  const ratioOne = oursOne.perSecond / theirsOne.perSecond;
  const fmt = (n) => n.toLocaleString('en');
  const lines = [
    `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${load} at start).`,
    `A started service (SQLite, own process) serves the 50 flags of packages/test-support/flag-set.mjs; both clients run in the bench process,`,
    `load them once through \`GET /flags/definitions\` with the personal API key (polling every 60 s), and evaluate with`,
    `\`onlyEvaluateLocally: true\` and each person's properties (\`personOf(i)\`), one awaited call at a time, after a warm-up pass;`,
    `each figure is passes repeated for at least ${MIN_SECONDS} s. posthog-node ${posthogVersion}: \`new PostHog(token, {host, personalApiKey, featureFlagsPollingInterval: 60000})\`.`,
    '',
    '| client | `getAllFlags(id)` over 10k ids: calls/s | flag evaluations/s | `getFeatureFlag(key, id)` over 1k ids × 50 flags: evaluations/s |',
    '| --- | ---: | ---: | ---: |',
    `| service-node | ${fmt(Math.round(oursAll.perSecond / FLAGS))} | ${fmt(oursAll.perSecond)} | ${fmt(oursOne.perSecond)} |`,
    `| posthog-node ${posthogVersion} | ${fmt(Math.round(theirsAll.perSecond / FLAGS))} | ${fmt(theirsAll.perSecond)} | ${fmt(theirsOne.perSecond)} |`,
    '',
    `service-node is **${ratioAll.toFixed(1)}×** posthog-node with \`getAllFlags\` and **${ratioOne.toFixed(1)}×** flag by flag (target ≥ 2×).`,
    `Values identical for all ${fmt(pairs)} (flag, id) pairs of \`getAllFlags\` and all ${fmt(perFlagPairs)} of \`getFeatureFlag\` (asserted; the bench fails otherwise).`,
  ];
  console.log(lines.join('\n'));
  if (ratioAll < 2 || ratioOne < 2) throw new Error('service-node is not 2× posthog-node');
  record('Local evaluation (issue 7)', lines.join('\n'));
} finally {
  await Promise.all([ours.shutdown(1000), theirs.shutdown(1000)]);
  await service.stop();
}
