import { gunzipSync } from 'node:zlib'
import { afterEach, vi } from 'vitest'
import { Service, type ServiceOptions } from 'service-js'

/* eslint-disable @typescript-eslint/no-explicit-any -- decoded wire JSON */

/** One request as the network saw it, with its body decoded (gunzipped when needed). */
export interface Sent {
  url: string
  method: string
  headers: Record<string, string>
  body: any
  /** The body as handed to fetch/sendBeacon. */
  raw: unknown
}

export type Reply = { status?: number; json?: unknown } | 'network-error' | 'hang'

let n = 0
/** A fresh project token per test, so clients of earlier tests never mix in. */
export const token = () => `phc_test_${++n}_${Math.random().toString(36).slice(2, 8)}`

function decode(raw: unknown): any {
  if (raw == null) return undefined
  const text = typeof raw === 'string' ? raw : gunzipSync(raw as Uint8Array).toString('utf8')
  return JSON.parse(text)
}

/**
 * Stubs `fetch` and `navigator.sendBeacon`. `/flags/` answers `flags` (or what `onFlags` returns),
 * `/e/` answers `capture` (200 by default), `/api/surveys/` answers `surveys`, early access answers `earlyAccess`.
 */
export function network() {
  const sent: Sent[] = []
  const beacons: Sent[] = []
  const net = {
    sent,
    beacons,
    flags: { flags: {}, errorsWhileComputingFlags: false, requestId: 'req-1' } as unknown,
    onFlags: undefined as undefined | ((body: any) => Reply),
    capture: [] as Reply[],
    /** What `/s/` answers, one reply a request in order (200 once they run out). */
    snapshot: [] as Reply[],
    earlyAccess: { earlyAccessFeatures: [] } as unknown,
    /** What `/api/surveys/` answers (or what `onSurveys` returns). */
    surveys: { surveys: [] } as unknown,
    onSurveys: undefined as undefined | (() => Reply),
    beaconResult: true,
    /** Events sent by fetch and by beacon for one token, in order. */
    events(tok: string): any[] {
      return [...sent, ...beacons].filter((r) => r.url.includes('/e/') && r.body?.api_key === tok).flatMap((r) => r.body.batch)
    },
    /** `$snapshot` events sent to `/s/` by fetch and by beacon for one token, in order. */
    snapshots(tok: string): any[] {
      return [...sent, ...beacons].filter((r) => r.url.includes('/s/') && r.body?.api_key === tok).flatMap((r) => r.body.batch)
    },
    flagRequests(tok: string): Sent[] {
      return sent.filter((r) => r.url.includes('/flags/') && r.body?.token === tok)
    },
  }
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const req: Sent = { url, method: init.method ?? 'GET', headers: { ...(init.headers as Record<string, string>) }, raw: init.body, body: decode(init.body) }
    sent.push(req)
    let reply: Reply
    if (url.includes('/flags/')) reply = net.onFlags?.(req.body) ?? { json: net.flags }
    else if (url.includes('/e/')) reply = net.capture.shift() ?? { json: { status: 1 } }
    else if (url.includes('/s/')) reply = net.snapshot.shift() ?? { json: { status: 1 } }
    else if (url.includes('/api/surveys/')) reply = net.onSurveys?.() ?? { json: net.surveys }
    else reply = { json: net.earlyAccess }
    if (reply === 'network-error') throw new TypeError('Failed to fetch')
    if (reply === 'hang') {
      return new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))
    }
    return new Response(JSON.stringify(reply.json ?? {}), { status: reply.status ?? 200, headers: { 'Content-Type': 'application/json' } })
  })
  vi.stubGlobal('fetch', fetchMock)
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: vi.fn((url: string, data: unknown) => {
      beacons.push({ url, method: 'POST', headers: {}, raw: data, body: decode(data) })
      return net.beaconResult
    }),
  })
  return net
}

// After each test: real timers, stubs undone, and a silent fetch, so that timers left by the clients
// of a finished test (flush, retry, flag reload) never reach the network.
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.stubGlobal('fetch', async () => new Response('{}'))
})

/** Clears storage between tests. */
export function clearStorage() {
  localStorage.clear()
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0].trim()
    if (name) document.cookie = `${name}=; max-age=-1; path=/`
  }
}

/** A client with everything automatic switched off unless asked for. */
export function client(tok: string, options: ServiceOptions = {}) {
  return new Service().init(tok, { autocapture: false, capture_pageview: false, advanced_disable_flags: true, ...options })
}

/** Lets pending promises, the 5 ms flag debounce and fetch mocks settle (real timers). */
export const settle = (ms = 20) => new Promise((r) => setTimeout(r, ms))
