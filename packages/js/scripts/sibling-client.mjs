// Runs after tsup (`npm run build`). The React entry imports the client as 'service-js', its name in the
// sources (tsup keeps it external); in the package it must be the sibling build of the same format, so that
// both entries share one module and one default `service` under whatever name the package is installed as
// (`@flagstation/service-js`, or `service-js` through an npm alias).
import { readFileSync, writeFileSync } from 'node:fs'

const sibling = { 'react.js': './index.js', 'react.cjs': './index.cjs', 'react.d.ts': './index.js', 'react.d.cts': './index.cjs' }

for (const [file, path] of Object.entries(sibling)) {
  const url = new URL(`../dist/${file}`, import.meta.url)
  const text = readFileSync(url, 'utf8')
  const linked = text.replaceAll(/(["'])service-js\1/g, `$1${path}$1`)
  if (linked === text) throw new Error(`dist/${file} does not import 'service-js'`)
  writeFileSync(url, linked)
}
