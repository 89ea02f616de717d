import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'

// dist/ comes from `tsup`, which the package's `npm test` runs before vitest.
const dist = (f: string) => join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', f)
const read = (f: string) => {
  const path = dist(f)
  if (!existsSync(path)) throw new Error(`dist/${f} is missing: run \`npx tsup\` (npm test does) before the size check`)
  return readFileSync(path)
}

describe('bundle', () => {
  it('the IIFE with everything stays within 15 000 bytes gzip (level 9)', () => {
    const gz = gzipSync(read('service.iife.js'), { level: 9 }).length
    console.log(`service.iife.js: ${gz} bytes gzip`)
    expect(gz).toBeLessThanOrEqual(15_000)
  })

  it('the IIFE exposes window.service, an uninitialised client', () => {
    new Function(read('service.iife.js').toString())()
    const s = (window as unknown as { service: { init: unknown; capture: unknown; __loaded: boolean } }).service
    expect(typeof s.init).toBe('function')
    expect(typeof s.capture).toBe('function')
    expect(s.__loaded).toBe(false)
  })

  it('ESM and CJS builds have no runtime dependencies', () => {
    expect(read('index.js').toString()).not.toMatch(/\bfrom\s*['"]|\bimport\s*\(|\brequire\(/)
    expect(read('index.cjs').toString()).not.toMatch(/\brequire\(['"](?!service-js)/)
  })
})
