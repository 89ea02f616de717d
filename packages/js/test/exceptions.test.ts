import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Service } from 'service-js'
import { clearStorage, client, network, token } from './helpers'
import { parseStack } from '../src/exceptions/exceptions'
import { MAX_STEPS, MAX_STEPS_BYTES } from '../src/exceptions/steps'
import { rateLimiter } from '../src/exceptions/rate-limit'

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
})

/** The `$exception` events a client sent. */
const exceptions = async (c: Service, tok: string) => {
  await c.flush()
  return net.events(tok).filter((e) => e.event === '$exception')
}

const CHROME = `TypeError: Cannot read properties of undefined (reading 'x')
    at render (https://app.example.com/assets/index-abc.js:10:15)
    at https://app.example.com/assets/index-abc.js:20:3
    at async Promise.all (index 0)
    at new Widget (https://app.example.com/w.js:5:9)`

const FIREFOX = `render@https://app.example.com/assets/index-abc.js:10:15
@https://app.example.com/assets/index-abc.js:20:3
Widget/<@https://app.example.com/w.js:5:9`

describe('stack parsing', () => {
  it('reads Chrome stacks, oldest frame first', () => {
    expect(parseStack(CHROME).map(({ filename, function: fn, lineno, colno }) => ({ filename, function: fn, lineno, colno }))).toEqual([
      { filename: 'https://app.example.com/w.js', function: 'new Widget', lineno: 5, colno: 9 },
      { filename: 'https://app.example.com/assets/index-abc.js', function: '?', lineno: 20, colno: 3 },
      { filename: 'https://app.example.com/assets/index-abc.js', function: 'render', lineno: 10, colno: 15 },
    ])
  })

  it('marks frames that are not the app’s code: browser extensions, Safari’s masked scripts, <anonymous> and native code', () => {
    const chrome = `Error: x
    at ext (chrome-extension://abcdef/content.js:1:2)
    at Array.map (<anonymous>)
    at evaluated (<anonymous>:3:4)
    at Object.keys (native)
    at app (https://app.example.com/assets/app.js:7:8)`
    const safari = `masked@webkit-masked-url://hidden/:1:2
ff@moz-extension://1234/inject.js:5:6
app@https://app.example.com/assets/app.js:7:8`
    expect(parseStack(chrome).map((f) => [f.function, f.filename, f.in_app, f.lineno])).toEqual([
      ['app', 'https://app.example.com/assets/app.js', true, 7],
      ['Object.keys', 'native', false, undefined],
      ['evaluated', '<anonymous>', false, 3],
      ['Array.map', '<anonymous>', false, undefined],
      ['ext', 'chrome-extension://abcdef/content.js', false, 1],
    ])
    expect(parseStack(chrome)[3]).not.toHaveProperty('lineno')
    expect(parseStack(safari).map((f) => [f.filename, f.in_app])).toEqual([
      ['https://app.example.com/assets/app.js', true],
      ['moz-extension://1234/inject.js', false],
      ['webkit-masked-url://hidden/', false],
    ])
  })

  it('reads Firefox/Safari stacks', () => {
    expect(parseStack(FIREFOX).map((f) => [f.function, f.filename, f.lineno, f.colno])).toEqual([
      ['Widget/<', 'https://app.example.com/w.js', 5, 9],
      ['?', 'https://app.example.com/assets/index-abc.js', 20, 3],
      ['render', 'https://app.example.com/assets/index-abc.js', 10, 15],
    ])
  })
})

describe('$exception', () => {
  it('captureException sends type, message and the parsed stack', async () => {
    const tok = token()
    const c = client(tok)
    const err = new TypeError("Cannot read properties of undefined (reading 'x')")
    err.stack = CHROME
    c.captureException(err, { area: 'checkout' })
    await c.flush()
    const [ev] = net.events(tok)
    expect(ev.event).toBe('$exception')
    expect(ev.properties).toMatchObject({
      $exception_type: 'TypeError',
      $exception_message: "Cannot read properties of undefined (reading 'x')",
      area: 'checkout',
    })
    const [item] = ev.properties.$exception_list
    expect(item).toMatchObject({ type: 'TypeError', value: "Cannot read properties of undefined (reading 'x')", mechanism: { handled: true } })
    expect(item.stacktrace.frames.at(-1)).toMatchObject({ filename: 'https://app.example.com/assets/index-abc.js', function: 'render', lineno: 10, colno: 15 })
  })

  it('calls made before init, or while the extension loads, are sent once it runs, with the time they were made', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const tok = token()
    const c = new Service()
    c.addExceptionStep('before init')
    c.captureException(new Error('before init'))
    const at = Date.now()
    vi.setSystemTime(at + 60_000)
    c.init(tok, { autocapture: false, capture_pageview: false, advanced_disable_flags: true })
    c.captureException(new Error('while loading'))
    const [early, loading] = await exceptions(c, tok)
    expect(early.properties.$exception_message).toBe('before init')
    expect(Date.parse(early.timestamp)).toBe(at)
    expect(early.properties.$exception_steps.map((s: { $message: string }) => s.$message)).toEqual(['before init'])
    expect(loading.properties.$exception_message).toBe('while loading')
    expect(Date.parse(loading.timestamp)).toBe(at + 60_000)
  })

  it('accepts non-Error values and follows `cause`', async () => {
    const tok = token()
    const c = client(tok)
    c.captureException('just a string')
    c.captureException(new Error('outer', { cause: new RangeError('inner') }))
    await c.flush()
    const [a, b] = net.events(tok)
    expect(a.properties).toMatchObject({ $exception_type: 'Error', $exception_message: 'just a string' })
    expect(b.properties.$exception_list.map((x: { type: string; value: string }) => [x.type, x.value])).toEqual([
      ['Error', 'outer'],
      ['RangeError', 'inner'],
    ])
  })

  it('captures uncaught errors and unhandled rejections only with capture_exceptions', async () => {
    const off = token()
    const on = token()
    const quiet = client(off)
    const c = client(on, { capture_exceptions: true })
    const err = new Error('boom')
    err.stack = FIREFOX
    dispatchEvent(new ErrorEvent('error', { error: err, message: 'boom' }))
    dispatchEvent(new ErrorEvent('error', { message: 'Script error.', filename: 'https://cdn.example.com/x.js', lineno: 1, colno: 2 }))
    const rejection = new Event('unhandledrejection') as PromiseRejectionEvent
    Object.defineProperty(rejection, 'reason', { value: { code: 42 } })
    dispatchEvent(rejection)
    await c.flush()
    await quiet.flush()
    expect(net.events(off)).toEqual([])
    const evs = net.events(on)
    expect(evs.map((e) => [e.properties.$exception_type, e.properties.$exception_message])).toEqual([
      ['Error', 'boom'],
      ['Error', 'Script error.'],
      ['UnhandledRejection', '{"code":42}'],
    ])
    expect(evs[0].properties.$exception_list[0].mechanism).toMatchObject({ handled: false, type: 'onerror' })
    expect(evs[1].properties.$exception_list[0].stacktrace.frames[0]).toMatchObject({ filename: 'https://cdn.example.com/x.js', lineno: 1, colno: 2 })
  })
})

describe('exception steps ($exception_steps)', () => {
  it('sends pageviews, clicks and custom steps before the error, oldest first, then clears them', async () => {
    const tok = token()
    // capture_exceptions loads the extension at init, so the trail starts there (the first pageview included)
    const c = client(tok, { capture_pageview: true, autocapture: true, capture_exceptions: true })
    document.body.innerHTML = '<button class="buy">Buy now</button><div id="plain">text</div>'
    document.querySelector('button')!.click()
    document.getElementById('plain')!.click() // not a click autocapture records: no step
    c.addExceptionStep('Opened checkout', { cart_id: 'c_19' })
    c.capture('custom event') // plain events are no steps
    c.captureException(new Error('first'))
    c.addExceptionStep('Retried')
    c.captureException(new Error('second'))
    c.captureException(new Error('third'))
    const [first, second, third] = await exceptions(c, tok)
    const steps = first.properties.$exception_steps
    expect(steps.map((s: { $type: string; $message: string }) => [s.$type, s.$message])).toEqual([
      ['pageview', `Viewed ${location.pathname}`],
      ['click', 'Clicked button "Buy now"'],
      ['custom', 'Opened checkout'],
    ])
    expect(steps[0]).toMatchObject({ $current_url: location.href })
    expect(steps[2]).toMatchObject({ cart_id: 'c_19' })
    for (const step of steps) expect(Date.parse(step.$timestamp)).toBeLessThanOrEqual(Date.parse(first.timestamp))
    // cleared once sent: the next exception carries only what came after
    expect(second.properties.$exception_steps.map((s: { $message: string }) => s.$message)).toEqual(['Retried'])
    expect(third.properties).not.toHaveProperty('$exception_steps')
  })

  it('keeps the last 20 steps, and about 32 KB of them', async () => {
    const tok = token()
    const c = client(tok)
    for (let i = 0; i < 25; i++) c.addExceptionStep(`step ${i}`)
    c.captureException(new Error('after many'))
    for (let i = 0; i < 5; i++) c.addExceptionStep(`big ${i}`, { blob: 'x'.repeat(10_000) })
    c.addExceptionStep('too big alone', { blob: 'x'.repeat(MAX_STEPS_BYTES) })
    c.captureException(new Error('after big ones'))
    const [many, big] = await exceptions(c, tok)
    expect(many.properties.$exception_steps).toHaveLength(MAX_STEPS)
    expect(many.properties.$exception_steps[0].$message).toBe('step 5')
    expect(many.properties.$exception_steps.at(-1).$message).toBe('step 24')
    expect(big.properties.$exception_steps.map((s: { $message: string }) => s.$message)).toEqual(['big 2', 'big 3', 'big 4'])
    expect(JSON.stringify(big.properties.$exception_steps).length).toBeLessThanOrEqual(MAX_STEPS_BYTES)
  })

  it('without capture_exceptions, the trail starts when the extension loads (the first captureException or addExceptionStep)', async () => {
    const tok = token()
    const c = client(tok, { capture_pageview: true })
    c.addExceptionStep('loads it')
    c.capture('$pageview') // while it loads: kept for it
    await c.flush()
    c.captureException(new Error('x'))
    const [ev] = await exceptions(c, tok)
    expect(ev.properties.$exception_steps.map((s: { $message: string }) => s.$message)).toEqual(['loads it', `Viewed ${location.pathname}`])
  })

  it('includes the pageview captured while the exceptions chunk loaded (capture_exceptions)', async () => {
    const tok = token()
    const c = client(tok, { capture_exceptions: true, capture_pageview: true })
    c.captureException(new Error('early'))
    const [ev] = await exceptions(c, tok)
    expect(ev.properties.$exception_steps.map((s: { $type: string }) => s.$type)).toEqual(['pageview'])
  })

  it('a step whose properties cannot all be sent keeps the rest; later changes of the app’s object do not reach it', async () => {
    const tok = token()
    const c = client(tok)
    const props: Record<string, unknown> = { big: 10n, n: 1 }
    props.self = props
    expect(() => c.addExceptionStep('odd', props)).not.toThrow()
    await c.flush()
    props.n = 2
    c.captureException(new Error('x'))
    const [ev] = await exceptions(c, tok)
    // the loop is cut where it comes back (as in any event)
    expect(ev.properties.$exception_steps[0]).toEqual(expect.objectContaining({ $message: 'odd', big: '10', n: 1, self: { big: '10', n: 1 } }))
  })
})

describe('rate limit', () => {
  it('sends 10 exceptions of a type, then 1 per 10 seconds; other types are counted apart', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const tok = token()
    const c = client(tok)
    for (let i = 0; i < 15; i++) c.captureException(new TypeError(`loop ${i}`))
    c.captureException(new RangeError('another type'))
    await c.flush()
    vi.setSystemTime(Date.now() + 10_000)
    c.captureException(new TypeError('after 10 s'))
    c.captureException(new TypeError('dropped again'))
    vi.setSystemTime(Date.now() + 20_000)
    c.captureException(new TypeError('after 20 s more: 1'))
    c.captureException(new TypeError('after 20 s more: 2'))
    c.captureException(new TypeError('after 20 s more: dropped'))
    const evs = await exceptions(c, tok)
    expect(evs.map((e) => e.properties.$exception_message)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `loop ${i}`),
      'another type',
      'after 10 s',
      'after 20 s more: 1',
      'after 20 s more: 2',
    ])
  })

  it('keeps at most 1,000 types: past them the oldest bucket goes (and that type starts full again)', () => {
    const allowed = rateLimiter()
    for (let i = 0; i < 10; i++) expect(allowed('Spent', 0)).toBe(true)
    expect(allowed('Spent', 0)).toBe(false)
    for (let i = 0; i < 999; i++) allowed(`Type${i}`, 0)
    expect(allowed('Spent', 0)).toBe(false)
    allowed('OneMore', 0)
    expect(allowed('Spent', 0)).toBe(true)
  })

  it('applies to uncaught errors too, and a dropped exception keeps its steps for the next one', async () => {
    const tok = token()
    const c = client(tok, { capture_exceptions: true })
    await c.loadExtension('exceptions')
    for (let i = 0; i < 10; i++) dispatchEvent(new ErrorEvent('error', { error: new SyntaxError(`uncaught ${i}`) }))
    c.addExceptionStep('before the dropped one')
    dispatchEvent(new ErrorEvent('error', { error: new SyntaxError('dropped') }))
    c.captureException(new Error('sent'))
    const evs = await exceptions(c, tok)
    expect(evs).toHaveLength(11)
    expect(evs.at(-1).properties.$exception_steps.map((s: { $message: string }) => s.$message)).toEqual(['before the dropped one'])
  })
})

describe('release and robustness', () => {
  it('sends the release option as $release on $exception events only', async () => {
    const tok = token()
    const c = client(tok, { release: 'web@1.4.2' })
    c.capture('plain')
    c.captureException(new Error('x'))
    const without = token()
    const d = client(without)
    d.captureException(new Error('y'))
    await c.flush()
    const [plain, exception] = net.events(tok)
    expect(exception.properties.$release).toBe('web@1.4.2')
    expect(plain.properties).not.toHaveProperty('$release')
    const [other] = await exceptions(d, without)
    expect(other.properties).not.toHaveProperty('$release')
  })

  it('captureException and addExceptionStep never throw, whatever they are given', async () => {
    const tok = token()
    const c = client(tok)
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('no reading me')
        },
        has() {
          throw new Error('no asking me')
        },
      },
    )
    const loop = new Error('loop') as Error & { cause?: unknown }
    loop.cause = loop
    const frozen = Object.freeze(new Error('frozen'))
    const circular: Record<string, unknown> = {}
    circular.me = circular
    const calls = [
      () => c.captureException(hostile),
      () => c.captureException(loop),
      () => c.captureException(frozen, circular),
      () => c.captureException(undefined),
      () => c.captureException(null, { n: 1n }),
      () => c.addExceptionStep(undefined as unknown as string, hostile as Record<string, unknown>),
      () => c.addExceptionStep('fine'),
    ]
    for (const call of calls) expect(call).not.toThrow()
    const evs = await exceptions(c, tok)
    expect(evs.map((e) => e.properties.$exception_message)).toEqual(expect.arrayContaining(['loop', 'frozen']))
    expect(evs.find((e) => e.properties.$exception_message === 'loop').properties.$exception_list).toHaveLength(5)
  })
})
