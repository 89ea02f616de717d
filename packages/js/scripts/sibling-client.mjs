// Runs after tsup (`npm run build`). The React entries import the client as 'service-js', its name in the
// sources (tsup keeps it external); in the package it must be the sibling build of the same format, so that
// all entries share one module and one default `service` under whatever name the package is installed as
// (`@flagstation/service-js`, or `service-js` through an npm alias).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'

const sibling = (file) => (/\.(cjs|d\.cts)$/.test(file) ? './index.cjs' : './index.js')
const files = readdirSync(new URL('../dist/', import.meta.url)).filter((f) =>
  /^(react|react-errors|react-surveys)\.(js|cjs|d\.ts|d\.cts)$|^chunk-[\w-]+\.js$/.test(f),
)

for (const file of files) {
  const url = new URL(`../dist/${file}`, import.meta.url)
  const text = readFileSync(url, 'utf8')
  const linked = text.replaceAll(/(["'])service-js\1/g, `$1${sibling(file)}$1`)
  // react.* must import the client; the boundary's files and the chunks do when they hold its code.
  if (linked === text && file.startsWith('react.')) throw new Error(`dist/${file} does not import 'service-js'`)
  if (linked !== text) writeFileSync(url, linked)
}
