import { existsSync } from 'node:fs'
import { defineConfig } from 'tsup'

// `service-js/react` (src/react/index.ts) is built when it exists. It must import the client from
// 'service-js' (kept external) so both entries share one module and one default `service` instance.
const entry: Record<string, string> = { index: 'src/index.ts' }
if (existsSync('src/react/index.ts')) entry.react = 'src/react/index.ts'

export default defineConfig([
  {
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'es2020',
    platform: 'browser',
    external: ['react', 'react-dom', 'service-js'],
  },
  {
    entry: { service: 'src/iife.ts' },
    format: ['iife'],
    outExtension: () => ({ js: '.iife.js' }),
    minify: true,
    target: 'es2020',
    platform: 'browser',
  },
])
