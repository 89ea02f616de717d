import { Component, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Service } from 'service-js'
import { setupReactErrorHandler } from '../../src/react'
import { clearStorage, client, network, token } from '../helpers'

// React 19's root error callbacks (this file runs with the workspace's React 19 only; the React 18 lane runs test/react/).

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
  // Rendered outside act(), which would hand uncaught errors to the test instead of onUncaughtError.
  ;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false
})
afterEach(() => vi.restoreAllMocks())

const exceptions = async (c: Service, tok: string) => {
  await c.flush()
  return net.events(tok).filter((e) => e.event === '$exception')
}

function Chart(): ReactNode {
  throw new TypeError('no data')
}

/** A plain boundary of the app's (not ServiceErrorBoundary), for onCaughtError. */
class AppBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override render() {
    return this.state.failed ? 'failed' : this.props.children
  }
}

describe('setupReactErrorHandler on a React 19 root', () => {
  it('onUncaughtError and onCaughtError capture the error with its component stack, then call the callback', async () => {
    const tok = token()
    const c = client(tok)
    const uncaught = vi.fn()
    const caught = vi.fn()
    const root = (onUncaughtError = setupReactErrorHandler(c, uncaught), onCaughtError = setupReactErrorHandler(c, caught)) =>
      createRoot(document.createElement('div'), { onUncaughtError, onCaughtError })
    root().render(<Chart />)
    root().render(
      <AppBoundary>
        <Chart />
      </AppBoundary>,
    )
    await vi.waitFor(() => expect(uncaught.mock.calls.length + caught.mock.calls.length).toBe(2))
    expect(uncaught).toHaveBeenCalledTimes(1)
    expect(caught).toHaveBeenCalledTimes(1)
    expect(uncaught.mock.calls[0][0]).toBeInstanceOf(TypeError)
    expect(caught.mock.calls[0][1].componentStack).toContain('Chart')
    const evs = await exceptions(c, tok)
    expect(evs).toHaveLength(2)
    for (const ev of evs) {
      expect(ev.properties.$exception_list.map((e: { type: string }) => e.type)).toEqual(['TypeError', 'React ErrorBoundary TypeError'])
      expect(ev.properties.$exception_list[0].mechanism).toMatchObject({ handled: true })
    }
  })
})
