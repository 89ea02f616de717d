// @vitest-environment node
import { describe, expect, it, vi } from 'vitest'
import { Service, bootstrapSnapshot } from 'service-js'

describe('without window (server rendering)', () => {
  it('init loads the bootstrap, serves it synchronously and sends nothing', async () => {
    const fetchSpy = vi.fn()
    vi.stubGlobal('fetch', fetchSpy)
    expect(typeof window).toBe('undefined')
    const bootstrap = { distinctID: 'u1', featureFlags: { a: true, b: 'test' }, featureFlagPayloads: { b: '{"x":1}' } }
    const c = new Service().init('phc_ssr', { bootstrap })
    expect(c.__loaded).toBe(true)
    expect(c.get_distinct_id()).toBe('u1')
    expect(c.getFeatureFlag('b')).toBe('test')
    expect(c.getFeatureFlagPayload('b')).toEqual({ x: 1 })
    expect(c.flagStore.getServerSnapshot()).toEqual({ flags: { a: true, b: 'test' }, payloads: { b: { x: 1 } }, source: 'bootstrap' })
    expect(c.flagStore.getSnapshot()).toEqual(c.flagStore.getServerSnapshot())
    c.capture('ignored')
    c.identify('u2')
    c.reloadFeatureFlags()
    await c.flush()
    await new Promise((r) => setTimeout(r, 20))
    expect(fetchSpy).not.toHaveBeenCalled()
    vi.unstubAllGlobals()
  })

  it('bootstrapSnapshot is a pure function of the bootstrap', () => {
    const s = bootstrapSnapshot({ featureFlags: { a: true, off: false }, featureFlagPayloads: { a: '[1]', off: '{}' } })
    expect(s).toEqual({ flags: { a: true, off: false }, payloads: { a: [1] }, source: 'bootstrap' })
    expect(Object.isFrozen(s)).toBe(true)
    expect(bootstrapSnapshot(undefined)).toEqual({ flags: {}, payloads: {}, source: 'none' })
    expect(bootstrapSnapshot()).toBe(bootstrapSnapshot({}))
  })

  it('loadExtension resolves false without window (nothing is started)', async () => {
    const c = new Service().init('phc_ssr_ext', { capture_exceptions: true })
    expect(await c.loadExtension('exceptions')).toBe(false)
    await expect(c.flush()).resolves.toBeUndefined()
  })

  it('the module and the default instance load without window', async () => {
    const mod = await import('service-js')
    expect(mod.service).toBeInstanceOf(mod.Service)
    expect(mod.default).toBe(mod.service)
  })
})
