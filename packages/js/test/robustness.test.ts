// Issue 10, item 8: a value JSON cannot hold (a circular reference, a BigInt, a function, a symbol) costs
// that value, never the client: later events and flag requests go on as before.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { clearStorage, client, network, settle, token } from './helpers'

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
})
afterEach(() => vi.restoreAllMocks())

/** `{ name, self: <itself> }` */
function circular(name: string): Record<string, unknown> {
  const o: Record<string, unknown> = { name }
  o.self = o
  return o
}

describe('values JSON cannot hold (issue 10, item 8)', () => {
  it('after register() of a circular object, every later event is still sent, with the loop left out', async () => {
    const tok = token()
    const c = client(tok)
    c.register({ o: circular('o'), plan: 'pro' })
    c.capture('first')
    c.capture('second', { n: 2 })
    await c.flush()
    const events = net.events(tok)
    expect(events.map((e) => e.event)).toEqual(['first', 'second'])
    for (const e of events) expect(e.properties).toMatchObject({ o: { name: 'o' }, plan: 'pro' })
    expect(events[0].properties.o).not.toHaveProperty('self')
  })

  it('capture() with circular, BigInt, function and symbol properties sends the event without them (BigInt as a string)', async () => {
    const tok = token()
    const c = client(tok)
    c.capture('odd', { cart: circular('cart'), big: 12345678901234567890n, fn: () => 1, sym: Symbol('s'), kept: 'yes' })
    c.register({ version: 10n })
    c.capture('after')
    await c.flush()
    const [odd, after] = net.events(tok)
    expect(odd.event).toBe('odd')
    expect(odd.properties).toMatchObject({ cart: { name: 'cart' }, big: '12345678901234567890', kept: 'yes' })
    expect(odd.properties.cart).not.toHaveProperty('self')
    expect(odd.properties).not.toHaveProperty('fn')
    expect(odd.properties).not.toHaveProperty('sym')
    expect(after).toMatchObject({ event: 'after', properties: { version: '10' } })
  })

  it('identify() and group() with circular properties still send their events and later /flags requests', async () => {
    const tok = token()
    const c = client(tok, { advanced_disable_flags: false })
    await settle()
    c.identify('user-1', { me: circular('ada'), plan: 'pro' }, { first: circular('x') })
    c.group('company', 'acme', { org: circular('acme'), seats: 10n })
    c.capture('after')
    await settle()
    await c.flush()
    const events = net.events(tok)
    expect(events.map((e) => e.event)).toEqual(['$identify', '$groupidentify', 'after'])
    expect(events[0].$set).toEqual({ me: { name: 'ada' }, plan: 'pro' })
    expect(events[0].$set_once).toEqual({ first: { name: 'x' } })
    expect(events[1].properties.$group_set).toEqual({ org: { name: 'acme' }, seats: '10' })
    const last = net.flagRequests(tok).at(-1)!
    expect(last.body).toMatchObject({
      distinct_id: 'user-1',
      person_properties: { me: { name: 'ada' }, plan: 'pro' },
      group_properties: { company: { org: { name: 'acme' }, seats: '10' } },
    })
  })

  it('what the client stores survives a circular super property: a reload still has the later ones', async () => {
    const tok = token()
    const c = client(tok)
    c.register({ o: circular('o') })
    c.register({ later: 1 })
    const reloaded = client(tok)
    reloaded.capture('after-reload')
    await reloaded.flush()
    expect(net.events(tok).at(-1)!.properties).toMatchObject({ o: { name: 'o' }, later: 1 })
  })

  it('warns on the console with debug: true (as posthog-js logs only in debug mode), and is silent without', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    client(token()).capture('quiet', { o: circular('o') })
    expect(warn).not.toHaveBeenCalled()
    client(token(), { debug: true }).capture('loud', { o: circular('o') })
    expect(warn).toHaveBeenCalledWith('[service-js]', expect.stringContaining('left out'), 'properties.o.self')
  })
})
