import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { clearStorage, client, network, settle, token } from './helpers'

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
})
const spies: { mockRestore(): void }[] = []
afterEach(() => spies.splice(0).forEach((s) => s.mockRestore()))
const fail = (method: 'getItem' | 'setItem' | 'removeItem') => spies.push(vi.spyOn(Storage.prototype, method).mockImplementation(quota))

const quota = () => {
  throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
}

describe('storage that throws', () => {
  it('falls back to memory when localStorage and cookies throw (private mode, sandbox)', async () => {
    fail('getItem')
    fail('setItem')
    fail('removeItem')
    // An own property shadows the prototype's accessor; deleting it restores cookies.
    Object.defineProperty(document, 'cookie', { configurable: true, get: quota, set: quota })
    try {
      const tok = token()
      net.flags = { featureFlags: { a: true } }
      const c = client(tok, { advanced_disable_flags: false })
      expect(c.__loaded).toBe(true)
      const id = c.get_distinct_id()
      expect(id).toBeTruthy()
      c.register({ sp: 1 })
      c.identify('user-1')
      c.capture('works')
      await settle()
      expect(c.getFeatureFlag('a')).toBe(true)
      await c.flush()
      const evs = net.events(tok)
      expect(evs.map((e) => e.event)).toEqual(['$identify', 'works', '$feature_flag_called'])
      expect(evs[1].properties).toMatchObject({ distinct_id: 'user-1', sp: 1 })
    } finally {
      delete (document as { cookie?: string }).cookie
    }
  })

  it('keeps working when storage fills up after start', async () => {
    const tok = token()
    const c = client(tok)
    fail('setItem')
    c.register({ after: 'full' })
    c.capture('still sent')
    await c.flush()
    expect(net.events(tok)[0].properties).toMatchObject({ after: 'full' })
  })

  it('survives unreadable stored values', async () => {
    const tok = token()
    localStorage.setItem(`svc_${tok}`, '{not json')
    localStorage.setItem(`svc_${tok}_queue`, '"nope"')
    const c = client(tok)
    c.capture('fine')
    await c.flush()
    expect(net.events(tok).map((e) => e.event)).toEqual(['fine'])
  })

  it("uses no storage at all with persistence: 'memory'", async () => {
    const tok = token()
    const c = client(tok, { persistence: 'memory' })
    c.capture('x')
    expect(localStorage.length).toBe(0)
    expect(document.cookie).toBe('')
    await c.flush()
    expect(net.events(tok)).toHaveLength(1)
  })

  it("keeps everything in the cookie with persistence: 'cookie', and the queue in memory", () => {
    const tok = token()
    const c = client(tok, { persistence: 'cookie' })
    c.register({ sp: 1 })
    c.capture('x')
    expect(localStorage.length).toBe(0)
    expect(decodeURIComponent(document.cookie)).toContain('"sp":1')
    expect(client(tok, { persistence: 'cookie' }).get_distinct_id()).toBe(c.get_distinct_id())
  })

  it("keeps only identity in the cookie with 'localStorage+cookie'", () => {
    const tok = token()
    const c = client(tok)
    c.register({ big: 'x'.repeat(100) })
    expect(decodeURIComponent(document.cookie)).toContain(c.get_distinct_id())
    expect(decodeURIComponent(document.cookie)).not.toContain('xxxx')
    expect(localStorage.getItem(`svc_${tok}`)).toContain('xxxx')
  })
})
