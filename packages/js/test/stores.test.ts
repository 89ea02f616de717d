import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Service } from 'service-js'
import { clearStorage, client, network, settle, token } from './helpers'

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
})

describe('identityStore', () => {
  it('holds the distinct id and session id, one object until either changes, and tells subscribers', () => {
    const c = new Service()
    const store = c.identityStore
    expect(store.getSnapshot()).toEqual({ distinctId: '', sessionId: '' })
    c.init(token(), { autocapture: false, capture_pageview: false, advanced_disable_flags: true })
    const listener = vi.fn()
    store.subscribe(listener)
    const first = store.getSnapshot()
    expect(first.distinctId).toBe(c.get_distinct_id())
    c.capture('e')
    const withSession = store.getSnapshot()
    expect(withSession).toEqual({ distinctId: first.distinctId, sessionId: c.get_session_id() })
    c.capture('again')
    expect(store.getSnapshot()).toBe(withSession)
    c.identify('user-1')
    expect(store.getSnapshot()).toEqual({ distinctId: 'user-1', sessionId: withSession.sessionId })
    expect(listener).toHaveBeenCalledTimes(2)
  })

  it('serves the bootstrap distinct id as the server snapshot (the same on the server and in hydration)', () => {
    const c = client(token(), { bootstrap: { distinctID: 'boot-user' } })
    expect(c.identityStore.getServerSnapshot()).toEqual({ distinctId: 'boot-user', sessionId: '' })
    expect(client(token()).identityStore.getServerSnapshot()).toEqual({ distinctId: '', sessionId: '' })
  })
})

describe('earlyAccessStore', () => {
  const feature = { id: 'f1', name: 'New editor', description: '', stage: 'alpha', documentationUrl: '', flagKey: 'new-editor' }

  it('holds each list getEarlyAccessFeatures delivered, by the stages asked for, failures included', async () => {
    net.earlyAccess = { earlyAccessFeatures: [feature] }
    const c = client(token())
    const listener = vi.fn()
    c.earlyAccessStore.subscribe(listener)
    c.getEarlyAccessFeatures(() => {}, false, ['alpha', 'beta'])
    await settle()
    expect(c.earlyAccessStore.getSnapshot()).toEqual({ 'alpha,beta': { features: [feature], isLoaded: true } })
    vi.mocked(fetch).mockRejectedValueOnce(new TypeError('offline'))
    c.getEarlyAccessFeatures(() => {})
    await settle()
    expect(c.earlyAccessStore.getSnapshot()).toEqual({
      'alpha,beta': { features: [feature], isLoaded: true },
      '': { features: [], isLoaded: false, error: 'connection_error' },
    })
    expect(listener).toHaveBeenCalledTimes(2)
    expect(c.earlyAccessStore.getServerSnapshot()).toEqual({})
  })
})
