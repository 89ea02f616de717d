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

describe('early access: concept (waitlist), release stages, groups', () => {
  const concept = {
    id: '0190-c',
    name: 'AI assistant',
    description: 'Soon',
    stage: 'concept',
    documentationUrl: '',
    flagKey: 'ai-assistant',
    payload: { eta: 'Q3' },
  }
  const beta = { ...feature, payload: { docs: '/editor' } }

  async function listed(options = {}) {
    const tok = token()
    net.earlyAccess = { earlyAccessFeatures: [concept, beta] }
    net.flags = { featureFlags: { 'ai-assistant': false, 'new-editor': false } }
    const c = client(tok, { advanced_disable_flags: false, ...options })
    const cb = vi.fn()
    c.getEarlyAccessFeatures(cb, true, ['concept', 'beta'])
    await settle()
    return { tok, c, cb }
  }
  const updates = async (c: ReturnType<typeof client>, tok: string) => {
    await c.flush()
    return net.events(tok).filter((e) => e.event === '$feature_enrollment_update')
  }

  it('passes each feature through as the service lists it, payload included', async () => {
    const { cb } = await listed()
    expect(cb).toHaveBeenLastCalledWith([concept, beta], { isLoaded: true })
    expect(cb.mock.calls.at(-1)![0][0].payload).toEqual({ eta: 'Q3' })
  })

  it('registering interest in a concept feature sends the event with $set, records it, and leaves the flag off', async () => {
    const { tok, c } = await listed()
    const listener = vi.fn()
    c.earlyAccessStore.subscribe(listener)
    expect(c.getEarlyAccessFeatureEnrollment('ai-assistant')).toBeUndefined()
    c.updateEarlyAccessFeatureEnrollment('ai-assistant', true)
    expect(c.isFeatureEnabled('ai-assistant', { send_event: false })).toBe(false)
    expect(c.getEarlyAccessFeatureEnrollment('ai-assistant')).toBe(true)
    expect(listener).toHaveBeenCalledTimes(1) // the hook hears of the registration
    const [ev] = await updates(c, tok)
    expect(ev.properties).toMatchObject({
      $feature_flag: 'ai-assistant',
      $feature_enrollment: true,
      $set: { '$feature_enrollment/ai-assistant': true },
      $early_access_feature_name: 'AI assistant',
      $feature_enrollment_stage: 'concept',
    })
    expect(ev.properties).not.toHaveProperty('$group_type')
    // Sent with later /flags: once the feature is released, the service turns the flag on for this person.
    c.reloadFeatureFlags()
    await settle()
    expect(net.flagRequests(tok).at(-1)!.body.person_properties).toEqual({ '$feature_enrollment/ai-assistant': true })
    expect(c.isFeatureEnabled('ai-assistant', { send_event: false })).toBe(false)
  })

  it('enrolling in a feature in a release stage turns its flag on at once, and off again', async () => {
    const { tok, c } = await listed()
    c.updateEarlyAccessFeatureEnrollment('new-editor', true)
    expect(c.isFeatureEnabled('new-editor', { send_event: false })).toBe(true)
    expect(c.getEarlyAccessFeatureEnrollment('new-editor')).toBe(true)
    c.updateEarlyAccessFeatureEnrollment('new-editor', false)
    expect(c.isFeatureEnabled('new-editor', { send_event: false })).toBe(false)
    expect((await updates(c, tok)).map((e) => [e.properties.$feature_enrollment, e.properties.$feature_enrollment_stage])).toEqual([
      [true, 'beta'],
      [false, 'beta'],
    ])
  })

  it("takes posthog-js's third argument, the stage as a string: 'concept' keeps the flag off, a release stage turns it on", async () => {
    const tok = token()
    const c = client(tok, { bootstrap: { featureFlags: { waitlisted: false, released: false } } })
    c.updateEarlyAccessFeatureEnrollment('waitlisted', true, 'concept')
    c.updateEarlyAccessFeatureEnrollment('released', true, 'alpha')
    expect(c.getFeatureFlag('waitlisted', { send_event: false })).toBe(false)
    expect(c.getFeatureFlag('released', { send_event: false })).toBe(true)
    expect((await updates(c, tok)).map((e) => e.properties)).toMatchObject([
      { $feature_flag: 'waitlisted', $feature_enrollment_stage: 'concept', $set: { '$feature_enrollment/waitlisted': true } },
      { $feature_flag: 'released', $feature_enrollment_stage: 'alpha', $set: { '$feature_enrollment/released': true } },
    ])
  })

  it('the stage given wins over the listed one; without either, the flag is set as posthog-js does', async () => {
    const { c } = await listed()
    c.updateEarlyAccessFeatureEnrollment('new-editor', true, { stage: 'concept' })
    expect(c.isFeatureEnabled('new-editor', { send_event: false })).toBe(false)
    c.updateEarlyAccessFeatureEnrollment('unlisted', true)
    expect(c.isFeatureEnabled('unlisted', { send_event: false })).toBe(true)
  })

  it('a group enrollment names the group ($group_type, $group_key), sets no person property, and turns the flag on for a member', async () => {
    const { tok, c } = await listed()
    c.group('company', 'acme')
    c.updateEarlyAccessFeatureEnrollment('new-editor', true, { group: { type: 'company', key: 'acme' } })
    expect(c.isFeatureEnabled('new-editor', { send_event: false })).toBe(true)
    expect(c.getEarlyAccessFeatureEnrollment('new-editor', { group: { type: 'company', key: 'acme' } })).toBe(true)
    expect(c.getEarlyAccessFeatureEnrollment('new-editor')).toBeUndefined() // not the person's
    const [ev] = await updates(c, tok)
    expect(ev.properties).toMatchObject({ $feature_flag: 'new-editor', $feature_enrollment: true, $group_type: 'company', $group_key: 'acme' })
    expect(ev.properties).not.toHaveProperty('$set')
    expect(ev).not.toHaveProperty('$set')
    // The group's property goes with later /flags requests (the person's do not change).
    c.reloadFeatureFlags()
    await settle()
    const body = net.flagRequests(tok).at(-1)!.body
    expect(body.groups).toEqual({ company: 'acme' })
    expect(body.group_properties).toEqual({ company: { '$feature_enrollment/new-editor': true } })
    expect(body.person_properties).toEqual({})
  })

  it('a group registration in a concept feature is recorded for the group, the flag stays off', async () => {
    const { tok, c } = await listed()
    c.group('company', 'acme')
    c.updateEarlyAccessFeatureEnrollment('ai-assistant', true, { group: { type: 'company', key: 'acme' } })
    expect(c.isFeatureEnabled('ai-assistant', { send_event: false })).toBe(false)
    expect(c.getEarlyAccessFeatureEnrollment('ai-assistant', { group: { type: 'company', key: 'acme' } })).toBe(true)
    const [ev] = await updates(c, tok)
    expect(ev.properties).toMatchObject({ $group_type: 'company', $group_key: 'acme', $feature_enrollment_stage: 'concept' })
  })

  it('a group the user is not in: the event is sent, nothing changes here', async () => {
    const { tok, c } = await listed()
    c.group('company', 'acme')
    const flags = c.flagStore.getSnapshot()
    c.updateEarlyAccessFeatureEnrollment('new-editor', true, { group: { type: 'company', key: 'globex' } })
    c.updateEarlyAccessFeatureEnrollment('new-editor', true, { group: { type: 'team', key: 'acme' } })
    expect(c.flagStore.getSnapshot()).toBe(flags)
    expect(c.isFeatureEnabled('new-editor', { send_event: false })).toBe(false)
    expect(c.getEarlyAccessFeatureEnrollment('new-editor', { group: { type: 'company', key: 'globex' } })).toBeUndefined()
    expect((await updates(c, tok)).map((e) => [e.properties.$group_type, e.properties.$group_key, e.properties.$set])).toEqual([
      ['company', 'globex', undefined],
      ['team', 'acme', undefined],
    ])
  })
})
