import { beforeEach, describe, expect, it, vi } from 'vitest'
import { type Service } from 'service-js'
import { clearStorage, client, network, settle, token } from './helpers'

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
})

/** A v2 `/flags` response. */
function v2(flags: Record<string, boolean | string>, payloads: Record<string, string> = {}, extra: object = {}) {
  return {
    flags: Object.fromEntries(
      Object.entries(flags).map(([key, v], i) => [
        key,
        {
          key,
          enabled: v !== false,
          variant: typeof v === 'string' ? v : null,
          reason: { code: 'condition_match', condition_index: 0, description: 'Matched condition set 1' },
          metadata: { id: i + 1, version: 3, payload: payloads[key] ?? null },
        },
      ]),
    ),
    errorsWhileComputingFlags: false,
    requestId: 'req-abc',
    ...extra,
  }
}

const withFlags = (tok: string, options = {}) => client(tok, { advanced_disable_flags: false, ...options })
const called = async (c: Service, tok: string) => {
  await c.flush()
  return net.events(tok).filter((e) => e.event === '$feature_flag_called')
}

describe('/flags request', () => {
  it('POSTs {api_host}/flags/?v=2 once on init with the documented JSON body', async () => {
    const tok = token()
    const c = withFlags(tok, { api_host: 'https://svc.example.com' })
    await settle()
    const reqs = net.flagRequests(tok)
    expect(reqs).toHaveLength(1)
    expect(reqs[0].url).toBe('https://svc.example.com/flags/?v=2&config=true')
    expect(reqs[0].method).toBe('POST')
    expect(reqs[0].headers['Content-Type']).toBe('application/json')
    expect(reqs[0].body).toEqual({
      token: tok,
      distinct_id: c.get_distinct_id(),
      groups: {},
      person_properties: {},
      group_properties: {},
      $device_id: c.get_distinct_id(),
    })
  })

  it('reloads after identify (with $anon_distinct_id once), group and reset', async () => {
    const tok = token()
    const c = withFlags(tok)
    const anon = c.get_distinct_id()
    await settle()
    c.identify('user-1', { email: 'a@example.com' })
    await settle()
    c.group('company', 'acme', { size: 10 })
    await settle()
    c.reset()
    await settle()
    const bodies = net.flagRequests(tok).map((r) => r.body)
    expect(bodies).toHaveLength(4)
    expect(bodies[1]).toMatchObject({ distinct_id: 'user-1', $anon_distinct_id: anon, $device_id: anon, person_properties: { email: 'a@example.com' } })
    expect(bodies[2]).toMatchObject({ distinct_id: 'user-1', groups: { company: 'acme' }, group_properties: { company: { size: 10 } } })
    expect('$anon_distinct_id' in bodies[2]).toBe(false) // cleared after the 200
    expect(bodies[3].distinct_id).not.toBe('user-1')
    expect(bodies[3]).toMatchObject({ groups: {}, person_properties: {}, $device_id: anon })
  })

  it('merges calls made in the same tick into one request', async () => {
    const tok = token()
    const c = withFlags(tok)
    c.reloadFeatureFlags()
    c.reloadFeatureFlags()
    await settle()
    expect(net.flagRequests(tok)).toHaveLength(1)
  })

  it('sends nothing with advanced_disable_flags', async () => {
    const tok = token()
    const c = client(tok, { advanced_disable_flags: true })
    c.reloadFeatureFlags()
    await settle()
    expect(net.flagRequests(tok)).toHaveLength(0)
  })

  it(`is aborted after feature_flag_request_timeout_ms (3000 by default), keeping known values`, async () => {
    vi.useFakeTimers()
    const tok = token()
    net.onFlags = () => 'hang'
    const c = withFlags(tok, { bootstrap: { featureFlags: { boot: true } } })
    await vi.advanceTimersByTimeAsync(10)
    const [req] = net.flagRequests(tok)
    expect(req).toBeDefined()
    const signal = vi.mocked(fetch).mock.calls.find(([url]) => String(url).includes('/flags/'))![1]!.signal!
    await vi.advanceTimersByTimeAsync(2900)
    expect(signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(200)
    expect(signal.aborted).toBe(true)
    expect(c.flagStore.getSnapshot()).toMatchObject({ error: 'timeout', source: 'bootstrap', flags: { boot: true } })
    expect(c.isFeatureEnabled('boot')).toBe(true)
  })

  it('honours a custom timeout', async () => {
    vi.useFakeTimers()
    const tok = token()
    net.onFlags = () => 'hang'
    const c = withFlags(tok, { feature_flag_request_timeout_ms: 500 })
    await vi.advanceTimersByTimeAsync(510)
    expect(c.flagStore.getSnapshot().error).toBe('timeout')
  })

  it('reports failures without losing values', async () => {
    const tok = token()
    net.flags = v2({ a: true })
    const c = withFlags(tok)
    await settle()
    net.onFlags = () => ({ status: 500 })
    c.reloadFeatureFlags()
    await settle()
    expect(c.flagStore.getSnapshot()).toMatchObject({ flags: { a: true }, error: 'api_error_500', source: 'server' })
    net.onFlags = () => 'network-error'
    c.reloadFeatureFlags()
    await settle()
    expect(c.flagStore.getSnapshot().error).toBe('connection_error')
  })
})

describe('/flags response', () => {
  it('reads the v2 shape: booleans, variants, JSON payloads (raw string when not JSON)', async () => {
    const tok = token()
    net.flags = v2({ on: true, off: false, exp: 'test', raw: true }, { on: '{"color":"red"}', off: '{"x":1}', exp: '[1,2]', raw: 'not json' })
    const c = withFlags(tok)
    await settle()
    expect(c.getFeatureFlag('on')).toBe(true)
    expect(c.getFeatureFlag('off')).toBe(false)
    expect(c.getFeatureFlag('exp')).toBe('test')
    expect(c.isFeatureEnabled('exp')).toBe(true)
    expect(c.isFeatureEnabled('off')).toBe(false)
    expect(c.isFeatureEnabled('missing')).toBeUndefined()
    expect(c.getFeatureFlagPayload('on')).toEqual({ color: 'red' })
    expect(c.getFeatureFlagPayload('exp')).toEqual([1, 2])
    expect(c.getFeatureFlagPayload('raw')).toBe('not json')
    expect(c.getFeatureFlagPayload('off')).toBeUndefined() // payloads only for enabled flags
    expect(c.flagStore.getSnapshot().source).toBe('server')
  })

  it('accepts the legacy {featureFlags, featureFlagPayloads} shape', async () => {
    const tok = token()
    net.flags = { featureFlags: { a: true, b: 'v2', c: false }, featureFlagPayloads: { a: '{"n":1}', b: 'plain' } }
    const c = withFlags(tok)
    await settle()
    expect(c.flagStore.getSnapshot().flags).toEqual({ a: true, b: 'v2', c: false })
    expect(c.getFeatureFlagPayload('a')).toEqual({ n: 1 })
    expect(c.getFeatureFlagPayload('b')).toBe('plain')
  })

  it('keeps cached values of failed flags when errorsWhileComputingFlags', async () => {
    const tok = token()
    net.flags = v2({ a: true, b: 'x' })
    const c = withFlags(tok)
    await settle()
    const partial = v2({ a: false, b: 'y' }, {}, { errorsWhileComputingFlags: true }) as ReturnType<typeof v2>
    ;(partial.flags.b as Record<string, unknown>).failed = true
    net.flags = partial
    c.reloadFeatureFlags()
    await settle()
    expect(c.flagStore.getSnapshot()).toMatchObject({ flags: { a: false, b: 'x' }, error: 'errors_while_computing_flags' })
  })

  it('keeps values when the flags quota is reached', async () => {
    const tok = token()
    net.flags = v2({ a: true })
    const c = withFlags(tok)
    await settle()
    net.flags = { flags: {}, quotaLimited: ['feature_flags'], errorsWhileComputingFlags: false }
    c.reloadFeatureFlags()
    await settle()
    expect(c.flagStore.getSnapshot()).toMatchObject({ flags: { a: true }, error: 'quota_limited' })
  })

  it('persists the last known values for the next page', async () => {
    const tok = token()
    net.flags = v2({ a: 'test' }, { a: '{"k":1}' })
    withFlags(tok)
    await settle()
    const next = client(tok) // flags disabled: only the cache
    expect(next.flagStore.getSnapshot()).toMatchObject({ source: 'cache', flags: { a: 'test' }, payloads: { a: { k: 1 } } })
    expect(next.getFeatureFlag('a')).toBe('test')
  })
})

describe('bootstrap', () => {
  it('serves bootstrap values synchronously until fetched values replace them', async () => {
    const tok = token()
    net.flags = v2({ a: false, c: 'server' })
    const c = withFlags(tok, {
      bootstrap: { distinctID: 'boot-user', isIdentifiedID: true, featureFlags: { a: true, b: 'test' }, featureFlagPayloads: { b: '{"x":1}' } },
    })
    expect(c.get_distinct_id()).toBe('boot-user')
    expect(c.getFeatureFlag('a')).toBe(true)
    expect(c.getFeatureFlag('b')).toBe('test')
    expect(c.getFeatureFlagPayload('b')).toEqual({ x: 1 })
    expect(c.flagStore.getSnapshot().source).toBe('bootstrap')
    await settle()
    expect(net.flagRequests(tok)[0].body.distinct_id).toBe('boot-user')
    expect(c.flagStore.getSnapshot()).toMatchObject({ source: 'server', flags: { a: false, c: 'server' } })
    expect(c.getFeatureFlag('a')).toBe(false)
    expect(c.getFeatureFlag('b')).toBeUndefined()
    const evs = await called(c, tok)
    expect(evs.map((e) => [e.properties.$feature_flag, e.properties.$used_bootstrap_value])).toEqual([
      ['a', true],
      ['b', true],
      ['a', false],
      ['b', false],
    ])
    expect(evs[3].properties.$feature_flag_error).toBe('flag_missing')
    expect(evs[0].properties.$feature_flag_bootstrapped_response).toBe(true)
    expect(net.events(tok).some((e) => e.event === '$identify')).toBe(false)
  })

  it('merges an anonymous history into a bootstrapped identified id with $identify', async () => {
    const tok = token()
    const anon = client(tok).get_distinct_id()
    const c = client(tok, { bootstrap: { distinctID: 'known', isIdentifiedID: true } })
    await c.flush()
    const ev = net.events(tok).find((e) => e.event === '$identify')
    expect(ev.properties).toMatchObject({ distinct_id: 'known', $anon_distinct_id: anon })
  })

  it('getServerSnapshot is the bootstrap alone, stable, ignoring overrides', () => {
    const tok = token()
    const c = client(tok, { bootstrap: { featureFlags: { a: true } } })
    c.featureFlags.overrideFeatureFlags({ flags: { a: false } })
    const s = c.flagStore.getServerSnapshot()
    expect(s).toMatchObject({ source: 'bootstrap', flags: { a: true } })
    expect(c.flagStore.getServerSnapshot()).toBe(s)
    expect(c.flagStore.getSnapshot().flags.a).toBe(false)
  })
})

describe('overrides', () => {
  it('win over server values and payloads, persist, and clear with overrideFeatureFlags(false)', async () => {
    const tok = token()
    net.flags = v2({ a: true, b: 'control' }, { b: '{"v":"server"}' })
    const c = withFlags(tok)
    c.featureFlags.overrideFeatureFlags({ flags: { a: false, b: 'test', local: true }, payloads: { b: { v: 'local' } } })
    await settle()
    expect(c.getFeatureFlag('a')).toBe(false)
    expect(c.getFeatureFlag('b')).toBe('test')
    expect(c.getFeatureFlag('local')).toBe(true)
    expect(c.getFeatureFlagPayload('b')).toEqual({ v: 'local' })
    expect(client(tok).getFeatureFlag('b', { send_event: false })).toBe('test') // persisted
    c.featureFlags.overrideFeatureFlags(false)
    expect(c.getFeatureFlag('a')).toBe(true)
    expect(c.getFeatureFlag('b')).toBe('control')
    expect(c.getFeatureFlagPayload('b')).toEqual({ v: 'server' })
    expect(c.getFeatureFlag('local')).toBeUndefined()
  })

  it('accept a list of keys or a plain map, and report the original value', async () => {
    const tok = token()
    net.flags = v2({ a: false })
    const c = withFlags(tok)
    await settle()
    c.featureFlags.overrideFeatureFlags(['a'])
    expect(c.getFeatureFlag('a')).toBe(true)
    c.featureFlags.overrideFeatureFlags({ a: 'forced' })
    expect(c.getFeatureFlag('a')).toBe('forced')
    const evs = await called(c, tok)
    expect(evs[0].properties).toMatchObject({ $feature_flag_response: true, $feature_flag_original_response: false })
  })
})

describe('$feature_flag_called', () => {
  it('is sent once per flag and value, with the documented properties', async () => {
    const tok = token()
    net.flags = v2({ a: 'test' }, { a: '{"p":1}' })
    const c = withFlags(tok)
    await settle()
    c.getFeatureFlag('a')
    c.isFeatureEnabled('a')
    c.getFeatureFlag('a')
    c.getFeatureFlag('a', { send_event: false })
    c.getFeatureFlagPayload('a')
    c.getFeatureFlag('missing')
    const evs = await called(c, tok)
    expect(evs).toHaveLength(2)
    expect(evs[0].properties).toMatchObject({
      $feature_flag: 'a',
      $feature_flag_response: 'test',
      $feature_flag_payload: { p: 1 },
      $feature_flag_request_id: 'req-abc',
      $feature_flag_id: 1,
      $feature_flag_version: 3,
      $feature_flag_reason: 'Matched condition set 1',
      $used_bootstrap_value: false,
    })
    expect(evs[1].properties).toMatchObject({ $feature_flag: 'missing', $feature_flag_error: 'flag_missing' })
  })

  it('is sent again when the value changes', async () => {
    const tok = token()
    net.flags = v2({ a: 'control' })
    const c = withFlags(tok)
    await settle()
    c.getFeatureFlag('a')
    net.flags = v2({ a: 'test' })
    c.reloadFeatureFlags()
    await settle()
    c.getFeatureFlag('a')
    c.getFeatureFlag('a')
    expect((await called(c, tok)).map((e) => e.properties.$feature_flag_response)).toEqual(['control', 'test'])
  })

  it('de-duplicates across page loads (persisted), and starts over on identify with a new id and on reset', async () => {
    const tok = token()
    net.flags = v2({ a: true })
    const c = withFlags(tok)
    await settle()
    c.getFeatureFlag('a')
    const again = withFlags(tok)
    await settle()
    again.getFeatureFlag('a')
    expect(await called(again, tok)).toHaveLength(1)
    again.identify('user-1')
    await settle()
    again.getFeatureFlag('a')
    again.identify('user-1') // same id: map kept
    again.getFeatureFlag('a')
    expect(await called(again, tok)).toHaveLength(2)
    again.reset()
    await settle()
    again.getFeatureFlag('a')
    expect(await called(again, tok)).toHaveLength(3)
  })
})

describe('$feature_flag_called per person', () => {
  /** `[distinct id, flag, value]` of every `$feature_flag_called` the clients sent. */
  const byPerson = async (tok: string, ...clients: Service[]) => {
    for (const c of clients) await c.flush()
    return called(clients[0]!, tok).then((evs) => evs.map((e) => [e.properties.distinct_id, e.properties.$feature_flag, e.properties.$feature_flag_response]))
  }

  it('reports the same flag and value again for each new distinct id: identify, reset, and a bootstrap of another user', async () => {
    const tok = token()
    net.flags = v2({ exp: 'test' })
    const c = withFlags(tok, { bootstrap: { distinctID: 'user-a', isIdentifiedID: true } })
    await settle()
    c.getFeatureFlag('exp')
    c.identify('user-b')
    await settle()
    c.getFeatureFlag('exp')
    c.getFeatureFlag('exp')
    c.reset()
    await settle()
    c.getFeatureFlag('exp')
    const anonymous = c.get_distinct_id()
    c.identify('user-d')
    await settle()
    c.getFeatureFlag('exp')
    await c.flush()
    // The next page load bootstraps another signed-in user on a device that knows user-d.
    const next = withFlags(tok, { bootstrap: { distinctID: 'user-c', isIdentifiedID: true } })
    await settle()
    next.getFeatureFlag('exp')
    next.getFeatureFlag('exp')
    expect(await byPerson(tok, c, next)).toEqual([
      ['user-a', 'exp', 'test'],
      ['user-b', 'exp', 'test'],
      [anonymous, 'exp', 'test'],
      ['user-d', 'exp', 'test'],
      ['user-c', 'exp', 'test'],
    ])
  })

  it('keeps what the same person was reported across page loads, for that distinct id only', async () => {
    const tok = token()
    net.flags = v2({ exp: 'control' })
    const first = withFlags(tok, { bootstrap: { distinctID: 'user-a', isIdentifiedID: true } })
    await settle()
    first.getFeatureFlag('exp')
    await first.flush()
    const again = withFlags(tok, { bootstrap: { distinctID: 'user-a', isIdentifiedID: true } })
    await settle()
    again.getFeatureFlag('exp')
    expect(await byPerson(tok, first, again)).toEqual([['user-a', 'exp', 'control']])
  })
})

describe('flag store', () => {
  it('has subscribe → unsubscribe and a snapshot whose identity changes only when the state does', async () => {
    const tok = token()
    net.flags = v2({ a: true, b: 'x' }, { a: '{"deep":{"n":1}}' })
    const c = withFlags(tok)
    const store = c.flagStore
    const seen: unknown[] = []
    const off = store.subscribe(() => seen.push(store.getSnapshot()))
    const first = store.getSnapshot()
    expect(store.getSnapshot()).toBe(first)
    await settle()
    expect(seen).toHaveLength(1)
    const s1 = store.getSnapshot()
    expect(s1).not.toBe(first)
    expect(Object.isFrozen(s1) && Object.isFrozen(s1.flags) && Object.isFrozen(s1.payloads)).toBe(true)

    c.reloadFeatureFlags() // same answer: no change, no notification
    await settle()
    expect(store.getSnapshot()).toBe(s1)
    expect(seen).toHaveLength(1)

    net.flags = v2({ a: true, b: 'y' }, { a: '{"deep":{"n":1}}' })
    c.reloadFeatureFlags()
    await settle()
    const s2 = store.getSnapshot()
    expect(s2).not.toBe(s1)
    expect(s2.payloads.a).toBe(s1.payloads.a) // unchanged payload keeps its identity
    expect(seen).toHaveLength(2)

    off()
    c.featureFlags.overrideFeatureFlags({ flags: { b: 'z' } })
    expect(seen).toHaveLength(2)
    expect(store.getSnapshot().flags.b).toBe('z')
  })

  it('works unbound, as useSyncExternalStore calls it', () => {
    const c = client(token(), { bootstrap: { featureFlags: { a: true } } })
    const { subscribe, getSnapshot, getServerSnapshot } = c.flagStore
    const off = subscribe(() => {})
    expect(getSnapshot().flags.a).toBe(true)
    expect(getServerSnapshot().flags.a).toBe(true)
    off()
  })

  it('exists before init, and a listener that throws does not break the others', async () => {
    const tok = token()
    const { Service } = await import('service-js')
    const c = new Service()
    const calls: string[] = []
    c.flagStore.subscribe(() => {
      throw new Error('bad listener')
    })
    c.flagStore.subscribe(() => calls.push(c.flagStore.getSnapshot().source))
    c.init(tok, { autocapture: false, capture_pageview: false, advanced_disable_flags: true, bootstrap: { featureFlags: { a: true } } })
    expect(calls).toEqual(['bootstrap'])
  })
})

describe('onFeatureFlags', () => {
  it('calls back now when values are known and on every change; returns an unsubscribe', async () => {
    const tok = token()
    net.flags = v2({ a: true, b: 'x', off: false })
    const c = withFlags(tok, { bootstrap: { featureFlags: { boot: true } } })
    const cb = vi.fn()
    const off = c.onFeatureFlags(cb)
    expect(cb).toHaveBeenLastCalledWith(['boot'], { boot: true }, { errorsLoading: false })
    await settle()
    expect(cb).toHaveBeenLastCalledWith(['a', 'b'], { a: true, b: 'x' }, { errorsLoading: false })
    off()
    c.featureFlags.overrideFeatureFlags({ flags: { z: true } })
    expect(cb).toHaveBeenCalledTimes(2)
  })

  it('does not call back before any value is known', () => {
    const cb = vi.fn()
    client(token()).onFeatureFlags(cb)
    expect(cb).not.toHaveBeenCalled()
  })
})

describe('bootstrap identity', () => {
  it('an anonymous bootstrap id does not replace a user this device already identified', () => {
    const tok = token()
    client(tok).identify('known-user')
    expect(client(tok, { bootstrap: { distinctID: 'server-anon-id' } }).get_distinct_id()).toBe('known-user')
    const fresh = token()
    expect(client(fresh, { bootstrap: { distinctID: 'server-anon-id' } }).get_distinct_id()).toBe('server-anon-id')
  })
})
