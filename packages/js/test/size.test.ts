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

/** Files minified as an app's bundler ships them (their imports stay imports), together, gzipped at level 9. */
const minifiedGzip = (...f: string[]) =>
  gzipSync(f.map((x) => transformSync(read(x).toString(), { minify: true, format: 'esm', target: 'es2020' }).code).join(''), { level: 9 }).length
/** The chunks a file imports (`./chunk-….js`, with or without names). */
const chunksOf = (f: string) =>
  [
    ...read(f)
      .toString()
      .matchAll(/(?:from\s*|import\s*)"\.\/(chunk-[\w-]+\.js)"/g),
  ].map((m) => m[1])
/** The chunks react.js loads, transitively. */
const reactChunks = () => {
  const seen = new Set<string>()
  const walk = (f: string) => chunksOf(f).forEach((c) => !seen.has(c) && (seen.add(c), walk(c)))
  walk('react.js')
  return [...seen]
}
/** The chunk of react.js's that holds `text`: tsup.config.ts makes the error boundary and the survey hooks chunks of their own. */
const reactChunk = (text: string) => {
  const chunk = reactChunks().find((c) => read(c).toString().includes(text))
  if (!chunk) throw new Error(`no chunk of react.js holds ${text}`)
  return chunk
}
const boundaryChunk = () => reactChunk('React ErrorBoundary')

describe('bundle', () => {
  it('the IIFE stays within 9 408 bytes gzip (level 9); lazy extensions are not in it', () => {
    const gz = gzipSync(read('service.iife.js'), { level: 9 }).length
    console.log(`service.iife.js: ${gz} bytes gzip`)
    // Session replay's share is some 460 bytes: its decision (sampling, linked flag, the calls), the queue for /s/
    // (kept in sessionStorage) and the 24-hour session rule; the recorder itself is the `replay` extension
    // `realtime_flags` (the flag stream: back-off, the hidden tab's delay, the fallback) is some 265 bytes
    expect(gz).toBeLessThanOrEqual(9408)
    // uncaught-error capture, stack parsing, the steps and the rate limit are in the `exceptions` extension
    for (const text of ['onunhandledrejection', 'webkit-masked-url', '$exception_steps']) expect(read('service.iife.js').toString()).not.toContain(text)
  })

  it('each lazy extension is a script of its own in dist/static/, named with the version, that hands its module to the IIFE', () => {
    const chunk = read(`static/exceptions.${version}.js`).toString()
    for (const text of ['onunhandledrejection', 'webkit-masked-url', '$exception_steps']) expect(chunk).toContain(text)
    // A classic script: its top-level `var __service_extensions` is the page's global.
    const registry = new Function(`${chunk}; return __service_extensions`)()
    expect(registry.exceptions.default).toMatchObject({ name: 'exceptions', start: expect.any(Function) })
    const surveys = new Function(`${read(`static/surveys.${version}.js`)}; return __service_extensions`)()
    expect(surveys.surveys.default).toMatchObject({ name: 'surveys', start: expect.any(Function) })
    expect(read('service.iife.js').toString()).toContain('/static/')
  })

  it('the surveys extension stays within 12 288 bytes gzip (posthog-js’s surveys.js: 48.7 KB), and none of it is in the IIFE', () => {
    const gz = gzipSync(read(`static/surveys.${version}.js`), { level: 9 }).length
    console.log(`static/surveys.${version}.js: ${gz} bytes gzip`)
    expect(gz).toBeLessThanOrEqual(12288)
    // the renderer, the rules and the events are in the chunk; the IIFE has only the calls and the trigger
    const iife = read('service.iife.js').toString()
    for (const text of ['svc-survey', '$survey_questions', 'seenSurvey_', 'lastSeenSurveyDate']) expect(iife).not.toContain(text)
    for (const text of ['getActiveMatchingSurveys', 'survey-targeting-']) expect(iife).toContain(text)
  })

  it('the replay extension (rrweb’s recorder) stays within 24 576 bytes gzip (posthog-js’s recorder.js: 46.5 KB), and none of it is in the IIFE', () => {
    const chunk = read(`static/replay.${version}.js`)
    const gz = gzipSync(chunk, { level: 9 }).length
    console.log(`static/replay.${version}.js: ${gz} bytes gzip`)
    expect(gz).toBeLessThanOrEqual(24576)
    const registry = new Function(`${chunk}; return __service_extensions`)()
    expect(registry.replay.default).toMatchObject({ name: 'replay', start: expect.any(Function) })
    const iife = read('service.iife.js').toString()
    for (const text of ['rr_width', 'rrweb/console@1', 'takeFullSnapshot']) expect(iife).not.toContain(text)
    for (const text of ['sessionRecording', 'startSessionRecording', '/s/']) expect(iife).toContain(text)
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
          // import and export statements (at a line's start: the replay chunk's rrweb has `from "` in its strings)
          .matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/gm),
      ].map((m) => m[1] ?? m[2])
    const esm = read('index.js').toString()
    expect(esm).toMatch(/\bimport\s*\(\s*["']\.\/exceptions-[\w-]+\.js["']\s*\)/)
    expect(esm).toMatch(/\bimport\s*\(\s*["']\.\/surveys-[\w-]+\.js["']\s*\)/)
    expect(esm).toMatch(/\bimport\s*\(\s*["']\.\/replay-[\w-]+\.js["']\s*\)/)
    for (const file of ['index.js', ...imports('index.js').map((path) => path.slice(2))]) {
      expect(read(file).toString()).not.toMatch(/\brequire\(/)
      for (const path of imports(file)) expect(path).toMatch(/^\.\/[\w-]+\.js$/)
    }
    expect(read('index.cjs').toString()).not.toMatch(/\brequire\(['"](?!service-js)/)
  })

  it('service-js/react stays within 2 112 bytes gzip, minified as an app bundler ships it (PostHog: 5.1 KB)', () => {
    // 2 048 until the survey hooks: their chunk's imports cost react.js some 80 bytes
    const gz = minifiedGzip('react.js')
    console.log(`react.js: ${gz} bytes gzip minified`)
    expect(gz).toBeLessThanOrEqual(2112)
  })

  it('the survey hooks of service-js/react are a chunk of their own, within 2 304 bytes gzip minified with the survey rules they share with the extension', () => {
    const hooks = reactChunk('useSurvey')
    expect(read('react.js').toString()).not.toContain('survey shown')
    const rules = chunksOf(hooks).filter((c) => read(c).toString().includes('$survey_questions'))
    expect(rules).toHaveLength(1)
    const gz = minifiedGzip(hooks, rules[0])
    console.log(`${hooks} + ${rules[0]} (useSurvey, useActiveSurveys): ${gz} bytes gzip minified`)
    expect(gz).toBeLessThanOrEqual(2304)
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
    expect(reactChunks()).toEqual(expect.arrayContaining([boundaryChunk(), reactChunk('useSurvey')]))
    for (const file of ['react.js', ...reactChunks()]) {
      const esm = read(file).toString()
      const imports = [...esm.matchAll(/import\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)].map((m) => ({
        names: m[1].split(',').map((n) => n.trim().split(/\s+as\s+/)[0]),
        from: m[2],
      }))
      for (const i of imports) expect([file, i.from]).toEqual([file, expect.stringMatching(/^(react|react\/jsx-runtime|\.\/index\.js|\.\/chunk-[\w-]+\.js)$/)])
      for (const i of imports.filter((i) => i.from === 'react')) for (const n of i.names) expect(react18).toContain(n)
      expect(esm).not.toMatch(/\bimport\s*\(|\brequire\(/)
      expect(esm).not.toMatch(/class Service\b/)
    }
    expect(read('react.js').toString()).toMatch(/from\s*"react"/)
    expect(read('react.js').toString()).toMatch(/from\s*"\.\/index\.js"/)
    const cjs = read('react.cjs').toString()
    expect(new Set([...cjs.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]))).toEqual(new Set(['react', 'react/jsx-runtime', './index.cjs']))
    expect(read('react.d.ts').toString()).toMatch(/from '\.\/index\.js'/)
    expect(read('react.d.cts').toString()).toMatch(/from '\.\/index\.cjs'/)
  })
})
