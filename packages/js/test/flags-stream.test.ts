import { beforeEach, describe, expect, it, vi } from 'vitest'
import { clearStorage, client, network, settle, token } from './helpers'

/**
 * The browser's EventSource as the client sees it (happy-dom has none): the test opens, fails and feeds each
 * connection. The browser tests (e2e/realtime-flags.test.ts) use Chromium's against a started service.
 */
class FakeSource {
  static all: FakeSource[] = []
  onopen: (() => void) | null = null
  onmessage: ((e: { data: string }) => void) | null = null
  onerror: (() => void) | null = null
  closed = false
  constructor(readonly url: string) {
    FakeSource.all.push(this)
  }
  close() {
    this.closed = true
  }
}
/** The connections made for a token (clients of earlier tests may reconnect too), or those still open. */
const mine = (tok: string, open = false) => FakeSource.all.filter((s) => s.url.endsWith(tok) && !(open && s.closed))
const last = (tok: string) => mine(tok).at(-1)!

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
  setHidden(false)
  // after the tab's return above: clients of earlier tests are still listening (with their own tokens)
  FakeSource.all = []
  vi.stubGlobal('EventSource', FakeSource)
})

function setHidden(hidden: boolean) {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden })
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }))
}

const v2 = (enabled: boolean) => ({
  flags: { 'new-ui': { key: 'new-ui', enabled, variant: null, metadata: { id: 1, version: 1, payload: null } } },
  errorsWhileComputingFlags: false,
  requestId: 'r',
})
const notice = (s: FakeSource, data = { type: 'refetchEvaluation', etag: '7' }) => s.onmessage!({ data: JSON.stringify(data) })
const streaming = (tok: string, options = {}) =>
  client(tok, { advanced_disable_flags: false, api_host: 'https://svc.example.com', realtime_flags: true, ...options })

describe('realtime_flags', () => {
  it('listens to <api_host>/flags/stream?token=… and reloads /flags on a refetchEvaluation notice; the flag store changes', async () => {
    const tok = token()
    net.flags = v2(false)
    const c = streaming(tok)
    await settle()
    expect(mine(tok).map((s) => s.url)).toEqual([`https://svc.example.com/flags/stream?token=${tok}`])
    expect(net.flagRequests(tok)).toHaveLength(1)
    expect(c.isFeatureEnabled('new-ui', { send_event: false })).toBe(false)
    const seen: boolean[] = []
    c.flagStore.subscribe(() => seen.push(!!c.flagStore.getSnapshot().flags['new-ui']))
    net.flags = v2(true)
    notice(last(tok))
    await settle()
    expect(net.flagRequests(tok)).toHaveLength(2)
    expect(c.isFeatureEnabled('new-ui', { send_event: false })).toBe(true)
    expect(seen).toContain(true)
  })

  it('merges a burst of notices into one reload, and ignores other messages and malformed data', async () => {
    const tok = token()
    streaming(tok)
    await settle()
    const s = last(tok)
    notice(s, { type: 'something-else', etag: '1' })
    s.onmessage!({ data: 'not json' })
    await settle()
    expect(net.flagRequests(tok)).toHaveLength(1)
    for (let i = 0; i < 5; i++) notice(s)
    await settle()
    expect(net.flagRequests(tok)).toHaveLength(2)
  })

  it('opens no stream without the option, or with advanced_disable_flags', async () => {
    const [a, b] = [token(), token()]
    client(a, { advanced_disable_flags: false })
    client(b, { advanced_disable_flags: true, realtime_flags: true })
    await settle()
    expect([...mine(a), ...mine(b)]).toHaveLength(0)
  })

  it('reconnects with growing, jittered delays after failures, and reloads once connected again', async () => {
    vi.useFakeTimers()
    vi.spyOn(Math, 'random').mockReturnValue(0.999)
    const tok = token()
    streaming(tok)
    await vi.advanceTimersByTimeAsync(10)
    expect(net.flagRequests(tok)).toHaveLength(1)
    // the first failure waits 1–2 s (2 s with this random), the next 2–4 s
    last(tok).onerror!()
    expect(last(tok).closed).toBe(true)
    await vi.advanceTimersByTimeAsync(1900)
    expect(mine(tok)).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(200)
    expect(mine(tok)).toHaveLength(2)
    last(tok).onerror!()
    await vi.advanceTimersByTimeAsync(3900)
    expect(mine(tok)).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(200)
    expect(mine(tok)).toHaveLength(3)
    // connected again: what changed meanwhile is asked for
    last(tok).onopen!()
    await vi.advanceTimersByTimeAsync(10)
    expect(net.flagRequests(tok)).toHaveLength(2)
    // the back-off starts over after a connection
    last(tok).onerror!()
    await vi.advanceTimersByTimeAsync(2100)
    expect(mine(tok)).toHaveLength(4)
    expect(mine(tok, true)).toHaveLength(1)
  })

  it('gives up after 8 failures in a row (streams blocked): flags keep their usual reloads; a return to the tab tries again', async () => {
    vi.useFakeTimers()
    const tok = token()
    const c = streaming(tok)
    await vi.advanceTimersByTimeAsync(10)
    for (let i = 0; i < 8; i++) {
      last(tok).onerror!()
      await vi.advanceTimersByTimeAsync(60_000)
    }
    expect(mine(tok)).toHaveLength(8)
    await vi.advanceTimersByTimeAsync(600_000)
    expect(mine(tok)).toHaveLength(8)
    expect(mine(tok, true)).toHaveLength(0)
    c.identify('user-1')
    await vi.advanceTimersByTimeAsync(10)
    expect(net.flagRequests(tok)).toHaveLength(2)
    setHidden(true)
    setHidden(false)
    await vi.advanceTimersByTimeAsync(10)
    expect(mine(tok)).toHaveLength(9)
    expect(mine(tok, true)).toHaveLength(1)
    expect(net.flagRequests(tok)).toHaveLength(3)
  })

  it('closes the stream after 120 s in a hidden tab, and on return reopens it and reloads', async () => {
    vi.useFakeTimers()
    const tok = token()
    streaming(tok)
    await vi.advanceTimersByTimeAsync(10)
    setHidden(true)
    await vi.advanceTimersByTimeAsync(119_000)
    expect(mine(tok, true)).toHaveLength(1)
    // back in time: nothing changes, nothing is asked
    setHidden(false)
    setHidden(true)
    await vi.advanceTimersByTimeAsync(119_000)
    expect(mine(tok, true)).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(mine(tok, true)).toHaveLength(0)
    expect(net.flagRequests(tok)).toHaveLength(1)
    setHidden(false)
    await vi.advanceTimersByTimeAsync(10)
    expect(mine(tok)).toHaveLength(2)
    expect(mine(tok, true)).toHaveLength(1)
    expect(net.flagRequests(tok)).toHaveLength(2)
  })

  it('takes the hidden delay from realtime_flags_inactivity_delay_seconds, and counts it from the start in a tab opened hidden', async () => {
    vi.useFakeTimers()
    setHidden(true)
    const tok = token()
    streaming(tok, { realtime_flags_inactivity_delay_seconds: 5 })
    await vi.advanceTimersByTimeAsync(4_000)
    expect(mine(tok, true)).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1_100)
    expect(mine(tok, true)).toHaveLength(0)
  })

  it('never throws into the app: no EventSource (flags load as usual), or one that throws', async () => {
    vi.stubGlobal('EventSource', undefined)
    const tok = token()
    net.flags = v2(true)
    const c = streaming(tok)
    await settle()
    expect(c.isFeatureEnabled('new-ui', { send_event: false })).toBe(true)
    vi.stubGlobal(
      'EventSource',
      class {
        constructor() {
          throw new Error('blocked by policy')
        }
      },
    )
    const other = token()
    const d = streaming(other)
    await settle()
    expect(d.isFeatureEnabled('new-ui', { send_event: false })).toBe(true)
    expect(() => {
      setHidden(true)
      setHidden(false)
    }).not.toThrow()
  })
})
