import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Service, type CaptureEvent } from 'service-js'
import { clearStorage, client, network, settle, token } from './helpers'

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
})

describe('announcements (client.on)', () => {
  it('eventCaptured hears each queued event as sent; the returned function stops listening', async () => {
    const tok = token()
    const c = client(tok)
    const heard: CaptureEvent[] = []
    const off = c.on('eventCaptured', (event) => heard.push(event))
    c.capture('one', { n: 1 })
    off()
    c.capture('two')
    await c.flush()
    expect(heard.map((e) => e.event)).toEqual(['one'])
    expect(net.events(tok)[0]).toEqual(JSON.parse(JSON.stringify(heard[0])))
  })

  it('beforeCapture adds properties to every event, under the caller’s own', async () => {
    const tok = token()
    const c = client(tok)
    c.on('beforeCapture', (props) => Object.assign(props, { $plugin: 'yes', shared: 'plugin' }))
    c.capture('e', { shared: 'caller' })
    await c.flush()
    expect(net.events(tok)[0].properties).toMatchObject({ $plugin: 'yes', shared: 'caller' })
  })

  it('featureFlagsLoaded hears the snapshot after each /flags answer, failures included', async () => {
    const c = client(token(), { advanced_disable_flags: false })
    const heard = vi.fn()
    c.on('featureFlagsLoaded', heard)
    await settle()
    net.onFlags = () => ({ status: 500 })
    c.reloadFeatureFlags()
    await settle()
    expect(heard.mock.calls.map(([s]) => [s.source, s.error])).toEqual([
      ['server', undefined],
      ['server', 'api_error_500'],
    ])
  })

  it('distinctId and sessionId are announced when they change; a listener that throws stops nothing', async () => {
    const tok = token()
    const c = new Service()
    const ids: string[] = []
    c.on('distinctId', () => {
      throw new Error('bad listener')
    })
    c.on('distinctId', (id) => ids.push(id))
    const sessions = vi.fn()
    c.on('sessionId', sessions)
    c.init(tok, { autocapture: false, capture_pageview: false, advanced_disable_flags: true })
    const first = c.get_distinct_id()
    c.capture('a')
    c.capture('b')
    c.identify('user-1')
    c.reset()
    expect(ids).toEqual([first, 'user-1', c.get_distinct_id()])
    expect(sessions).toHaveBeenCalledTimes(2) // the first session, then the one reset() starts
    await c.flush()
    expect(net.events(tok).map((e) => e.event)).toEqual(['a', 'b', '$identify'])
  })

  it('unload comes on pagehide, before the queue leaves with sendBeacon', async () => {
    const tok = token()
    const c = client(tok)
    c.on('unload', () => c.capture('last words'))
    dispatchEvent(new Event('pagehide'))
    expect(
      net.beacons
        .flatMap((b) => b.body.batch)
        .filter((e) => e.properties.token === tok)
        .map((e) => e.event),
    ).toEqual(['last words'])
  })
})

describe('built-in extensions', () => {
  it('pageviews: $pageview_id on every event of the page, $pageleave with the page before it on unload', () => {
    const tok = token()
    const c = client(tok, { capture_pageview: true })
    c.capture('on the page')
    dispatchEvent(new Event('pagehide'))
    const evs = net.beacons.flatMap((b) => b.body.batch).filter((e) => e.properties.token === tok)
    expect(evs.map((e) => e.event)).toEqual(['$pageview', 'on the page', '$pageleave'])
    const id = evs[0].uuid
    expect(evs[0].properties.$pageview_id).toBe(id)
    expect(evs[1].properties.$pageview_id).toBe(id)
    expect(evs[2].properties).toMatchObject({ $pageview_id: id, $prev_pageview_id: id, $prev_pageview_pathname: location.pathname })
  })
})

describe('lazy extensions', () => {
  it('loadExtension starts a chunk once, waits for init, and resolves false for a name it does not know', async () => {
    const tok = token()
    const c = new Service()
    const loaded = c.loadExtension('exceptions')
    c.init(tok, { autocapture: false, capture_pageview: false, advanced_disable_flags: true, capture_exceptions: true })
    expect(await loaded).toBe(true)
    expect(await c.loadExtension('exceptions')).toBe(true)
    expect(await c.loadExtension('no-such-extension')).toBe(false)
    const err = new Error('once')
    dispatchEvent(new ErrorEvent('error', { error: err, message: 'once' }))
    await c.flush()
    expect(net.events(tok).filter((e) => e.event === '$exception')).toHaveLength(1)
  })

  it('captureException loads the exceptions extension, which reports uncaught errors only with capture_exceptions', async () => {
    const tok = token()
    const c = client(tok)
    c.captureException(new Error('handled'))
    expect(await c.loadExtension('exceptions')).toBe(true)
    dispatchEvent(new ErrorEvent('error', { error: new Error('uncaught'), message: 'uncaught' }))
    await c.flush()
    expect(net.events(tok).map((e) => e.properties.$exception_message)).toEqual(['handled'])
  })

  it('capture_exceptions keeps the errors that happen while its chunk loads, and flush waits for them', async () => {
    const tok = token()
    const c = client(tok, { capture_exceptions: true })
    dispatchEvent(new ErrorEvent('error', { error: new TypeError('during load'), message: 'during load' }))
    await c.flush()
    const [ev] = net.events(tok)
    expect(ev.event).toBe('$exception')
    expect(ev.properties).toMatchObject({ $exception_type: 'TypeError', $exception_message: 'during load' })
    expect(ev.properties.$exception_list[0].mechanism).toMatchObject({ type: 'onerror', handled: false })
  })
})
