// Prints the bundle sizes (gzip level 9, as the budget test measures them); with --write, records them in SIZE.md.
// Run after a build: `npm run size` builds first.
import { readFileSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

const files = [
  ['dist/service.iife.js', 'IIFE, minified (script tag, `window.service`)'],
  ['dist/index.js', 'ESM, not minified (for bundlers; they minify and tree-shake)'],
  ['dist/index.cjs', 'CJS, not minified'],
]
const rows = files.map(([file, what]) => {
  const buf = readFileSync(new URL('../' + file, import.meta.url))
  return { file, what, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length }
})
const table = [
  '| file | what | bytes | gzip -9 bytes |',
  '| --- | --- | ---: | ---: |',
  ...rows.map((r) => `| \`${r.file}\` | ${r.what} | ${r.raw} | ${r.gzip} |`),
].join('\n')
console.log(table)

if (process.argv.includes('--write')) {
  const iife = rows[0]
  writeFileSync(
    new URL('../SIZE.md', import.meta.url),
    `# service-js bundle size

Measured with \`cd packages/js && npm run size\` (tsup build, then \`zlib.gzipSync(file, { level: 9 })\`).
Budget: the IIFE with everything (events, identity, queue with retry and gzip, flags, early access,
autocapture, pageviews, error tracking) at most 15 000 bytes gzip, checked by \`test/size.test.ts\` in \`npm test\`.

${table}

IIFE: **${iife.gzip} bytes gzip** (${(iife.gzip / 1024).toFixed(2)} KiB), ${iife.raw} bytes minified. No runtime dependencies.
`,
  )
  console.log('SIZE.md written')
}
