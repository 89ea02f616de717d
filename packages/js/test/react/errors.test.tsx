import { useState } from 'react'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Service } from 'service-js'
import { ServiceErrorBoundary, ServiceProvider, setupReactErrorHandler, withComponentStack, type ServiceErrorBoundaryFallbackProps } from '../../src/react'
import { clearStorage, client, network, token } from '../helpers'

/* eslint-disable @typescript-eslint/no-explicit-any -- decoded wire JSON */

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
  // React reports the errors its boundaries catch on the console; these tests throw on purpose.
  vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const exceptions = async (c: Service, tok: string) => {
  await c.flush()
  return net.events(tok).filter((e) => e.event === '$exception')
}

/** Throws while `broken.now` is true. */
const broken = { now: true }
function Thrower(): never | string {
  if (broken.now) throw new TypeError('price is undefined')
  return 'recovered'
}

describe('ServiceErrorBoundary', () => {
  it('renders the fallback element and captures the error with its component stack as a second exception', async () => {
    broken.now = true
    const tok = token()
    const c = client(tok)
    render(
      <ServiceProvider client={c}>
        <ServiceErrorBoundary fallback={<p>Something went wrong</p>} additionalProperties={{ area: 'checkout' }}>
          <Thrower />
        </ServiceErrorBoundary>
      </ServiceProvider>,
    )
    expect(screen.getByText('Something went wrong')).toBeTruthy()
    const [ev] = await exceptions(c, tok)
    expect(ev.properties).toMatchObject({ $exception_type: 'TypeError', $exception_message: 'price is undefined', area: 'checkout' })
    const [thrown, stack] = ev.properties.$exception_list
    expect(thrown).toMatchObject({ type: 'TypeError', value: 'price is undefined', mechanism: { handled: true } })
    expect(thrown.stacktrace.frames.at(-1).function).toBe('Thrower')
    expect(stack).toMatchObject({ type: 'React ErrorBoundary TypeError', value: 'price is undefined' })
    expect(stack.stacktrace.frames.map((f: any) => f.function)).toContain('Thrower')
    expect(ev.properties.$exception_list).toHaveLength(2)
  })

  it('a fallback function gets the error, the component stack and reset; reset renders the children again', async () => {
    broken.now = true
    const tok = token()
    const c = client(tok)
    const seen: ServiceErrorBoundaryFallbackProps[] = []
    const extra = vi.fn((error: unknown, info: { componentStack?: string | null }) => ({ had_stack: !!info.componentStack, message: (error as Error).message }))
    render(
      <ServiceProvider client={c}>
        <ServiceErrorBoundary
          additionalProperties={extra}
          fallback={(props) => {
            seen.push(props)
            return <button onClick={props.reset}>Retry</button>
          }}
        >
          <Thrower />
        </ServiceErrorBoundary>
      </ServiceProvider>,
    )
    const last = seen.at(-1)!
    expect(last.error).toBeInstanceOf(TypeError)
    expect(last.componentStack).toContain('Thrower')
    broken.now = false
    fireEvent.click(screen.getByText('Retry'))
    expect(screen.getByText('recovered')).toBeTruthy()
    const [ev] = await exceptions(c, tok)
    expect(ev.properties).toMatchObject({ had_stack: true, message: 'price is undefined' })
    expect(extra).toHaveBeenCalledTimes(1)
  })

  it('a fallback that uses hooks works (it is rendered as a component); errors after reset are captured again', async () => {
    broken.now = true
    const tok = token()
    const c = client(tok)
    function Fallback({ reset }: ServiceErrorBoundaryFallbackProps) {
      const [clicks, setClicks] = useState(0)
      return <button onClick={() => (clicks ? reset() : setClicks(1))}>clicked {clicks}</button>
    }
    render(
      <ServiceProvider client={c}>
        <ServiceErrorBoundary fallback={Fallback}>
          <Thrower />
        </ServiceErrorBoundary>
      </ServiceProvider>,
    )
    fireEvent.click(screen.getByText('clicked 0'))
    fireEvent.click(screen.getByText('clicked 1'))
    // still broken: caught again
    expect(screen.getByText('clicked 0')).toBeTruthy()
    expect(await exceptions(c, tok)).toHaveLength(2)
  })

  it('without a provider it captures with the default instance; additionalProperties that throw, or no fallback, break nothing', async () => {
    broken.now = true
    const { service } = await import('service-js')
    const tok = token()
    service.init(tok, { autocapture: false, capture_pageview: false, advanced_disable_flags: true })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { container } = render(
      <ServiceErrorBoundary
        additionalProperties={() => {
          throw new Error('bad properties')
        }}
      >
        <Thrower />
      </ServiceErrorBoundary>,
    )
    expect(container.innerHTML).toBe('')
    const [ev] = await exceptions(service, tok)
    expect(ev.properties.$exception_message).toBe('price is undefined')
    expect(warn.mock.calls.map((a) => String(a[0]))).toEqual(
      expect.arrayContaining([expect.stringContaining('bad properties'), expect.stringContaining('no `fallback`')]),
    )
  })
})

describe('setupReactErrorHandler', () => {
  it('captures the error with its component stack, then calls the callback', async () => {
    const tok = token()
    const c = client(tok)
    const capture = vi.spyOn(c, 'captureException')
    const order: string[] = []
    const callback = vi.fn(() => order.push(capture.mock.calls.length ? 'after capture' : 'before capture'))
    const onError = setupReactErrorHandler(c, callback)
    const error = new RangeError('out of range')
    const info = { componentStack: '\n    at Chart (https://app.example.com/assets/index.js:1:200)\n    at App (https://app.example.com/assets/index.js:1:50)' }
    onError(error, info)
    expect(callback).toHaveBeenCalledWith(error, info)
    expect(order).toEqual(['after capture'])
    const [ev] = await exceptions(c, tok)
    expect(ev.properties.$exception_list.map((e: any) => e.type)).toEqual(['RangeError', 'React ErrorBoundary RangeError'])
    expect(ev.properties.$exception_list[1].stacktrace.frames.map((f: any) => f.function)).toEqual(['App', 'Chart'])
  })

  it('never throws: not with a callback that throws, a missing errorInfo or an odd value', async () => {
    const tok = token()
    const c = client(tok)
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const onError = setupReactErrorHandler(c, () => {
      throw new Error('callback broke')
    })
    expect(() => onError(new Error('a'), { componentStack: 'at X (https://x/y.js:1:2)' })).not.toThrow()
    expect(() => onError('just a string', undefined as never)).not.toThrow()
    expect(() => setupReactErrorHandler(undefined as never)(new Error('no client'), {})).not.toThrow()
    const evs = await exceptions(c, tok)
    expect(evs.map((e) => e.properties.$exception_message)).toEqual(['a', 'just a string'])
  })
})

describe('withComponentStack', () => {
  it('puts the component stack at the end of the cause chain without changing the error', () => {
    const inner = new Error('db down')
    const outer = new Error('save failed', { cause: inner })
    const linked = withComponentStack(outer, '\n    at Form (https://x/app.js:1:2)') as any
    expect(outer.cause).toBe(inner)
    expect(inner.cause).toBeUndefined()
    expect([linked.message, linked.cause.message, linked.cause.cause.name]).toEqual(['save failed', 'db down', 'React ErrorBoundary Error'])
    expect(linked.cause.cause.stack).toContain('at Form')
    expect(withComponentStack(outer, '')).toBe(outer)
    const loop = new Error('loop') as Error & { cause?: unknown }
    loop.cause = loop
    expect(() => withComponentStack(loop, 'at X (https://x/y.js:1:2)')).not.toThrow()
  })
})
