import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { transformSync } from 'esbuild'
import { describe, expect, it } from 'vitest'
import type { Service } from 'service-js'
import { version } from '../package.json'
import { network, token } from './helpers'

// dist/ comes from `npm run build`, which the package's `npm test` runs before vitest.
const dist = (f: string) => join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', f)
const read = (f: string) => {
  const path = dist(f)
  if (!existsSync(path)) throw new Error(`dist/${f} is missing: run \`npm run build\` (npm test does) before the size check`)
  return readFileSync(path)
}

/** A file minified as an app's bundler ships it (its imports stay imports), gzipped at level 9. */
const minifiedGzip = (f: string) => gzipSync(transformSync(read(f).toString(), { minify: true, format: 'esm', target: 'es2020' }).code, { level: 9 }).length
/** The chunk react.js imports the error boundary from (tsup.config.ts makes it one). */
const boundaryChunk = () => {
  const m = /from\s*"\.\/(chunk-[\w-]+\.js)"/.exec(read('react.js').toString())
  if (!m) throw new Error('react.js imports no chunk')
  return m[1]
}

describe('bundle', () => {
  it('the IIFE stays within 8 704 bytes gzip (level 9); lazy extensions are not in it', () => {
    const gz = gzipSync(read('service.iife.js'), { level: 9 }).length
    console.log(`service.iife.js: ${gz} bytes gzip`)
    expect(gz).toBeLessThanOrEqual(8704)
    // uncaught-error capture, stack parsing, the steps and the rate limit are in the `exceptions` extension
    for (const text of ['onunhandledrejection', 'webkit-masked-url', '$exception_steps']) expect(read('service.iife.js').toString()).not.toContain(text)
  })

  it('each lazy extension is a script of its own in dist/static/, named with the version, that hands its module to the IIFE', () => {
    const chunk = read(`static/exceptions.${version}.js`).toString()
    for (const text of ['onunhandledrejection', 'webkit-masked-url', '$exception_steps']) expect(chunk).toContain(text)
    // A classic script: its top-level `var __service_extensions` is the page's global.
    const registry = new Function(`${chunk}; return __service_extensions`)()
    expect(registry.exceptions.default).toMatchObject({ name: 'exceptions', start: expect.any(Function) })
    expect(read('service.iife.js').toString()).toContain('/static/')
  })

  it('the IIFE exposes window.service, an uninitialised client', () => {
    new Function(read('service.iife.js').toString())()
    const s = (window as unknown as { service: { init: unknown; capture: unknown; __loaded: boolean } }).service
    expect(typeof s.init).toBe('function')
    expect(typeof s.capture).toBe('function')
    expect(s.__loaded).toBe(false)
  })

  it('the IIFE still sends captureException (type and message, the first 10) when the exceptions extension cannot load', async () => {
    const net = network()
    new Function(read('service.iife.js').toString())()
    const s = (window as unknown as { service: Service }).service
    const tok = token()
    // happy-dom loads no script: the chunk fails as it would behind a strict Content-Security-Policy
    s.init(tok, { api_host: 'http://127.0.0.1:9', autocapture: false, capture_pageview: false, advanced_disable_flags: true })
    s.captureException(new TypeError('no extension'), { area: 'checkout' })
    s.addExceptionStep('lost with the extension')
    await s.flush()
    const [ev] = net.events(tok)
    expect(ev.event).toBe('$exception')
    expect(ev.properties).toMatchObject({ $exception_type: 'TypeError', $exception_message: 'no extension', area: 'checkout' })
    expect(net.events(tok)).toHaveLength(1)
    // a loop of errors cannot flood the service without the extension's rate limit either
    for (let i = 0; i < 20; i++) s.captureException(new TypeError(`loop ${i}`))
    await s.flush()
    expect(net.events(tok).map((e) => e.properties.$exception_message)).toEqual(['no extension', ...Array.from({ length: 9 }, (_, i) => `loop ${i}`)])
  })

  it('ESM and CJS builds have no runtime dependencies (ESM imports only its own chunks, lazy extensions with import())', () => {
    const imports = (file: string) =>
      [
        ...read(file)
          .toString()
          .matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g),
      ].map((m) => m[1] ?? m[2])
    const esm = read('index.js').toString()
    expect(esm).toMatch(/\bimport\s*\(\s*["']\.\/exceptions-[\w-]+\.js["']\s*\)/)
    for (const file of ['index.js', ...imports('index.js').map((path) => path.slice(2))]) {
      expect(read(file).toString()).not.toMatch(/\brequire\(/)
      for (const path of imports(file)) expect(path).toMatch(/^\.\/[\w-]+\.js$/)
    }
    expect(read('index.cjs').toString()).not.toMatch(/\brequire\(['"](?!service-js)/)
  })

  it('service-js/react stays within 2 048 bytes gzip, minified as an app bundler ships it (PostHog: 5.1 KB)', () => {
    const gz = minifiedGzip('react.js')
    console.log(`react.js: ${gz} bytes gzip minified`)
    expect(gz).toBeLessThanOrEqual(2048)
  })

  it('the error boundary of service-js/react is a chunk of its own, within 1 024 bytes gzip minified', () => {
    const chunk = boundaryChunk()
    expect(read(chunk).toString()).toContain('React ErrorBoundary')
    expect(read('react.js').toString()).not.toContain('React ErrorBoundary')
    const gz = minifiedGzip(chunk)
    console.log(`${chunk} (ServiceErrorBoundary, setupReactErrorHandler): ${gz} bytes gzip minified`)
    expect(gz).toBeLessThanOrEqual(1024)
  })

  it('service-js/react imports only React 18 APIs and the sibling service-js module (never a copy of the client, never the package by name)', () => {
    const react18 = ['Component', 'createContext', 'useCallback', 'useContext', 'useEffect', 'useMemo', 'useRef', 'useState', 'useSyncExternalStore']
    const chunk = boundaryChunk()
    for (const file of ['react.js', chunk]) {
      const esm = read(file).toString()
      const imports = [...esm.matchAll(/import\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)].map((m) => ({
        names: m[1].split(',').map((n) => n.trim().split(/\s+as\s+/)[0]),
        from: m[2],
      }))
      const expected = ['react', 'react/jsx-runtime', './index.js', ...(file === 'react.js' ? [`./${chunk}`] : [])]
      expect(new Set(imports.map((i) => i.from))).toEqual(new Set(expected))
      for (const i of imports.filter((i) => i.from === 'react')) for (const n of i.names) expect(react18).toContain(n)
      expect(esm).not.toMatch(/\bimport\s*\(|\bimport\s*["']|\brequire\(/)
      expect(esm).not.toMatch(/class Service\b/)
    }
    const cjs = read('react.cjs').toString()
    expect(new Set([...cjs.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]))).toEqual(new Set(['react', 'react/jsx-runtime', './index.cjs']))
    expect(read('react.d.ts').toString()).toMatch(/from '\.\/index\.js'/)
    expect(read('react.d.cts').toString()).toMatch(/from '\.\/index\.cjs'/)
  })
})
