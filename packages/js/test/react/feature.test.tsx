import { StrictMode, type ReactNode } from 'react'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Service } from 'service-js'
import { ServiceFeature, ServiceProvider } from '../../src/react'
import { clearStorage, client, network, settle, token } from '../helpers'

let net: ReturnType<typeof network>

/** An IntersectionObserver the test drives: `show()` makes every observed element visible. */
class FakeObserver {
  static all: FakeObserver[] = []
  targets: Element[] = []
  disconnected = false
  constructor(
    public callback: IntersectionObserverCallback,
    public options: IntersectionObserverInit = {},
  ) {
    FakeObserver.all.push(this)
  }
  observe(el: Element) {
    this.targets.push(el)
  }
  unobserve() {}
  disconnect() {
    this.disconnected = true
  }
  takeRecords() {
    return []
  }
  static show(visible = true) {
    for (const o of FakeObserver.all.filter((o) => !o.disconnected)) {
      o.callback(
        o.targets.map((target) => ({ target, isIntersecting: visible }) as IntersectionObserverEntry),
        o as unknown as IntersectionObserver,
      )
    }
  }
  static live() {
    return FakeObserver.all.filter((o) => !o.disconnected)
  }
}

beforeEach(() => {
  clearStorage()
  net = network()
  FakeObserver.all = []
  vi.stubGlobal('IntersectionObserver', FakeObserver)
})
afterEach(cleanup)

const inProvider = (c: Service, ui: ReactNode) => render(<ServiceProvider client={c}>{ui}</ServiceProvider>)
const events = async (c: Service, tok: string, name: string) => {
  await c.flush()
  return net.events(tok).filter((e) => e.event === name)
}

describe('ServiceFeature', () => {
  it('renders children when the flag is on, the fallback when it is off or unknown', () => {
    const c = client(token(), { bootstrap: { featureFlags: { on: true, off: false } } })
    inProvider(
      c,
      <>
        <ServiceFeature flag="on" fallback={<i>fallback-on</i>}>
          <b>new-on</b>
        </ServiceFeature>
        <ServiceFeature flag="off" fallback={<i>fallback-off</i>}>
          <b>new-off</b>
        </ServiceFeature>
        <ServiceFeature flag="unknown" fallback={<i>fallback-unknown</i>}>
          <b>new-unknown</b>
        </ServiceFeature>
        <ServiceFeature flag="off">
          <b>no-fallback</b>
        </ServiceFeature>
      </>,
    )
    expect(document.body.textContent).toBe('new-onfallback-offfallback-unknown')
    act(() => c.featureFlags.overrideFeatureFlags({ on: false, off: true }))
    expect(document.body.textContent).toBe('fallback-onnew-offfallback-unknownno-fallback')
  })

  it('match: a variant key matches that variant only; true matches any enabled value; false matches off', () => {
    const c = client(token(), { bootstrap: { featureFlags: { exp: 'test' } } })
    inProvider(
      c,
      <>
        <ServiceFeature flag="exp" match="test" fallback="[not test]">
          [test]
        </ServiceFeature>
        <ServiceFeature flag="exp" match="control" fallback="[not control]">
          [control]
        </ServiceFeature>
        <ServiceFeature flag="exp" match={true} fallback="[off]">
          [on]
        </ServiceFeature>
        <ServiceFeature flag="exp" match={false} fallback="[not off]">
          [is off]
        </ServiceFeature>
      </>,
    )
    expect(document.body.textContent).toBe('[test][not control][on][not off]')
    act(() => c.featureFlags.overrideFeatureFlags({ exp: false }))
    expect(document.body.textContent).toBe('[not test][not control][off][is off]')
  })

  it('children as a function receive the payload', () => {
    const c = client(token(), { bootstrap: { featureFlags: { banner: 'b' }, featureFlagPayloads: { banner: '{"text":"Hello"}' } } })
    inProvider(c, <ServiceFeature flag="banner">{(payload) => <h1>{(payload as { text: string }).text}</h1>}</ServiceFeature>)
    expect(screen.getByRole('heading').textContent).toBe('Hello')
  })

  it('wraps the children in one display: contents element (no layout box), the fallback in none', () => {
    const c = client(token(), { bootstrap: { featureFlags: { on: true } } })
    const { container } = inProvider(
      c,
      <>
        <ServiceFeature flag="on">
          <span>a</span>
          <span>b</span>
        </ServiceFeature>
        <ServiceFeature flag="off" fallback={<span>c</span>}>
          <span>d</span>
        </ServiceFeature>
      </>,
    )
    expect(container.innerHTML).toBe('<div style="display: contents;"><span>a</span><span>b</span></div><span>c</span>')
  })

  it('captures $feature_view once when visible (threshold 0.1 by default), observing the children', async () => {
    const tok = token()
    const c = client(tok, { bootstrap: { featureFlags: { exp: 'test' } } })
    inProvider(
      c,
      <ServiceFeature flag="exp">
        <span>a</span>
        <span>b</span>
      </ServiceFeature>,
    )
    expect(FakeObserver.live()).toHaveLength(1)
    expect(FakeObserver.live()[0].options).toEqual({ threshold: 0.1 })
    expect(FakeObserver.live()[0].targets.map((t) => t.textContent)).toEqual(['a', 'b'])
    FakeObserver.show(false)
    expect(await events(c, tok, '$feature_view')).toHaveLength(0)
    FakeObserver.show()
    FakeObserver.show()
    const views = await events(c, tok, '$feature_view')
    expect(views).toHaveLength(1)
    expect(views[0].properties).toMatchObject({ feature_flag: 'exp', feature_flag_variant: 'test', $set: { '$feature_view/exp': 'test' } })
    expect(FakeObserver.live()).toHaveLength(0) // disconnected once seen
    act(() => c.featureFlags.overrideFeatureFlags({ exp: false }))
    act(() => c.featureFlags.overrideFeatureFlags({ exp: 'test' })) // off and on again: still the same ServiceFeature
    expect(FakeObserver.live()).toHaveLength(0)
    expect(await events(c, tok, '$feature_view')).toHaveLength(1)
  })

  it('captures $feature_interaction once on click; a boolean flag has no variant and $set true', async () => {
    const tok = token()
    const c = client(tok, { bootstrap: { featureFlags: { cta: true } } })
    inProvider(
      c,
      <ServiceFeature flag="cta">
        <button>Buy</button>
      </ServiceFeature>,
    )
    fireEvent.click(screen.getByText('Buy'))
    fireEvent.click(screen.getByText('Buy'))
    const clicks = await events(c, tok, '$feature_interaction')
    expect(clicks).toHaveLength(1)
    expect(clicks[0].properties).toMatchObject({ feature_flag: 'cta', $set: { '$feature_interaction/cta': true } })
    expect(clicks[0].properties).not.toHaveProperty('feature_flag_variant')
  })

  it('trackView and trackInteraction turn the events off; visibilityObserverOptions are passed on', async () => {
    const tok = token()
    const c = client(tok, { bootstrap: { featureFlags: { f: true } } })
    inProvider(
      c,
      <>
        <ServiceFeature flag="f" trackView={false} trackInteraction={false}>
          <button>off</button>
        </ServiceFeature>
        <ServiceFeature flag="f" trackInteraction={false} visibilityObserverOptions={{ threshold: 0.5, rootMargin: '10px' }}>
          <button>opts</button>
        </ServiceFeature>
      </>,
    )
    expect(FakeObserver.live()).toHaveLength(1)
    expect(FakeObserver.live()[0].options).toEqual({ threshold: 0.5, rootMargin: '10px' })
    fireEvent.click(screen.getByText('off'))
    fireEvent.click(screen.getByText('opts'))
    expect(await events(c, tok, '$feature_interaction')).toHaveLength(0)
  })

  it('under StrictMode still captures each event once, and disconnects its observer on unmount', async () => {
    const tok = token()
    const c = client(tok, { bootstrap: { featureFlags: { f: true } } })
    const { unmount } = render(
      <StrictMode>
        <ServiceProvider client={c}>
          <ServiceFeature flag="f">
            <button>x</button>
          </ServiceFeature>
        </ServiceProvider>
      </StrictMode>,
    )
    expect(FakeObserver.live()).toHaveLength(1)
    FakeObserver.show()
    fireEvent.click(screen.getByText('x'))
    fireEvent.click(screen.getByText('x'))
    expect(await events(c, tok, '$feature_view')).toHaveLength(1)
    expect(await events(c, tok, '$feature_interaction')).toHaveLength(1)
    render(
      <ServiceProvider client={c}>
        <ServiceFeature flag="f">
          <button>y</button>
        </ServiceFeature>
      </ServiceProvider>,
    )
    expect(FakeObserver.live()).toHaveLength(1)
    unmount()
    cleanup()
    expect(FakeObserver.live()).toHaveLength(0)
  })

  it('throws an error naming ServiceProvider when there is none above it', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() =>
      render(
        <ServiceFeature flag="f">
          <b>x</b>
        </ServiceFeature>,
      ),
    ).toThrow(/ServiceFeature must be used inside a <ServiceProvider>/)
    error.mockRestore()
  })

  it('with a variant match exposes once per person, flag and variant: every render and remount of one person counts once', async () => {
    const tok = token()
    net.flags = {
      flags: { exp: { key: 'exp', enabled: true, variant: 'test', metadata: { payload: null } } },
      errorsWhileComputingFlags: false,
      requestId: 'req-1',
    }
    const c = client(tok, { advanced_disable_flags: false, bootstrap: { distinctID: 'user-a', isIdentifiedID: true } })
    const ui = (
      <>
        <ServiceFeature flag="exp" match="test" fallback={<i>old</i>}>
          <b>new</b>
        </ServiceFeature>
        <ServiceFeature flag="exp" match="control" fallback={<i>not control</i>}>
          <b>control</b>
        </ServiceFeature>
      </>
    )
    const { unmount } = inProvider(c, ui)
    await act(() => settle())
    expect(screen.getByText('new')).toBeTruthy()
    unmount()
    inProvider(c, ui)
    await act(async () => {
      c.identify('user-b')
      await settle()
    })
    const exposures = (await events(c, tok, '$feature_flag_called')).map((e) => [e.properties.distinct_id, e.properties.$feature_flag_response])
    expect(exposures).toEqual([
      ['user-a', 'test'],
      ['user-b', 'test'],
    ])
  })
})
