// npm run bench -- replay-recorder: service-js's session replay recorder beside posthog-js's (issue 33).
//   1. chunk size: dist/static/replay.<version>.js gzip -9 beside posthog-js's dist/recorder.js, posthog-recorder.js and
//      lazy-recorder.js (its rrweb-only recorder, and the one it loads by default);
//   2. main-thread time a page making 10,000 DOM changes costs with each recorder recording it, beside no recorder:
//      CDP `Performance.getMetrics` TaskDuration (all main-thread work) and ScriptDuration, from before the changes
//      until the recorder has sent what it saw, and the longest task (a `longtask` observer). Two pages: `burst`, a
//      table of 1,000 rows × 10 cells appended at once (posthog-js's #4217 is a large table), `stream`, 10,000
//      text changes, 100 a frame for 100 frames, and `ticker`, a page that changes without end: 20 elements' style,
//      each frame for 500 frames (10,000 attribute changes in some 8 s; what a per-node rate limit is for).
// Each recorder runs in headless Chromium on a page of its own (Playwright answers the page's requests: the service's
// routes answer as the service would, so only the recorders' own work is measured), default options, recording on.
// Options: --chromium <path> (default /usr/bin/chromium), --runs <n> per case (default 5; the median is reported).
/* global window, document, navigator, requestAnimationFrame, PerformanceObserver -- the functions run in the page */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { machine, record, root } from './lib.mjs';

const COMMAND = 'npm run bench -- replay-recorder';
const { values: args } = parseArgs({ options: { chromium: { type: 'string', default: '/usr/bin/chromium' }, runs: { type: 'string', default: '5' } } });
const RUNS = Math.max(1, Number(args.runs) || 5);
const HOST = 'http://bench.local';
const TOKEN = 'phc_bench';
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

const js = path.join(root, 'packages', 'js');
const { version } = JSON.parse(fs.readFileSync(path.join(js, 'package.json'), 'utf8'));
const ours = path.join(js, 'dist', 'static', `replay.${version}.js`);
const iife = path.join(js, 'dist', 'service.iife.js');
if (!fs.existsSync(ours) || !fs.existsSync(iife)) throw new Error('build service-js first: npm run build -w @flagstation/service-js');
const phDir = path.dirname(createRequire(path.join(js, 'package.json')).resolve('posthog-js/package.json'));
const phVersion = JSON.parse(fs.readFileSync(path.join(phDir, 'package.json'), 'utf8')).version;
const gz = (file) => gzipSync(fs.readFileSync(file), { level: 9 }).length;

// 1. chunk sizes
const sizes = [
  [`service-js \`dist/static/replay.${version}.js\` (rrweb's \`@rrweb/record\`, batching, plugins)`, gz(ours)],
  ...['recorder', 'posthog-recorder', 'lazy-recorder'].map((n) => [`posthog-js ${phVersion} \`dist/${n}.js\``, gz(path.join(phDir, 'dist', `${n}.js`))]),
];

// 2. main-thread time
const RECORDING = { endpoint: '/s/', sampleRate: '1.00', minimumDurationMilliseconds: 0, linkedFlag: null, masking: { maskAllInputs: true } };
const BODY = `<main><h1>Orders</h1><label>Search <input id="q"></label><div id="root"></div></main>`;
/** The page of each case: its scripts, and how it starts recording. */
const PAGES = {
  none: `<!doctype html><html><body>${BODY}<script>window.ready = true</script></body></html>`,
  'service-js': `<!doctype html><html><body>${BODY}<script src="/service.iife.js"></script><script>
    service.init('${TOKEN}', { api_host: '${HOST}', autocapture: false, capture_pageview: false })
    window.recording = () => service.sessionRecordingStarted()</script></body></html>`,
  'posthog-js': `<!doctype html><html><body>${BODY}<script src="/static/array.js"></script><script>
    posthog.init('${TOKEN}', { api_host: '${HOST}', autocapture: false, capture_pageview: false, disable_surveys: true })
    window.recording = () => posthog.sessionRecordingStarted()</script></body></html>`,
};

/** Answers the page's requests: its HTML and scripts, and the service's routes. */
async function serve(page, name) {
  await page.route(`${HOST}/**`, async (route) => {
    const url = new URL(route.request().url());
    const p = url.pathname;
    const send = (body, type = 'application/json') =>
      route.fulfill({
        status: 200,
        contentType: type,
        headers: { 'Access-Control-Allow-Origin': '*' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    if (p === '/') return send(PAGES[name], 'text/html');
    if (p === '/service.iife.js') return send(fs.readFileSync(iife, 'utf8'), 'text/javascript');
    if (p === `/static/replay.${version}.js`) return send(fs.readFileSync(ours, 'utf8'), 'text/javascript');
    if (p.startsWith('/static/')) {
      const file = path.join(phDir, 'dist', path.basename(p));
      return fs.existsSync(file) ? send(fs.readFileSync(file, 'utf8'), 'text/javascript') : route.fulfill({ status: 404, body: '' });
    }
    if (p.startsWith('/flags') || p.startsWith('/decide'))
      return send({ flags: {}, featureFlags: {}, errorsWhileComputingFlags: false, sessionRecording: RECORDING, supportedCompression: ['gzip-js'] });
    if (p.includes('/config.js'))
      return send(
        `window._POSTHOG_REMOTE_CONFIG = window._POSTHOG_REMOTE_CONFIG || {}; window._POSTHOG_REMOTE_CONFIG['${TOKEN}'] = { config: ${JSON.stringify({ sessionRecording: RECORDING })}, siteApps: [] }`,
        'text/javascript',
      );
    if (p.includes('/config')) return send({ sessionRecording: RECORDING, supportedCompression: ['gzip-js'] });
    return send({ status: 1 });
  });
}

/** The page's DOM changes: `burst` (a 1,000 × 10 table at once), `stream` (10,000 text changes, 100 a frame) or
 * `ticker` (20 elements' width, each frame for 500 frames). */
const CHANGES = {
  burst: () => {
    const table = document.createElement('table');
    for (let r = 0; r < 1000; r++) {
      const tr = table.insertRow();
      for (let c = 0; c < 10; c++) tr.insertCell().textContent = `row ${r} cell ${c}`;
    }
    document.getElementById('root').append(table);
  },
  stream: () =>
    new Promise((resolve) => {
      const cells = [];
      for (let i = 0; i < 100; i++) {
        const span = document.createElement('span');
        span.textContent = '0';
        document.getElementById('root').append(span);
        cells.push(span);
      }
      let frame = 0;
      const tick = () => {
        for (const cell of cells) cell.textContent = String(frame);
        if (++frame < 100) requestAnimationFrame(tick);
        else resolve();
      };
      requestAnimationFrame(tick);
    }),
  ticker: () =>
    new Promise((resolve) => {
      const bars = [];
      for (let i = 0; i < 20; i++) {
        const bar = document.createElement('div');
        document.getElementById('root').append(bar);
        bars.push(bar);
      }
      let frame = 0;
      const tick = () => {
        for (const bar of bars) bar.style.width = `${frame % 100}%`;
        if (++frame < 500) requestAnimationFrame(tick);
        else resolve();
      };
      requestAnimationFrame(tick);
    }),
};

async function run(browser, name, kind) {
  // A desktop Chrome's user agent: posthog-js captures nothing from one that says HeadlessChrome (a likely bot).
  const context = await browser.newContext({ userAgent: UA });
  const page = await context.newPage();
  // and one that is not driven by a debugger (navigator.webdriver)
  await page.addInitScript(() => Object.defineProperty(Object.getPrototypeOf(navigator), 'webdriver', { get: () => false }));
  await serve(page, name);
  const snapshots = [];
  page.on('request', (r) => new URL(r.url()).pathname === '/s/' && r.method() === 'POST' && snapshots.push(r.postDataBuffer()?.length ?? 0));
  await page.goto(`${HOST}/`);
  if (name !== 'none') await page.waitForFunction(() => window.recording?.(), null, { timeout: 20_000 });
  // A user is there (posthog-js's recorder sends nothing before the first interaction); the recorder's start (its
  // full snapshot) is done and sent.
  await page.mouse.move(10, 10);
  await page.mouse.click(60, 20);
  await page.waitForTimeout(3000);
  await page.evaluate(() => {
    window.longest = 0;
    new PerformanceObserver((list) => list.getEntries().forEach((e) => (window.longest = Math.max(window.longest, e.duration)))).observe({ type: 'longtask' });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const before = await metrics();
  const sentBefore = snapshots.length;
  await page.evaluate(CHANGES[kind]);
  // until the recorder has sent what it saw: both send every few seconds
  if (name !== 'none') await waitFor(() => snapshots.length > sentBefore, 15_000);
  await page.waitForTimeout(3000);
  const after = await metrics();
  const longest = await page.evaluate(() => window.longest);
  await context.close();
  return {
    task: (after.TaskDuration - before.TaskDuration) * 1000,
    script: (after.ScriptDuration - before.ScriptDuration) * 1000,
    longest,
    sent: snapshots.slice(sentBefore).reduce((a, b) => a + b, 0),
  };
}

async function waitFor(check, ms) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('the recorder sent nothing');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * rrweb's builds measured by hand (2026-11-29) to pick the recorder: each installed alone in an empty folder
 * (`npm i <package>@<version> esbuild`), then \`import { record } from '<package>'; window.r = record\` bundled with
 * \`esbuild --bundle --minify --format=iife --target=es2020\` and gzipped at level 9.
 */
const RRWEB_BUILDS = `| package | record-only, minified | gzip -9 | postcss inside |
| --- | ---: | ---: | --- |
| \`rrweb@2.2.2\` (import \`record\` from the main entry) | 194 921 | 61 668 | yes |
| \`rrweb@2.1.6\` | 181 587 | 57 793 | yes |
| \`rrweb@2.0.0\` | 181 359 | 57 579 | yes |
| \`rrweb@2.0.0-alpha.11\` | 72 882 | 23 812 | no |
| \`rrweb@2.0.0-alpha.4\` | 69 466 | 22 703 | no |
| \`rrweb@1.1.3\` | 54 899 | 17 415 | no |
| **\`@rrweb/record@2.1.6\`** (chosen) | 74 330 | 22 812 | no |
| \`@posthog/rrweb-record@0.0.53\` | 191 111 | 60 358 | yes |
| \`@posthog/rrweb@0.0.59\` | 192 787 | 61 130 | yes |

\`@rrweb/record\` is rrweb 2's recorder built on its own: the main \`rrweb\` entry brings the replayer and postcss
(some 35 KB gzip) even when only \`record\` is imported. rrweb 1.1.3 is 5.4 KB smaller but unmaintained, and it cannot
keep masking an input whose type changes from \`password\` (rrweb 2 marks it \`data-rr-is-password\`), which the
"passwords always" rule needs; of the maintained builds \`@rrweb/record\` is the smallest.`;

/** Before and after the recorder's work was bounded: see the text. */
const BOUNDING = `Bounding the recorder's work (measured by hand 2026-11-29, builds of main at 394c459 and of this change, run by run
in turn, 3 rounds of each page, medians; the same pages and metrics as the table above): rrweb now starts when the
page is idle; a DOM change adding over 2,000 elements stops rrweb before it serializes it as a mutation (one task
with more work a node than a snapshot) and a full snapshot is taken at the next idle time; a node's text and
attribute changes past posthog-js's rate limit (100, then 10 a second) are dropped and counted.

| page | build | added by the recorder | script time | longest task | bytes sent to /s/ |
| --- | --- | ---: | ---: | ---: | ---: |
| burst | before | 425 ms | 348 ms | 239 ms | 161681 |
| burst | after | 368 ms | 230 ms | 139 ms | 98322 |
| stream | before | 215 ms | 248 ms | 0 ms | 71977 |
| stream | after | 230 ms | 229 ms | 0 ms | 72141 |
| ticker | before | 371 ms | 289 ms | 0 ms | 32373 |
| ticker | after | 318 ms | 273 ms | 0 ms | 14499 |

The burst's longest task is the full snapshot now (rrweb's \`snapshot\` has no way to yield; it grows with the
page). \`stream\` replaces text nodes (adds and removes, never rate-limited: a dropped one would leave the replay
wrong for good), so it is unchanged; on \`ticker\` the limit halves the bytes but rrweb still handles each change.`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const loadAtStart = os.loadavg()[0];
const browser = await chromium.launch({ executablePath: args.chromium, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const rows = [];
try {
  for (const kind of ['burst', 'stream', 'ticker'])
    for (const name of ['none', 'service-js', 'posthog-js']) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await run(browser, name, kind));
      const row = {
        kind,
        name,
        task: median(runs.map((r) => r.task)),
        script: median(runs.map((r) => r.script)),
        longest: median(runs.map((r) => r.longest)),
        sent: median(runs.map((r) => r.sent)),
      };
      rows.push(row);
      console.log(
        `${kind} ${name}: task ${row.task.toFixed(0)} ms, script ${row.script.toFixed(0)} ms, longest task ${row.longest.toFixed(0)} ms, sent ${row.sent} bytes`,
      );
    }
} finally {
  await browser.close();
}

const base = (kind) => rows.find((r) => r.kind === kind && r.name === 'none');
const table = [
  '| page | recorder | main-thread task time | added by the recorder | script time | longest task | bytes sent to /s/ |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.kind} | ${r.name} | ${r.task.toFixed(0)} ms | ${r.name === 'none' ? '–' : `${(r.task - base(r.kind).task).toFixed(0)} ms`} | ${r.script.toFixed(0)} ms | ${r.longest.toFixed(0)} ms | ${r.name === 'none' ? '–' : r.sent} |`,
  ),
].join('\n');
const body = `Command: \`${COMMAND}\` (after \`npm run build -w @flagstation/service-js\`; options \`--runs ${RUNS}\`). ${machine()}, load average ${loadAtStart.toFixed(1)} at start.

Which rrweb:

${RRWEB_BUILDS}

Chunk size (gzip -9 of the file as served):

| recorder | gzip bytes |
| --- | ---: |
${sizes.map(([n, b]) => `| ${n} | ${b} |`).join('\n')}

Main-thread time of a page making 10,000 DOM changes, recording (median of ${RUNS} runs, each in a fresh context): CDP
\`Performance.getMetrics\` TaskDuration and ScriptDuration from just before the changes until 3 s after the recorder's
next batch went to \`/s/\` (its serialization, batching and compression included), and the longest task (\`longtask\`
observer). \`burst\`: a table of 1,000 rows × 10 cells appended at once; \`stream\`: 10,000 text changes, 100 a frame
for 100 frames; \`ticker\`: 20 elements' width changed each frame for 500 frames (10,000 attribute changes in some
8 s, a page that changes without end). posthog-js ${phVersion} with its default recorder (\`lazy-recorder.js\`, per-event compression on).

${table}

${BOUNDING}
`;
record('Session replay recorder (issue 33)', body);
console.log(body);
console.log('bench/RESULTS.md written');
