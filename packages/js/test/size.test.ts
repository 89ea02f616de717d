import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { transformSync } from 'esbuild'
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

  it('service-js/react stays within 2 048 bytes gzip, minified as an app bundler ships it (PostHog: 5.1 KB)', () => {
    const min = transformSync(read('react.js').toString(), { minify: true, format: 'esm', target: 'es2020' }).code
    const gz = gzipSync(min, { level: 9 }).length
    console.log(`react.js: ${gz} bytes gzip minified`)
    expect(gz).toBeLessThanOrEqual(2048)
  })

  it('service-js/react imports only React 18 APIs and the shared service-js module (never a copy of the client)', () => {
    const react18 = ['createContext', 'useCallback', 'useContext', 'useEffect', 'useMemo', 'useRef', 'useState', 'useSyncExternalStore']
    const esm = read('react.js').toString()
    const imports = [...esm.matchAll(/import\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)].map((m) => ({ names: m[1].split(',').map((n) => n.trim().split(/\s+as\s+/)[0]), from: m[2] }))
    expect(new Set(imports.map((i) => i.from))).toEqual(new Set(['react', 'react/jsx-runtime', 'service-js']))
    for (const i of imports.filter((i) => i.from == 'react')) for (const n of i.names) expect(react18).toContain(n)
    expect(esm).not.toMatch(/\bimport\s*\(|\bimport\s*["']|\brequire\(/)
    expect(esm).not.toMatch(/class Service\b/)
    const cjs = read('react.cjs').toString()
    expect(new Set([...cjs.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]))).toEqual(new Set(['react', 'react/jsx-runtime', 'service-js']))
  })
})
