import { act } from '@testing-library/react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ServiceFeature, ServiceProvider, useEarlyAccessFeatures, useFeatureFlagVariantKey } from '../../src/react'
import { clearStorage, client, network, settle, token } from '../helpers'

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
})

function Page() {
  return (
    <main>
      <p id="variant">{String(useFeatureFlagVariantKey('checkout'))}</p>
      <ServiceFeature flag="new-ui" fallback={<p>old banner</p>}>
        <p>new banner</p>
      </ServiceFeature>
    </main>
  )
}

describe('hydration', () => {
  it('hydrates server HTML rendered from the same bootstrap without a mismatch, then takes the service answer', async () => {
    const tok = token()
    const options = { api_host: 'https://svc.example.com', capture_pageview: false, bootstrap: { featureFlags: { 'new-ui': true, checkout: 'test' } } } as const
    const app = (
      <ServiceProvider apiKey={tok} options={options}>
        <Page />
      </ServiceProvider>
    )
    const container = document.createElement('div')
    container.innerHTML = renderToString(app)
    document.body.append(container)
    const serverHtml = container.innerHTML
    expect(serverHtml).toContain('new banner')

    // A device that already has other values stored must not change the hydration render.
    localStorage.setItem(`svc_${tok}`, JSON.stringify({ $flags: { 'new-ui': false, checkout: 'control' } }))
    net.flags = { featureFlags: { 'new-ui': false, checkout: 'control' }, featureFlagPayloads: {} }
    const recoverable = vi.fn()
    const error = vi.spyOn(console, 'error')
    await act(async () => {
      hydrateRoot(container, app, { onRecoverableError: recoverable })
    })
    expect(recoverable).not.toHaveBeenCalled()
    expect(error).not.toHaveBeenCalled()
    expect(container.innerHTML).toBe(serverHtml) // the bootstrap wins over stored values, as in init
    await act(() => settle())
    expect(net.flagRequests(tok)).toHaveLength(1)
    expect(container.querySelector('#variant')!.textContent).toBe('control')
    expect(container.textContent).toContain('old banner')
    error.mockRestore()
  })

  it('hydrates an early access list without a mismatch, then shows the loaded features with their action and registration', async () => {
    const tok = token()
    function Programme() {
      const { features, isLoaded } = useEarlyAccessFeatures(['concept', 'beta'])
      return <p id="eaf">{isLoaded ? features.map((f) => `${f.flagKey}:${f.action}:${f.enrolled}`).join() : 'loading'}</p>
    }
    const container = document.createElement('div')
    container.innerHTML = renderToString(
      <ServiceProvider apiKey={tok}>
        <Programme />
      </ServiceProvider>,
    )
    document.body.append(container)
    // This device registered earlier: it shows after hydration, never in it.
    localStorage.setItem(`svc_${tok}`, JSON.stringify({ $person_props: { '$feature_enrollment/ai': true } }))
    const app = (
      <ServiceProvider client={client(tok)}>
        <Programme />
      </ServiceProvider>
    )
    net.earlyAccess = {
      earlyAccessFeatures: [
        { id: 'c', name: 'AI', description: '', stage: 'concept', documentationUrl: '', flagKey: 'ai' },
        { id: 'b', name: 'Editor', description: '', stage: 'beta', documentationUrl: '', flagKey: 'editor' },
      ],
    }
    const recoverable = vi.fn()
    const error = vi.spyOn(console, 'error')
    await act(async () => {
      hydrateRoot(container, app, { onRecoverableError: recoverable })
    })
    await act(() => settle())
    expect(recoverable).not.toHaveBeenCalled()
    expect(error).not.toHaveBeenCalled()
    expect(container.querySelector('#eaf')!.textContent).toBe('ai:register-interest:true,editor:try-it:false')
    error.mockRestore()
  })
})
