// @vitest-environment node
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { Service, service } from 'service-js'
import {
  ServiceFeature,
  ServiceProvider,
  useActiveFeatureFlags,
  useEarlyAccessFeatures,
  useFeatureFlagEnabled,
  useFeatureFlagPayload,
  useFeatureFlagVariantKey,
  useService,
} from '../../src/react'

function Page() {
  const client = useService()
  const payload = useFeatureFlagPayload<{ color: string }>('checkout')
  return (
    <main>
      <p id="client">{client ? 'client' : 'no client'}</p>
      <p id="enabled">{String(useFeatureFlagEnabled('new-ui'))}</p>
      <p id="variant">{String(useFeatureFlagVariantKey('checkout'))}</p>
      <p id="payload">{payload?.color ?? 'none'}</p>
      <p id="active">{useActiveFeatureFlags().join(',')}</p>
      <ServiceFeature flag="new-ui" fallback={<p>old banner</p>}>
        <p>new banner</p>
      </ServiceFeature>
      <ServiceFeature flag="checkout" match="test">
        {(p) => <p>checkout in {(p as { color: string }).color}</p>}
      </ServiceFeature>
    </main>
  )
}

const bootstrap = { distinctID: 'user-1', featureFlags: { 'new-ui': true, checkout: 'test', off: false }, featureFlagPayloads: { checkout: '{"color":"red"}' } }

describe('server rendering (renderToString, no window)', () => {
  it('with `apiKey` and a bootstrap: the bootstrapped values are in the HTML, the client stays uninitialized, nothing is sent', () => {
    const fetchSpy = vi.fn()
    vi.stubGlobal('fetch', fetchSpy)
    expect(typeof window).toBe('undefined')
    const html = renderToString(
      <ServiceProvider apiKey="phc_ssr" options={{ bootstrap }}>
        <Page />
      </ServiceProvider>,
    )
    expect(html).toContain('<p id="client">no client</p>')
    expect(html).toContain('<p id="enabled">true</p>')
    expect(html).toContain('<p id="variant">test</p>')
    expect(html).toContain('<p id="payload">red</p>')
    expect(html).toContain('<p id="active">new-ui,checkout</p>')
    expect(html).toContain('<div style="display:contents"><p>new banner</p></div>')
    expect(html).toContain('<p>checkout in <!-- -->red</p>')
    expect(html).not.toContain('old banner')
    expect(service.__loaded).toBe(false) // never initialized while rendering
    expect(fetchSpy).not.toHaveBeenCalled()
    vi.unstubAllGlobals()
  })

  it('with a `client` initialized on the server: its bootstrap is rendered and useService returns it', () => {
    const c = new Service().init('phc_ssr_client', { bootstrap })
    const html = renderToString(
      <ServiceProvider client={c}>
        <Page />
      </ServiceProvider>,
    )
    expect(html).toContain('<p id="client">client</p>')
    expect(html).toContain('<p id="enabled">true</p>')
    expect(html).toContain('<p id="variant">test</p>')
    expect(html).toContain('new banner')
  })

  it('without a bootstrap: unknown values and the fallbacks', () => {
    const html = renderToString(
      <ServiceProvider apiKey="phc_ssr">
        <Page />
      </ServiceProvider>,
    )
    expect(html).toContain('<p id="enabled">undefined</p>')
    expect(html).toContain('<p id="variant">undefined</p>')
    expect(html).toContain('<p id="active"></p>')
    expect(html).toContain('old banner')
    expect(html).not.toContain('checkout in')
  })

  it('useEarlyAccessFeatures renders the not-loaded state (the server snapshot), even from a client that has lists and registrations', async () => {
    function Programme() {
      const { features, isLoaded } = useEarlyAccessFeatures(['concept', 'beta'])
      return <p id="eaf">{isLoaded ? features.map((f) => `${f.name}:${f.action}:${f.enrolled}`).join() : 'loading'}</p>
    }
    const fetchSpy = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ earlyAccessFeatures: [{ id: 'c', name: 'AI', description: '', stage: 'concept', documentationUrl: '', flagKey: 'ai' }] }),
        ),
    )
    vi.stubGlobal('fetch', fetchSpy)
    expect(
      renderToString(
        <ServiceProvider apiKey="phc_ssr">
          <Programme />
        </ServiceProvider>,
      ),
    ).toContain('<p id="eaf">loading</p>')
    expect(fetchSpy).not.toHaveBeenCalled() // effects do not run on the server

    const c = new Service().init('phc_ssr_eaf')
    c.getEarlyAccessFeatures(() => {}, true, ['concept', 'beta'])
    await new Promise((r) => setTimeout(r, 10))
    c.updateEarlyAccessFeatureEnrollment('ai', true)
    expect(c.earlyAccessStore.getSnapshot()['concept,beta'].features).toHaveLength(1)
    expect(
      renderToString(
        <ServiceProvider client={c}>
          <Programme />
        </ServiceProvider>,
      ),
    ).toContain('<p id="eaf">loading</p>')
    vi.unstubAllGlobals()
  })
})
