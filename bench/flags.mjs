// npm run bench -- flags: POST /flags against a started service on SQLite with 50 flags of mixed conditions and
// 10k distinct ids, next to the ceiling of a bare Fastify route answering a fixed body of the same size.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seed } from './flags-seed.mjs';
import { DISTINCT_IDS } from '@service/test-support';
import { freePort, load, machine, record, root, startService } from './lib.mjs';

const COMMAND = 'npm run bench -- flags';
const ROUNDS = 3;

const bodies = (token) => Array.from({ length: DISTINCT_IDS }, (_, i) => JSON.stringify({ token, distinct_id: `user-${i}` }));

function rotating(list) {
  let i = 0;
  return [
    {
      method: 'POST',
      path: '/flags/?v=2',
      headers: { 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: list[i++ % list.length] }),
    },
  ];
}

const service = await startService();
let ceilingChild;
try {
  await seed(service);
  const list = bodies(service.token);
  const sample = await (await fetch(`${service.url}/flags/?v=2`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: list[1] })).text();
  const flagsCount = Object.keys(JSON.parse(sample).flags).length;
  if (flagsCount !== 50) throw new Error(`expected 50 flags in the response, got ${flagsCount}`);

  const bodyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ceiling-')), 'body.json');
  fs.writeFileSync(bodyFile, sample);
  const port = await freePort();
  ceilingChild = spawn(process.execPath, [path.join(root, 'bench/ceiling-server.mjs'), String(port), bodyFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => ceilingChild.stdout.once('data', resolve));
  const ceilingUrl = `http://127.0.0.1:${port}`;

  // Alternate the two targets over a few rounds so a passing load on the machine hits both alike; report medians.
  await load({ url: service.url, requests: rotating(list), duration: 3 }); // warm up
  await load({ url: ceilingUrl, requests: rotating(list), duration: 3 });
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    rounds.push({
      flags: await load({ url: service.url, requests: rotating(list), duration: 8 }),
      ceiling: await load({ url: ceilingUrl, requests: rotating(list), duration: 8 }),
    });
  }
  const median = (pick) => rounds.map(pick).sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
  const flags = {
    rps: median((r) => r.flags.rps),
    p50: median((r) => r.flags.p50),
    p99: median((r) => r.flags.p99),
    failed: rounds.reduce((n, r) => n + r.flags.non2xx + r.flags.errors, 0),
  };
  const ceiling = {
    rps: median((r) => r.ceiling.rps),
    p50: median((r) => r.ceiling.p50),
    p99: median((r) => r.ceiling.p99),
    failed: rounds.reduce((n, r) => n + r.ceiling.non2xx + r.ceiling.errors, 0),
  };

  const engine = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/engine.ts')], { cwd: root, encoding: 'utf8' }));
  const share = Math.round((flags.rps / ceiling.rps) * 100);
  const lines = [
    `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 10)}, ${machine()}).`,
    `Service on SQLite in its own process, autocannon (32 connections) in the bench process: after a 3 s warm-up of each,`,
    `${ROUNDS} rounds of 8 s on /flags then 8 s on the ceiling; medians below (per-round shares: ${rounds.map((r) => `${Math.round((r.flags.rps / r.ceiling.rps) * 100)} %`).join(', ')}).`,
    `50 flags of mixed conditions (rollouts, exact/icontains/regex/gt/semver/date/is_not/is_set, multivariate with payloads),`,
    `10k stored persons, each request for the next of the 10k distinct ids. Response: ${sample.length} bytes.`,
    '',
    '| target | requests/s | p50 ms | p99 ms | non-2xx |',
    '| --- | ---: | ---: | ---: | ---: |',
    `| \`POST /flags?v=2\` | ${flags.rps} | ${flags.p50} | ${flags.p99} | ${flags.failed} |`,
    `| ceiling: bare Fastify route, fixed ${sample.length}-byte JSON body | ${ceiling.rps} | ${ceiling.p50} | ${ceiling.p99} | ${ceiling.failed} |`,
    '',
    `/flags reaches **${share} %** of the ceiling (target ≥ 50 %), p99 **${flags.p99} ms** (target ≤ 20 ms).`,
    '',
    `Engine alone (flag-engine \`evaluateAll\`, one core, in process): ${engine.one.calls.toLocaleString('en')} evaluations/s of 1 flag;`,
    `${engine.fifty.calls.toLocaleString('en')} evaluations/s of all 50 flags (${engine.fifty.flags.toLocaleString('en')} flag evaluations/s).`,
  ];
  record('Flags (issue 3)', lines.join('\n'));
  console.log(lines.join('\n'));
  if (flags.failed) throw new Error('the service answered errors under load');
} finally {
  ceilingChild?.kill();
  await service.stop();
}
