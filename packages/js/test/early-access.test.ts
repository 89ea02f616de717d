import { beforeEach, describe, expect, it, vi } from 'vitest'
import { clearStorage, client, network, settle, token } from './helpers'

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
})

const feature = { id: '0190-uuid', name: 'New editor', description: 'Faster', stage: 'beta', documentationUrl: '', flagKey: 'new-editor' }

describe('early access', () => {
  it('lists features from GET /api/early_access_features/?token=…&stage=…, cached unless forced', async () => {
    const tok = token()
    net.earlyAccess = { earlyAccessFeatures: [feature] }
    const c = client(tok, { api_host: 'https://svc.example.com' })
    const cb = vi.fn()
    c.getEarlyAccessFeatures(cb, false, ['alpha', 'beta'])
    await settle()
    const reqs = () => net.sent.filter((r) => r.url.includes('/api/early_access_features/'))
    expect(reqs()).toHaveLength(1)
    expect(reqs()[0].method).toBe('GET')
    expect(reqs()[0].url).toBe(`https://svc.example.com/api/early_access_features/?token=${tok}&stage=alpha&stage=beta`)
    expect(cb).toHaveBeenLastCalledWith([feature], { isLoaded: true })
    c.getEarlyAccessFeatures(cb, false, ['alpha', 'beta'])
    expect(reqs()).toHaveLength(1) // from the cache, synchronously
    expect(cb).toHaveBeenCalledTimes(2)
    c.getEarlyAccessFeatures(cb, true, ['alpha', 'beta'])
    await settle()
    expect(reqs()).toHaveLength(2)
    c.getEarlyAccessFeatures(cb) // other stages: not the cached list
    await settle()
    expect(reqs()).toHaveLength(3)
    expect(reqs()[2].url).toBe(`https://svc.example.com/api/early_access_features/?token=${tok}`)
  })

  it('calls back with an empty list and the error when the request fails', async () => {
    net.earlyAccess = undefined
    vi.mocked(fetch).mockRejectedValueOnce(new TypeError('offline'))
    const cb = vi.fn()
    client(token()).getEarlyAccessFeatures(cb)
    await settle()
    expect(cb).toHaveBeenCalledWith([], { isLoaded: false, error: 'connection_error' })
  })

  it('updateEarlyAccessFeatureEnrollment sends the event, flips the flag at once and sends the property with later /flags', async () => {
    const tok = token()
    net.earlyAccess = { earlyAccessFeatures: [feature] }
    net.flags = { featureFlags: { 'new-editor': false } }
    const c = client(tok, { advanced_disable_flags: false })
    c.getEarlyAccessFeatures(() => {})
    await settle()
    const listener = vi.fn()
    c.flagStore.subscribe(listener)
    expect(c.isFeatureEnabled('new-editor', { send_event: false })).toBe(false)
    c.updateEarlyAccessFeatureEnrollment('new-editor', true)
    expect(listener).toHaveBeenCalledTimes(1)
    expect(c.isFeatureEnabled('new-editor', { send_event: false })).toBe(true)
    await c.flush()
    const ev = net.events(tok).find((e) => e.event === '$feature_enrollment_update')
    expect(ev.properties).toMatchObject({
      $feature_flag: 'new-editor',
      $feature_enrollment: true,
      $set: { '$feature_enrollment/new-editor': true },
      $early_access_feature_name: 'New editor',
    })
    net.flags = { featureFlags: { 'new-editor': true } }
    c.reloadFeatureFlags()
    await settle()
    expect(net.flagRequests(tok).at(-1)!.body.person_properties).toEqual({ '$feature_enrollment/new-editor': true })
  })
})
