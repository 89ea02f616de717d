// Prints the bundle sizes (gzip level 9, as the budget test measures them); with --write, records them in bench/RESULTS.md.
// Run after a build: `npm run size` builds first.
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { transformSync } from 'esbuild'
import { record } from '@service/test-support'

const read = (file) => readFileSync(new URL('../' + file, import.meta.url))
const { version } = JSON.parse(read('package.json'))
/** A file minified as an app's bundler ships it (react and service-js stay imports): what the budgets limit. */
const minified = (file) => Buffer.from(transformSync(read(file).toString(), { minify: true, format: 'esm', target: 'es2020' }).code)
/** The chunk react.js imports the error boundary from (see tsup.config.ts). */
const boundary = 'dist/' + /from\s*"\.\/(chunk-[\w-]+\.js)"/.exec(read('dist/react.js').toString())[1]

const files = [
  ['dist/service.iife.js', 'IIFE, minified (script tag, `window.service`)', read('dist/service.iife.js')],
  [
    `dist/static/exceptions.${version}.js`,
    'lazy extension `exceptions` of the IIFE, minified (served at `/static/`, loaded with `capture_exceptions` or the first `captureException`)',
    read(`dist/static/exceptions.${version}.js`),
  ],
  ['dist/index.js', 'ESM, not minified (for bundlers; they minify and tree-shake)', read('dist/index.js')],
  ['dist/index.cjs', 'CJS, not minified', read('dist/index.cjs')],
  ['dist/react.js', '`service-js/react`, ESM, not minified', read('dist/react.js')],
  ['dist/react.js', '`service-js/react`, minified with esbuild (as in an app bundle; react and service-js not included)', minified('dist/react.js')],
  [boundary, '`ServiceErrorBoundary` and `setupReactErrorHandler`, the chunk `service-js/react` imports, minified with esbuild', minified(boundary)],
  ['dist/react.cjs', '`service-js/react`, CJS, not minified', read('dist/react.cjs')],
]
const rows = files.map(([file, what, buf]) => ({ file, what, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length }))
const table = [
  '| file | what | bytes | gzip -9 bytes |',
  '| --- | --- | ---: | ---: |',
  ...rows.map((r) => `| \`${r.file}\` | ${r.what} | ${r.raw} | ${r.gzip} |`),
].join('\n')
console.log(table)

if (process.argv.includes('--write')) {
  const iife = rows[0]
  const react = rows[5]
  const errors = rows[6]
  record(
    'Browser bundles (issues 5 and 6)',
    `Command: \`npm run size -w service-js\` (tsup build, then \`zlib.gzipSync(file, { level: 9 })\`).
Budgets, checked by \`test/size.test.ts\` in \`npm test\`:

- the IIFE (events, identity, queue with retry and gzip, flags, early access, autocapture, pageviews,
  the extension loader) at most 8 704 bytes gzip; lazy extensions (\`exceptions\`: \`captureException\`'s
  stack parsing, the steps trail, the rate limit and uncaught-error capture) are scripts of their own,
  fetched from the service's \`/static/\` when first needed;
- \`service-js/react\` (provider, six hooks, \`ServiceFeature\`) at most 2 048 bytes gzip, minified as an
  app's bundler ships it (PostHog's React bindings: 5.1 KB), and its error boundary chunk at most 1 024.

${table}

IIFE: **${iife.gzip} bytes gzip** (${(iife.gzip / 1024).toFixed(2)} KiB), ${iife.raw} bytes minified. No runtime dependencies.

service-js/react: **${react.gzip} bytes gzip** minified (${(react.gzip / 1024).toFixed(2)} KiB), ${react.raw} bytes minified,
plus **${errors.gzip} bytes gzip** for the error boundary's chunk. It imports only \`react\` (React 18 APIs) and \`service-js\`.
`,
  )
  console.log('bench/RESULTS.md written')
}
