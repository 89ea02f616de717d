import { beforeEach, describe, expect, it } from 'vitest'
import { clearStorage, client, network, token } from './helpers'
import { parseStack } from '../src/exceptions/exceptions'

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
})

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
