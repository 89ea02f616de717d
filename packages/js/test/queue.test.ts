import { beforeEach, describe, expect, it, vi } from 'vitest'
import { clearStorage, client, network, token } from './helpers'
import { backoff } from '../src/core/queue'

let net: ReturnType<typeof network>
const posts = (tok: string) => net.sent.filter((r) => r.url.includes('/e/') && r.body.api_key === tok)
/** The unsent queue as stored for `tok`, or null when nothing is stored. */
const stored = (tok: string) => JSON.parse(localStorage.getItem(`svc_${tok}_queue`) ?? 'null')

describe('event queue', () => {
  beforeEach(() => {
    clearStorage()
    net = network()
    // Timing tests run on the uncompressed path: real gzip completes on libuv's pool, in real time,
    // which fake timers cannot advance. Compression has its own tests below, with real timers.
    vi.stubGlobal('CompressionStream', undefined)
    vi.useFakeTimers()
  })

  it('flushes every 3 s to POST {api_host}/e/ with {api_key, batch, sent_at}', async () => {
    const tok = token()
    const c = client(tok, { api_host: 'https://svc.example.com/' })
    c.capture('one', { a: 1 })
    c.capture('two')
    await vi.advanceTimersByTimeAsync(2900)
    expect(net.events(tok)).toEqual([])
    await vi.advanceTimersByTimeAsync(200)
    const [req] = posts(tok)
    expect(req.method).toBe('POST')
    expect(req.url).toBe('https://svc.example.com/e/')
    expect(req.headers['Content-Type']).toBe('text/plain')
    expect(req.body.api_key).toBe(tok)
    expect(Date.parse(req.body.sent_at)).not.toBeNaN()
    expect(req.body.batch.map((e: { event: string }) => e.event)).toEqual(['one', 'two'])
  })

  it('flushes at once when 50 events are queued', async () => {
    const tok = token()
    const c = client(tok)
    for (let i = 0; i < 50; i++) c.capture('e' + i)
    await vi.advanceTimersByTimeAsync(0)
    expect(net.events(tok)).toHaveLength(50)
  })

  it('retries network errors, 5xx and 429 after 3 s, 6 s, 12 s…, then sends each event once', async () => {
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5) // no jitter: the back-off test covers it
    const tok = token()
    net.capture.push('network-error', { status: 503 }, { status: 429 })
    client(tok).capture('persistent')
    const tries = () => posts(tok).length
    await vi.advanceTimersByTimeAsync(3000) // first try: network error
    expect(tries()).toBe(1)
    await vi.advanceTimersByTimeAsync(2999)
    expect(tries()).toBe(1)
    await vi.advanceTimersByTimeAsync(1) // retry 1 after 3 s: 503
    expect(tries()).toBe(2)
    await vi.advanceTimersByTimeAsync(5999)
    expect(tries()).toBe(2)
    await vi.advanceTimersByTimeAsync(1) // retry 2 after 6 s: 429
    expect(tries()).toBe(3)
    await vi.advanceTimersByTimeAsync(11999)
    expect(tries()).toBe(3)
    await vi.advanceTimersByTimeAsync(1) // retry 3 after 12 s: 200
    expect(tries()).toBe(4)
    expect(net.events(tok).map((e) => e.event)).toEqual(['persistent', 'persistent', 'persistent', 'persistent'])
    expect(new Set(net.events(tok).map((e) => e.uuid)).size).toBe(1)
    await vi.advanceTimersByTimeAsync(60000)
    expect(tries()).toBe(4)
    expect(stored(tok)).toBeNull()
    random.mockRestore()
  })

  it('does not retry other 4xx: the batch is dropped', async () => {
    const tok = token()
    net.capture.push({ status: 400 })
    const c = client(tok)
    c.capture('bad')
    await vi.advanceTimersByTimeAsync(3000)
    await vi.advanceTimersByTimeAsync(120000)
    expect(posts(tok)).toHaveLength(1)
    expect(stored(tok)).toBeNull()
  })

  it('back-off is 3 s · 2^(n-1) ±25 %, capped at 30 min', () => {
    for (let i = 0; i < 50; i++) {
      expect(backoff(1)).toBeGreaterThanOrEqual(2250)
      expect(backoff(1)).toBeLessThanOrEqual(3750)
      expect(backoff(4)).toBeGreaterThanOrEqual(18000)
      expect(backoff(4)).toBeLessThanOrEqual(30000)
      expect(backoff(30)).toBeLessThanOrEqual(1_800_000 * 1.25)
    }
  })

  it('keeps unsent events in storage: a new client over the same storage (a reload) sends them', async () => {
    const tok = token()
    net.capture.push('network-error', 'network-error', 'network-error')
    const first = client(tok)
    first.capture('before reload', { n: 1 })
    // stored before any send
    expect(stored(tok)[0].event).toBe('before reload')
    await vi.advanceTimersByTimeAsync(3000) // fails
    expect(stored(tok)).toHaveLength(1)

    net.capture.length = 0 // the service is back
    const sentBefore = net.sent.length
    client(tok) // the page reloads: a new client over the same storage
    await vi.advanceTimersByTimeAsync(10)
    const resent = net.sent.slice(sentBefore).filter((r) => r.url.includes('/e/'))
    expect(resent).toHaveLength(1)
    expect(resent[0].body.batch[0]).toMatchObject({ event: 'before reload', properties: { n: 1 } })
    expect(stored(tok)).toBeNull()
  })

  it('removes events from storage only after a 2xx', async () => {
    const tok = token()
    let release!: () => void
    vi.mocked(fetch).mockImplementationOnce(() => new Promise<Response>((r) => (release = () => r(new Response('{"status":1}', { status: 200 })))))
    client(tok).capture('slow')
    await vi.advanceTimersByTimeAsync(3000)
    expect(stored(tok)).toHaveLength(1) // in flight: still stored
    release()
    await vi.advanceTimersByTimeAsync(0)
    expect(stored(tok)).toBeNull()
  })

  it('hands the queue to sendBeacon on pagehide as uncompressed text/plain JSON', async () => {
    const tok = token()
    const c = client(tok)
    c.capture('last words')
    dispatchEvent(new Event('pagehide'))
    expect(net.beacons).toHaveLength(1)
    expect(net.beacons[0].url).toBe('http://localhost:8000/e/')
    expect(typeof net.beacons[0].raw).toBe('string') // a string body: text/plain, CORS-simple
    expect(net.beacons[0].body.api_key).toBe(tok)
    expect(net.beacons[0].body.batch.map((e: { event: string }) => e.event)).toEqual(['last words'])
    expect(stored(tok)).toBeNull()
    await vi.advanceTimersByTimeAsync(5000)
    expect(posts(tok)).toHaveLength(0)
  })

  it('keeps events stored when the browser refuses the beacon', () => {
    const tok = token()
    net.beaconResult = false
    client(tok).capture('refused')
    dispatchEvent(new Event('pagehide'))
    expect(stored(tok)[0].event).toBe('refused')
  })

  it('does not beacon during an outage: events stay stored for the next page', async () => {
    const tok = token()
    net.capture.push({ status: 500 })
    const c = client(tok)
    c.capture('during outage')
    await vi.advanceTimersByTimeAsync(3000)
    dispatchEvent(new Event('pagehide'))
    expect(net.beacons.filter((b) => b.body.api_key === tok)).toHaveLength(0)
    expect(stored(tok)[0].event).toBe('during outage')
  })

  it('flush() sends at once and resolves when done', async () => {
    const tok = token()
    const c = client(tok)
    c.capture('now')
    await c.flush()
    expect(net.events(tok).map((e) => e.event)).toEqual(['now'])
  })
})

describe('compression', () => {
  beforeEach(() => {
    clearStorage()
    net = network()
  })

  it('sends gzip bytes as text/plain with ?compression=gzip-js', async () => {
    const tok = token()
    const c = client(tok)
    c.capture('zipped')
    await c.flush()
    const [req] = posts(tok)
    expect(req.url).toBe('http://localhost:8000/e/?compression=gzip-js')
    expect(req.raw).toBeInstanceOf(Uint8Array)
    expect([...(req.raw as Uint8Array).slice(0, 2)]).toEqual([0x1f, 0x8b])
    expect(req.headers['Content-Type']).toBe('text/plain')
    expect(req.body.batch[0].event).toBe('zipped')
  })

  it('sends plain JSON text without the compression parameter where CompressionStream is missing', async () => {
    vi.stubGlobal('CompressionStream', undefined)
    const tok = token()
    const c = client(tok)
    c.capture('plain')
    await c.flush()
    const [req] = posts(tok)
    expect(req.url).toBe('http://localhost:8000/e/')
    expect(typeof req.raw).toBe('string')
    expect(req.headers['Content-Type']).toBe('text/plain')
    expect(req.body.batch[0].event).toBe('plain')
  })
})
