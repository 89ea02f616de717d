// Prints the bundle sizes (gzip level 9, as the budget test measures them); with --write, records them in bench/RESULTS.md.
// Run after a build: `npm run size` builds first.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { gzipSync } from 'node:zlib'
import { transformSync } from 'esbuild'
import { record } from '@service/test-support'

const read = (file) => readFileSync(new URL('../' + file, import.meta.url))
const { version } = JSON.parse(read('package.json'))
/** A file minified as an app's bundler ships it (react and service-js stay imports): what the budgets limit. */
const minified = (file) => Buffer.from(transformSync(read(file).toString(), { minify: true, format: 'esm', target: 'es2020' }).code)
/** The chunks a file of dist/ imports, transitively (see tsup.config.ts). */
const chunks = (file, seen = new Set()) => {
  for (const [, c] of read(file)
    .toString()
    .matchAll(/(?:from\s*|import\s*)"\.\/(chunk-[\w-]+\.js)"/g))
    if (!seen.has(c)) {
      seen.add(c)
      chunks('dist/' + c, seen)
    }
  return [...seen].map((c) => 'dist/' + c)
}
const holding = (file, text) => chunks(file).find((c) => read(c).toString().includes(text))
/** The chunk react.js imports the error boundary from, the survey hooks' chunk, and the survey rules they share with the extension. */
const boundary = holding('dist/react.js', 'React ErrorBoundary')
const hooks = holding('dist/react.js', 'useSurvey')
const rules = holding(hooks, '$survey_questions')
const renderer = holding('dist/surveys-renderer.js', 'svc-survey')
/** posthog-js's own surveys bundle, as installed (the service serves it at /static/surveys.js). */
const posthogJs = createRequire(import.meta.url)
  .resolve('posthog-js/package.json')
  .replace(/package\.json$/, '')
const posthog = JSON.parse(readFileSync(posthogJs + 'package.json', 'utf8')).version

const files = [
  ['dist/service.iife.js', 'IIFE, minified (script tag, `window.service`)', read('dist/service.iife.js')],
  [
    `dist/static/exceptions.${version}.js`,
    'lazy extension `exceptions` of the IIFE, minified (served at `/static/`, loaded with `capture_exceptions` or the first `captureException`)',
    read(`dist/static/exceptions.${version}.js`),
  ],
  [
    `dist/static/surveys.${version}.js`,
    'lazy extension `surveys` of the IIFE, minified (served at `/static/`, loaded when `/flags` turns a survey’s flag on, or on a survey call)',
    read(`dist/static/surveys.${version}.js`),
  ],
  [`posthog-js ${posthog} dist/surveys.js`, 'posthog-js’s surveys bundle, minified, for comparison', readFileSync(posthogJs + 'dist/surveys.js')],
  ['dist/index.js', 'ESM, not minified (for bundlers; they minify and tree-shake)', read('dist/index.js')],
  ['dist/index.cjs', 'CJS, not minified', read('dist/index.cjs')],
  ['dist/react.js', '`service-js/react`, ESM, not minified', read('dist/react.js')],
  ['dist/react.js', '`service-js/react`, minified with esbuild (as in an app bundle; react and service-js not included)', minified('dist/react.js')],
  [boundary, '`ServiceErrorBoundary` and `setupReactErrorHandler`, the chunk `service-js/react` imports, minified with esbuild', minified(boundary)],
  [
    `${hooks} + ${rules}`,
    '`useSurvey` and `useActiveSurveys`, the chunk `service-js/react` imports, with the survey rules it shares with the extension, minified with esbuild',
    Buffer.concat([minified(hooks), minified(rules)]),
  ],
  [
    `dist/surveys-renderer.js + ${renderer}`,
    '`service-js/surveys-renderer` (the renderer alone, for the web app’s preview), minified with esbuild',
    Buffer.concat([minified('dist/surveys-renderer.js'), minified(renderer)]),
  ],
  ['dist/react.cjs', '`service-js/react`, CJS, not minified', read('dist/react.cjs')],
  [
    `dist/static/replay.${version}.js`,
    'lazy extension `replay` of the IIFE (rrweb’s recorder, `@rrweb/record`), minified (served at `/static/`, loaded when the project records and the session is sampled in)',
    read(`dist/static/replay.${version}.js`),
  ],
  ...['recorder', 'posthog-recorder', 'lazy-recorder'].map((name) => [
    `posthog-js ${posthog} dist/${name}.js`,
    'posthog-js’s recorder, minified, for comparison',
    readFileSync(posthogJs + `dist/${name}.js`),
  ]),
]
const rows = files.map(([file, what, buf]) => ({ file, what, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length }))
const table = [
  '| file | what | bytes | gzip -9 bytes |',
  '| --- | --- | ---: | ---: |',
  ...rows.map((r) => `| \`${r.file}\` | ${r.what} | ${r.raw} | ${r.gzip} |`),
].join('\n')
console.log(table)

if (process.argv.includes('--write')) {
  const [iife, , surveys, theirs] = rows
  const react = rows[7]
  const errors = rows[8]
  const surveyHooks = rows[9]
  const [replay, phRecorder, , phLazy] = rows.slice(-4)
  record(
    'Browser bundles (issues 5 and 6)',
    `Command: \`npm run size -w service-js\` (tsup build, then \`zlib.gzipSync(file, { level: 9 })\`).
Budgets, checked by \`test/size.test.ts\` in \`npm test\`:

- the IIFE (events, identity, queue with retry and gzip, flags, early access, autocapture, pageviews,
  the extension loader, the survey calls and their trigger, session replay's decision and calls and the queue
  for \`/s/\`) at most 9 088 bytes gzip (8 704 before session replay); lazy extensions
  (\`exceptions\`: \`captureException\`'s stack parsing, the steps trail, the rate limit and uncaught-error
  capture; \`surveys\`: the survey list, eligibility, the renderer and the survey events; \`replay\`: rrweb's
  recorder, batching and the console and network plugins) are scripts of their own, fetched from the service's
  \`/static/\` when first needed; \`surveys\` at most 12 288 bytes gzip, \`replay\` at most 24 576;
- \`service-js/react\` (provider, six hooks, \`ServiceFeature\`) at most 2 112 bytes gzip, minified as an
  app's bundler ships it (PostHog's React bindings: 5.1 KB), its error boundary chunk at most 1 024, and its
  survey hooks' chunk, with the survey rules it shares with the extension, at most 2 304.

${table}

IIFE: **${iife.gzip} bytes gzip** (${(iife.gzip / 1024).toFixed(2)} KiB), ${iife.raw} bytes minified. No runtime dependencies.
Before the survey calls it was 8 583 bytes, before session replay 8 596 (its decision, calls, \`/s/\` queue and 24-hour session rule: ${iife.gzip - 8596} bytes).

Surveys extension: **${surveys.gzip} bytes gzip** (${(surveys.gzip / 1024).toFixed(2)} KiB), beside posthog-js ${posthog}'s
\`dist/surveys.js\`: **${theirs.gzip} bytes gzip** (${(theirs.gzip / 1024).toFixed(1)} KiB), ${(theirs.gzip / surveys.gzip).toFixed(1)} times as much.
A page whose person has no survey's flag on downloads neither.

Replay extension: **${replay.gzip} bytes gzip** (${(replay.gzip / 1024).toFixed(2)} KiB), beside posthog-js ${posthog}'s
rrweb-only \`dist/recorder.js\`: **${phRecorder.gzip}** and its \`dist/lazy-recorder.js\`: **${phLazy.gzip}**
(${(phLazy.gzip / replay.gzip).toFixed(1)} times as much). Choice of rrweb build: see "Session replay recorder".

service-js/react: **${react.gzip} bytes gzip** minified (${(react.gzip / 1024).toFixed(2)} KiB), ${react.raw} bytes minified,
plus **${errors.gzip} bytes gzip** for the error boundary's chunk and **${surveyHooks.gzip}** for the survey hooks'.
It imports only \`react\` (React 18 APIs) and \`service-js\`.
`,
  )
  console.log('bench/RESULTS.md written')
}
