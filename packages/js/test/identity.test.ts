import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Service } from 'service-js'
import { clearStorage, client, network, settle, token } from './helpers'
import { uuidv7 } from '../src/core/identity'
import { version as packageVersion } from '../package.json'

const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
})

async function sentEvents(c: Service, tok: string) {
  await c.flush()
  return net.events(tok)
}

describe('identity', () => {
  it('makes UUIDv7 ids whose first 48 bits are the time', () => {
    const before = Date.now()
    const id = uuidv7()
    expect(id).toMatch(UUID7)
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16)
    expect(ms).toBeGreaterThanOrEqual(before)
    expect(ms).toBeLessThanOrEqual(Date.now())
    expect(uuidv7()).not.toBe(id)
  })

  it('starts anonymous with one UUIDv7 as distinct id and device id, persisted across instances', () => {
    const tok = token()
    const a = client(tok)
    const id = a.get_distinct_id()
    expect(id).toMatch(UUID7)
    expect(client(tok).get_distinct_id()).toBe(id)
    // in the cookie too (localStorage+cookie keeps identity in both)
    expect(decodeURIComponent(document.cookie)).toContain(id)
  })

  it('sends $identify only from anonymous to identified, with $anon_distinct_id and $set', async () => {
    const tok = token()
    const c = client(tok)
    const anon = c.get_distinct_id()
    c.identify('user-1', { email: 'a@example.com' }, { first: 1 })
    c.identify('user-1') // same id again: nothing
    const evs = await sentEvents(c, tok)
    expect(evs.map((e) => e.event)).toEqual(['$identify'])
    expect(evs[0].properties).toMatchObject({ distinct_id: 'user-1', $anon_distinct_id: anon, $device_id: anon, $is_identified: true })
    expect(evs[0].$set).toEqual({ email: 'a@example.com' })
    expect(evs[0].$set_once).toEqual({ first: 1 })
    expect(c.get_distinct_id()).toBe('user-1')
  })

  it('switches ids without $identify once identified', async () => {
    const tok = token()
    const c = client(tok)
    c.identify('user-1')
    c.identify('user-2')
    const evs = await sentEvents(c, tok)
    expect(evs.map((e) => e.event)).toEqual(['$identify'])
    expect(c.get_distinct_id()).toBe('user-2')
  })

  it('sends $set for new person properties on the same id', async () => {
    const tok = token()
    const c = client(tok)
    c.identify('user-1')
    c.identify('user-1', { plan: 'pro' })
    const evs = await sentEvents(c, tok)
    expect(evs.map((e) => e.event)).toEqual(['$identify', '$set'])
    expect(evs[1].properties.$set).toEqual({ plan: 'pro' })
  })

  it('refuses ids that are almost always bugs', async () => {
    const tok = token()
    const c = client(tok)
    const id = c.get_distinct_id()
    for (const bad of ['', '  ', 'undefined', 'null', 'distinct_id', 'DistinctId', '[object Object]']) c.identify(bad)
    c.identify(undefined as unknown as string)
    expect(c.get_distinct_id()).toBe(id)
    expect(await sentEvents(c, tok)).toEqual([])
  })

  it('reset() starts fresh: new anonymous id and session, same device, super properties gone', async () => {
    const tok = token()
    const c = client(tok)
    const device = c.get_distinct_id()
    c.register({ plan: 'pro' })
    c.identify('user-1')
    const session = c.get_session_id()
    c.reset()
    expect(c.get_distinct_id()).not.toBe('user-1')
    expect(c.get_distinct_id()).not.toBe(device)
    expect(c.get_session_id()).not.toBe(session)
    c.capture('after reset')
    const after = (await sentEvents(c, tok)).find((e) => e.event === 'after reset')
    expect(after.properties.$device_id).toBe(device)
    expect(after.properties.plan).toBeUndefined()
    expect(after.properties.$is_identified).toBe(false)
    c.reset(true)
    c.capture('device reset')
    const last = (await sentEvents(c, tok)).find((e) => e.event === 'device reset')
    expect(last.properties.$device_id).toBe(last.properties.distinct_id)
  })

  it('keeps the session for 30 idle minutes, then starts a new one', async () => {
    vi.useFakeTimers()
    const tok = token()
    const c = client(tok)
    c.capture('a')
    const s1 = c.get_session_id()
    expect(s1).toMatch(UUID7)
    vi.advanceTimersByTime(29 * 60_000)
    c.capture('b') // activity keeps it alive
    expect(c.get_session_id()).toBe(s1)
    vi.advanceTimersByTime(29 * 60_000)
    expect(c.get_session_id()).toBe(s1)
    vi.advanceTimersByTime(2 * 60_000)
    c.capture('c')
    expect(c.get_session_id()).not.toBe(s1)
  })

  it('alias sends $create_alias', async () => {
    const tok = token()
    const c = client(tok)
    c.alias('ada@example.com')
    const [ev] = await sentEvents(c, tok)
    expect(ev.event).toBe('$create_alias')
    expect(ev.properties).toMatchObject({ alias: 'ada@example.com', distinct_id: c.get_distinct_id() })
  })
})

describe('events', () => {
  it('carry the documented properties', async () => {
    const tok = token()
    const c = client(tok)
    history.replaceState(null, '', '/pricing?x=1')
    c.capture('clicked', { button: 'buy' }, { $set: { plan: 'pro' } })
    const [ev] = await sentEvents(c, tok)
    expect(ev.uuid).toMatch(UUID7)
    expect(ev.event).toBe('clicked')
    expect(Date.parse(ev.timestamp)).not.toBeNaN()
    expect(ev.$set).toEqual({ plan: 'pro' })
    expect(ev.properties).toMatchObject({
      token: tok,
      distinct_id: c.get_distinct_id(),
      $device_id: c.get_distinct_id(),
      $session_id: c.get_session_id(),
      $lib: 'web',
      // read from package.json by the build, never a constant of its own
      $lib_version: packageVersion,
      $current_url: location.href,
      $pathname: '/pricing',
      $host: location.host,
      $referrer: '$direct',
      button: 'buy',
    })
  })

  it('include super properties (register, register_once, unregister) and $groups', async () => {
    const tok = token()
    const c = client(tok)
    c.register({ a: 1, b: 1 })
    c.register_once({ a: 2, c: 3 })
    c.unregister('b')
    c.group('company', 'acme', { name: 'Acme' })
    c.capture('x')
    const evs = await sentEvents(c, tok)
    const gi = evs.find((e) => e.event === '$groupidentify')
    expect(gi.properties).toMatchObject({ $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme' } })
    const x = evs.find((e) => e.event === 'x')
    expect(x.properties).toMatchObject({ a: 1, c: 3, $groups: { company: 'acme' } })
    expect('b' in x.properties).toBe(false)
    c.group('company', 'acme') // unchanged: no second $groupidentify
    expect((await sentEvents(c, tok)).filter((e) => e.event === '$groupidentify')).toHaveLength(1)
  })
})

describe('consent', () => {
  it('opt_out_capturing stops events (persisted) and opt_in_capturing resumes with $opt_in', async () => {
    const tok = token()
    const c = client(tok)
    c.opt_out_capturing()
    c.capture('hidden')
    expect(client(tok).has_opted_out_capturing()).toBe(true)
    c.opt_in_capturing()
    c.capture('shown')
    expect((await sentEvents(c, tok)).map((e) => e.event)).toEqual(['$opt_in', 'shown'])
  })

  it('opt_out_capturing_by_default starts opted out', async () => {
    const tok = token()
    const c = client(tok, { opt_out_capturing_by_default: true })
    c.capture('hidden')
    expect(c.has_opted_out_capturing()).toBe(true)
    expect(await sentEvents(c, tok)).toEqual([])
  })
})

describe('before init', () => {
  it('no method throws, reads return empty values, and calls are replayed by init', async () => {
    const tok = token()
    const c = new Service()
    let flushed: Promise<void> | undefined
    const calls: [string, () => unknown][] = [
      ['capture', () => c.capture('early', { n: 1 })],
      ['identify', () => c.identify('early-user', { e: 1 })],
      ['alias', () => c.alias('al')],
      ['group', () => c.group('company', 'acme')],
      ['register', () => c.register({ sp: 1 })],
      ['register_once', () => c.register_once({ so: 1 })],
      ['unregister', () => c.unregister('x')],
      ['opt_in_capturing', () => c.opt_in_capturing()],
      ['isFeatureEnabled', () => expect(c.isFeatureEnabled('f')).toBeUndefined()],
      ['getFeatureFlag', () => expect(c.getFeatureFlag('f')).toBeUndefined()],
      ['getFeatureFlagPayload', () => expect(c.getFeatureFlagPayload('f')).toBeUndefined()],
      ['get_distinct_id', () => expect(c.get_distinct_id()).toBe('')],
      ['get_session_id', () => expect(c.get_session_id()).toBe('')],
      ['has_opted_out_capturing', () => expect(c.has_opted_out_capturing()).toBe(false)],
      ['onFeatureFlags', () => expect(typeof c.onFeatureFlags(() => {})).toBe('function')],
      ['reloadFeatureFlags', () => c.reloadFeatureFlags()],
      ['overrideFeatureFlags', () => c.featureFlags.overrideFeatureFlags({ flags: { o: true } })],
      ['getEarlyAccessFeatures', () => c.getEarlyAccessFeatures(() => {})],
      ['updateEarlyAccessFeatureEnrollment', () => c.updateEarlyAccessFeatureEnrollment('beta-x', true)],
      ['captureException', () => c.captureException(new Error('early'))],
      ['addExceptionStep', () => c.addExceptionStep('early step')],
      ['flush', () => (flushed = c.flush())],
      ['snapshot', () => expect(c.flagStore.getSnapshot().source).toBe('none')],
      ['reset', () => c.reset()],
      ['opt_out_capturing', () => c.opt_out_capturing()],
    ]
    for (const [name, call] of calls) expect(call, name).not.toThrow()
    await expect(flushed).resolves.toBeUndefined()
    expect(net.sent).toEqual([])

    c.init(tok, { autocapture: false, capture_pageview: false, advanced_disable_flags: true })
    // replayed in order: the opt-out came last, so events before it were captured (not the $exception, which
    // the exceptions extension sends once its chunk has loaded: after the opt-out)
    const evs = await sentEvents(c, tok)
    expect(evs.map((e) => e.event)).toEqual(['early', '$identify', '$create_alias', '$groupidentify', '$opt_in', '$feature_enrollment_update'])
    expect(c.has_opted_out_capturing()).toBe(true)
  })

  it('keeps the time of an event captured before init', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const tok = token()
    const c = new Service()
    c.capture('early')
    const at = Date.now()
    vi.setSystemTime(at + 60_000)
    c.init(tok, { autocapture: false, capture_pageview: false, advanced_disable_flags: true })
    vi.useRealTimers()
    const [ev] = await sentEvents(c, tok)
    expect(Date.parse(ev.timestamp)).toBe(at)
  })

  it('options set to undefined keep their defaults (an unset environment variable)', async () => {
    const tok = token()
    const c = client(tok, { api_host: undefined, persistence: undefined })
    expect(c.config.api_host).toBe('http://localhost:8000')
    c.capture('x')
    await c.flush()
    expect(net.sent.at(-1)!.url).toMatch(/^http:\/\/localhost:8000\/e\//)
  })

  it('a second init is ignored, and init without a token does nothing', () => {
    const tok = token()
    const c = client(tok)
    const id = c.get_distinct_id()
    expect(c.init('other', {})).toBe(c)
    expect(c.get_distinct_id()).toBe(id)
    const d = new Service()
    expect(() => d.init('')).not.toThrow()
    expect(d.__loaded).toBe(false)
  })

  it('no method throws after init either, whatever it is given', async () => {
    const c = client(token(), { debug: false })
    const circular: Record<string, unknown> = {}
    circular.self = circular
    const odd = [
      undefined,
      null,
      42,
      circular,
      Symbol('s'),
      () => 1,
      {
        toJSON: () => {
          throw new Error('no')
        },
      },
    ] as never[]
    for (const m of [
      'capture',
      'identify',
      'alias',
      'group',
      'register',
      'register_once',
      'unregister',
      'isFeatureEnabled',
      'getFeatureFlag',
      'getFeatureFlagPayload',
      'onFeatureFlags',
      'getEarlyAccessFeatures',
      'updateEarlyAccessFeatureEnrollment',
      'captureException',
      'addExceptionStep',
    ] as const) {
      for (const a of odd) expect(() => (c[m] as (...x: unknown[]) => unknown)(a, a, a), m).not.toThrow()
    }
    expect(() => c.featureFlags.overrideFeatureFlags(circular as never)).not.toThrow()
    await expect(c.flush()).resolves.toBeUndefined()
    await settle()
  })
})
