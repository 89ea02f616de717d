import { beforeEach, describe, expect, it } from 'vitest'
import { type Service } from 'service-js'
import { clearStorage, client, network, token } from './helpers'
import { autocaptureProps } from '../src/autocapture/elements'

let net: ReturnType<typeof network>
let tok: string
let c: Service
beforeEach(() => {
  clearStorage()
  net = network()
  document.body.innerHTML = ''
  tok = token()
})

const auto = async () => {
  await c.flush()
  return net.events(tok).filter((e) => e.event === '$autocapture')
}
const html = (s: string) => {
  document.body.innerHTML = s
}
const click = (sel: string) => document.querySelector(sel)!.dispatchEvent(new MouseEvent('click', { bubbles: true }))

describe('$autocapture', () => {
  beforeEach(() => {
    c = client(tok, { autocapture: true })
  })

  it('captures link clicks with $event_type and $elements_chain in the documented format', async () => {
    html('<div id="nav"><span>x</span><a class="test-class2 test-class" href="http://test.com">Go <span>now</span></a></div>')
    click('a')
    const [ev] = await auto()
    expect(ev.properties.$event_type).toBe('click')
    expect(ev.properties.$el_text).toBe('Go now')
    expect(ev.properties.$elements_chain).toBe(
      'a.test-class.test-class2:attr__class="test-class2 test-class"attr__href="http://test.com"href="http://test.com"nth-child="2"nth-of-type="1"text="Go now";' +
        'div:attr__id="nav"attr_id="nav"nth-child="1"nth-of-type="1";' +
        'body:nth-child="2"nth-of-type="1"',
    )
  })

  it('counts a click on a span inside a button for the button', async () => {
    html('<button id="buy" class="btn"><span>Buy</span></button>')
    click('span')
    const [ev] = await auto()
    expect(ev.properties.$elements_chain).toMatch(/^button\.btn:attr__class="btn"attr__id="buy"attr_id="buy"nth-child="1"nth-of-type="1"text="Buy";body/)
  })

  it('captures submit inputs, role=button and data-attr elements (attr__data-attr in the chain)', async () => {
    html('<input type="submit" value="Send"><div role="button">Menu</div><div data-attr="signup-cta"><b>Sign up</b></div><p>not me</p>')
    click('input')
    click('[role=button]')
    click('b')
    click('p')
    const evs = await auto()
    expect(evs).toHaveLength(3)
    expect(evs[0].properties.$elements_chain).toMatch(/^input:attr__type="submit"attr__value="Send"/)
    expect(evs[1].properties.$elements_chain).toMatch(/^div:attr__role="button"nth-child="2"nth-of-type="1"text="Menu"/)
    expect(evs[2].properties.$elements_chain).toContain('attr__data-attr="signup-cta"')
    expect(evs[2].properties.$elements_chain).toMatch(/^div:attr__data-attr="signup-cta"/)
  })

  it('captures change on form fields and submit on forms', async () => {
    html('<form id="f"><select name="plan"><option>a</option></select><textarea name="bio">my story</textarea><button>Go</button></form>')
    document.querySelector('select')!.dispatchEvent(new Event('change', { bubbles: true }))
    document.querySelector('textarea')!.dispatchEvent(new Event('change', { bubbles: true }))
    document.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))
    const evs = await auto()
    expect(evs.map((e) => e.properties.$event_type)).toEqual(['change', 'change', 'submit'])
    expect(evs[0].properties.$elements_chain).toMatch(/^select:attr__name="plan"/)
    expect(evs[1].properties.$elements_chain).not.toContain('my story') // a textarea's text is its value
    expect(evs[2].properties.$elements_chain).toMatch(/^form:attr__id="f"/)
  })

  it('never captures an element with class svc-no-capture, or anything inside one', async () => {
    html('<div class="svc-no-capture"><button id="secret">Hidden</button></div><a class="svc-no-capture" href="/x">x</a><button id="ok">ok</button>')
    click('#secret')
    click('a')
    click('#ok')
    const evs = await auto()
    expect(evs).toHaveLength(1)
    expect(evs[0].properties.$elements_chain).toContain('attr__id="ok"')
  })

  it('never lets a password value leave the page, nor card numbers or SSNs in text', async () => {
    html(`<form id="login" action="/login">
      <input id="pw" type="password" name="password" value="hunter2-attr" data-secret="hunter2-data" placeholder="hunter2-ph">
      <input id="cc" name="card" type="text" value="4111 1111 1111 1111">
      <button type="submit">Pay 4111 1111 1111 1111 or 123-45-6789 <span>now</span></button>
    </form>`)
    // A GET form would put the password in the next page's URL by itself; real login forms don't navigate like that.
    document.querySelector('form')!.addEventListener('submit', (e) => e.preventDefault())
    const pw = document.querySelector<HTMLInputElement>('#pw')!
    pw.value = 'hunter2-typed'
    document.querySelector<HTMLInputElement>('#cc')!.value = '5500 0000 0000 0004'
    pw.dispatchEvent(new Event('change', { bubbles: true }))
    click('#pw')
    document.querySelector('#cc')!.dispatchEvent(new Event('change', { bubbles: true }))
    click('button')
    document.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))
    await c.flush()
    const all = JSON.stringify(net.sent.map((r) => r.body)) + JSON.stringify(net.beacons.map((r) => r.body)) + JSON.stringify(localStorage)
    // Whole numbers, spaced or not: four digits alone also turn up in the random hex of uuids.
    expect(all).not.toMatch(/hunter2|4111 ?1111 ?1111|5500 ?0000 ?0000|123-?45-?6789/)
    const evs = await auto()
    // change on #pw and #cc, click on the button, submit (twice: from the click and dispatched); a click on the password field is no click target
    expect(evs.map((e) => e.properties.$event_type)).toEqual(['change', 'change', 'click', 'submit', 'submit'])
    expect(evs[0].properties.$elements_chain).toMatch(/^input:attr__id="pw"attr__name="password"attr_id="pw"nth-child/)
  })

  it('keeps only name, id, class and aria-label of form fields', async () => {
    html('<input id="email" class="f" name="email" aria-label="Email" type="email" value="a@b.c" placeholder="you@x" data-x="y">')
    document.querySelector('input')!.dispatchEvent(new Event('change', { bubbles: true }))
    const [ev] = await auto()
    expect(ev.properties.$elements_chain).toMatch(
      /^input\.f:attr__aria-label="Email"attr__class="f"attr__id="email"attr__name="email"attr_id="email"nth-child="1"nth-of-type="1";/,
    )
  })

  it('escapes quotes in the chain', () => {
    html('<button title=\'say "hi"\'>He said "go"</button>')
    const e = new MouseEvent('click', { bubbles: true })
    Object.defineProperty(e, 'target', { value: document.querySelector('button') })
    expect(autocaptureProps(e)?.$elements_chain).toMatch(/^button:attr__title="say \\"hi\\""nth-child="1"nth-of-type="1"text="He said \\"go\\""/)
  })

  it('is off with autocapture: false', async () => {
    const other = token()
    const quiet = client(other, { autocapture: false })
    html('<button>x</button>')
    click('button')
    await quiet.flush()
    expect(net.events(other)).toEqual([])
  })
})

describe('$pageview and $pageleave', () => {
  it('captures $pageview on load, not on history changes by default', async () => {
    history.replaceState(null, '', '/start')
    document.title = 'Start'
    c = client(tok, { capture_pageview: true })
    history.pushState(null, '', '/next')
    await c.flush()
    const pvs = net.events(tok).filter((e) => e.event === '$pageview')
    expect(pvs).toHaveLength(1)
    expect(pvs[0].properties).toMatchObject({ title: 'Start', $pathname: '/start', $pageview_id: pvs[0].uuid })
  })

  it("captures $pageview on pushState, replaceState and popstate with 'history_change' (only when the path changes)", async () => {
    history.replaceState(null, '', '/a')
    c = client(tok, { capture_pageview: 'history_change' })
    history.pushState(null, '', '/b')
    history.replaceState(null, '', '/b?tab=2') // same path
    history.replaceState(null, '', '/c')
    history.pushState(null, '', '/a')
    dispatchEvent(new PopStateEvent('popstate')) // location unchanged in the test: same path, no event
    await c.flush()
    const pvs = net.events(tok).filter((e) => e.event === '$pageview')
    expect(pvs.map((e) => e.properties.$pathname)).toEqual(['/a', '/b', '/c', '/a'])
    expect(pvs[1].properties).toMatchObject({ $prev_pageview_pathname: '/a', $prev_pageview_id: pvs[0].uuid })
  })

  it('sends $pageleave by beacon on pagehide', async () => {
    history.replaceState(null, '', '/leaving')
    c = client(tok, { capture_pageview: true })
    await c.flush()
    dispatchEvent(new Event('pagehide'))
    const leave = net.events(tok).find((e) => e.event === '$pageleave')
    expect(leave.properties).toMatchObject({ $prev_pageview_pathname: '/leaving' })
    expect(net.beacons.some((b) => b.body.batch.some((e: { event: string }) => e.event === '$pageleave'))).toBe(true)
  })

  it('no $pageleave when capture_pageleave is false', async () => {
    c = client(tok, { capture_pageview: true, capture_pageleave: false })
    dispatchEvent(new Event('pagehide'))
    expect(net.events(tok).some((e) => e.event === '$pageleave')).toBe(false)
  })
})

describe('attribute values', () => {
  it('drops a value that is a card number or SSN as a whole, keeps ordinary numbers', () => {
    html('<a href="/orders/123456789/items" data-card="4111-1111-1111-1111" data-ssn="123-45-6789" data-n="42">x</a>')
    const e = new MouseEvent('click', { bubbles: true })
    Object.defineProperty(e, 'target', { value: document.querySelector('a') })
    const chain = autocaptureProps(e)!.$elements_chain as string
    expect(chain).toContain('href="/orders/123456789/items"')
    expect(chain).toContain('attr__data-n="42"')
    expect(chain).not.toMatch(/4111|6789"/)
  })
})
