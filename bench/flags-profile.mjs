// npm run bench -- flags-profile <label>: a CPU profile of the service (`node --cpu-prof`) while wrk drives `/flags` as
// `npm run bench -- flags` does (50 flags, 10k persons, 32 connections, 15 s after a 3 s warm-up), summarized into
// bench/profiles/<label>.md: the 15 functions of most self time, and the time spent under each of ours.
// `npm run bench -- flags-profile summarize <file.cpuprofile> <label>` only summarizes a profile.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DISTINCT_IDS } from '@service/test-support';
import { seed } from './flags-seed.mjs';
import { requireCommands, root, serviceBuild } from './lib.mjs';
import { spawnService } from '@service/test-support';

const TOP = 15;

const short = (url) =>
  url
    .replace(/^file:\/\//, '')
    .replace(`${root}/`, '')
    .replace(/^.*node_modules\//, '')
    .replace(/^packages\/server\/(src|dist)\//, '$1/');

/** Self and total (inclusive) milliseconds per function (name, file and line) of a .cpuprofile. */
export function summarize(profile, window = [0, Infinity]) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nameOf = (n) => {
    const f = n.callFrame;
    return `${f.functionName || '(anonymous)'} ${f.url ? `${short(f.url)}:${f.lineNumber + 1}` : ''}`.trim();
  };
  const self = new Map();
  const total = new Map();
  let all = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    at += profile.timeDeltas[i] ?? 0;
    const fromEnd = (profile.endTime - at) / 1000;
    if (fromEnd < window[0] || fromEnd > window[1]) return;
    all += ms;
    const node = byId.get(id);
    self.set(nameOf(node), (self.get(nameOf(node)) ?? 0) + ms);
    const seen = new Set();
    for (let up = id; up !== undefined; up = parent.get(up)) {
      const name = nameOf(byId.get(up));
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + ms);
    }
  });
  return { all, self, total };
}

export function report({ all, self, total }, title, note = '') {
  const pct = (ms) => `${((ms / all) * 100).toFixed(1)} %`;
  const busy = all - (self.get('(idle)') ?? 0);
  const rows = (map, filter, n) =>
    [...map]
      .filter(([name]) => filter(name))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, ms]) => `| \`${name}\` | ${Math.round(ms)} | ${pct(ms)} |`);
  return [
    `# ${title}`,
    '',
    note,
    `Profile: ${Math.round(all)} ms sampled, ${Math.round(busy)} ms not idle (${pct(busy)}).`,
    '',
    `## Top ${TOP} functions by self time`,
    '',
    '| function | self ms | share |',
    '| --- | ---: | ---: |',
    ...rows(self, () => true, TOP),
    '',
    '## Our code: time under each function (inclusive), top 20',
    '',
    '| function | total ms | share |',
    '| --- | ---: | ---: |',
    ...rows(total, (name) => / (src|dist)\//.test(name), 20),
    '',
  ].join('\n');
}

const [first, ...rest] = process.argv.slice(2);
if (first === 'summarize') {
  const [file, label] = rest;
  const text = report(summarize(JSON.parse(fs.readFileSync(file, 'utf8'))), `/flags CPU profile: ${label}`);
  fs.writeFileSync(path.join(root, 'bench/profiles', `${label}.md`), text);
  console.log(text);
} else {
  requireCommands('wrk');
  const label = first ?? 'profile';
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-flags-profile-'));
  const dataDir = path.join(work, 'data');
  const profileDir = path.join(work, 'profile');
  fs.mkdirSync(dataDir);
  // NODE_OPTIONS may not hold --cpu-prof: a wrapper starts the service's command with it and passes SIGTERM on.
  const wrapper = path.join(work, 'profiled-service.mjs');
  fs.writeFileSync(
    wrapper,
    `import { spawn } from 'node:child_process';
const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=${profileDir}', ${JSON.stringify(serviceBuild())}, ...process.argv.slice(2)], { stdio: 'inherit' });
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code) => process.exit(code ?? 0));
`,
  );
  const service = await spawnService(
    { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000', API_RATE_LIMIT_PER_MINUTE: '100000000' },
    undefined,
    wrapper,
  );
  try {
    await seed({ ...service, dataDir });
    const bodies = path.join(work, 'bodies.txt');
    fs.writeFileSync(
      bodies,
      `${Array.from({ length: DISTINCT_IDS }, (_, i) => JSON.stringify({ token: service.token, distinct_id: `user-${i}` })).join('\n')}\n`,
    );
    const wrk = (seconds) =>
      new Promise((resolve, reject) => {
        const child = spawn('wrk', ['-t1', '-c32', `-d${seconds}s`, '--latency', '-s', path.join(root, 'bench/flags.lua'), service.url, '--', bodies], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (c) => (out += c));
        child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(/^WRK (.*)$/m.exec(out)[1])) : reject(new Error(out))));
      });
    await wrk(3);
    const run = await wrk(15);
    const stopping = Date.now();
    await service.stop();
    const shutdownMs = Date.now() - stopping;
    const file = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    const note = `Command: \`npm run bench -- flags-profile ${label}\` (${new Date().toISOString().slice(0, 16)}Z; shared 2-core machine, load average ${os.loadavg()[0].toFixed(1)} at the end). wrk: ${Math.round(run.requests / (run.duration_us / 1e6))} requests/s, p99 ${(run.p99_us / 1000).toFixed(1)} ms, under the profiler; the samples of those 15 s.\n`;
    // Only the samples of the 15 s under load: the profile ends at exit, shutdownMs after wrk.
    const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8'));
    // PROFILE_KEEP=<dir>: keep the raw profile (megabytes: not for the repository).
    if (process.env.PROFILE_KEEP) fs.copyFileSync(path.join(profileDir, file), path.join(process.env.PROFILE_KEEP, `${label}.cpuprofile`));
    const text = report(summarize(profile, [shutdownMs, shutdownMs + 15_000]), `/flags CPU profile: ${label}`, note);
    fs.writeFileSync(path.join(root, 'bench/profiles', `${label}.md`), text);
    console.log(text);
  } finally {
    await service.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
