import { StrictMode, type ReactNode } from 'react'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Service } from 'service-js'
import {
  ServiceProvider,
  useActiveFeatureFlags,
  useEarlyAccessFeatures,
  useFeatureFlagEnabled,
  useFeatureFlagPayload,
  useFeatureFlagVariantKey,
  useService,
} from '../../src/react'
import { clearStorage, client, network, settle, token } from '../helpers'

let net: ReturnType<typeof network>
beforeEach(() => {
  clearStorage()
  net = network()
})
afterEach(cleanup)

/** A v2 `/flags` answer. */
const v2 = (flags: Record<string, boolean | string>, payloads: Record<string, string> = {}) => ({
  flags: Object.fromEntries(
    Object.entries(flags).map(([key, v]) => [
      key,
      { key, enabled: v !== false, variant: typeof v === 'string' ? v : null, metadata: { payload: payloads[key] ?? null } },
    ]),
  ),
  errorsWhileComputingFlags: false,
  requestId: 'req-1',
})

const withProvider = (c: Service) => ({ wrapper: ({ children }: { children: ReactNode }) => <ServiceProvider client={c}>{children}</ServiceProvider> })
const called = async (c: Service, tok: string) => {
  await c.flush()
  return net
    .events(tok)
    .filter((e) => e.event === '$feature_flag_called')
    .map((e) => [e.properties.$feature_flag, e.properties.$feature_flag_response])
}

/** Counts the store's live subscriptions (every hook subscribes through `client.flagStore.subscribe`). */
function countListeners(c: Service) {
  const store = c.flagStore
  const subscribe = store.subscribe
  const count = { live: 0 }
  store.subscribe = (listener) => {
    count.live++
    const off = subscribe(listener)
    return () => {
      count.live--
      off()
    }
  }
  return count
}

function Flags() {
  const enabled = useFeatureFlagEnabled('new-ui')
  const variant = useFeatureFlagVariantKey('checkout')
  const payload = useFeatureFlagPayload<{ color: string }>('checkout')
  const active = useActiveFeatureFlags()
  return (
    <p>
      <span data-testid="enabled">{String(enabled)}</span>
      <span data-testid="variant">{String(variant)}</span>
      <span data-testid="payload">{payload?.color ?? 'none'}</span>
      <span data-testid="active">{active.join(',')}</span>
    </p>
  )
}
const text = (id: string) => screen.getByTestId(id).textContent

describe('flag hooks', () => {
  it('read bootstrapped values on the first render, then the service answer', async () => {
    const tok = token()
    net.flags = v2({ 'new-ui': false, checkout: 'test', other: true }, { checkout: '{"color":"green"}' })
    const c = client(tok, {
      advanced_disable_flags: false,
      bootstrap: { featureFlags: { 'new-ui': true, checkout: 'control' }, featureFlagPayloads: { checkout: { color: 'red' } } },
    })
    render(<Flags />, withProvider(c))
    expect([text('enabled'), text('variant'), text('payload'), text('active')]).toEqual(['true', 'control', 'red', 'new-ui,checkout'])
    await act(() => settle())
    expect([text('enabled'), text('variant'), text('payload'), text('active')]).toEqual(['false', 'test', 'green', 'checkout,other'])
  })

  it('return undefined while no value is known, false for an unknown flag once the service answered', async () => {
    const tok = token()
    net.flags = v2({ checkout: 'test' })
    const c = client(tok, { advanced_disable_flags: false })
    render(<Flags />, withProvider(c))
    expect([text('enabled'), text('variant'), text('payload'), text('active')]).toEqual(['undefined', 'undefined', 'none', ''])
    await act(() => settle())
    expect([text('enabled'), text('variant'), text('payload'), text('active')]).toEqual(['false', 'test', 'none', 'checkout'])
  })

  it('useFeatureFlagEnabled returns defaultValue while the flag is unknown', () => {
    const c = client(token())
    function D() {
      return <>{String(useFeatureFlagEnabled('x', true))}</>
    }
    const { container } = render(<D />, withProvider(c))
    expect(container.textContent).toBe('true')
  })

  it('follow local overrides synchronously', () => {
    const c = client(token(), { bootstrap: { featureFlags: { 'new-ui': true } } })
    render(<Flags />, withProvider(c))
    act(() => c.featureFlags.overrideFeatureFlags({ flags: { 'new-ui': false, checkout: 'b' }, payloads: { checkout: { color: 'blue' } } }))
    expect([text('enabled'), text('variant'), text('payload'), text('active')]).toEqual(['false', 'b', 'blue', 'checkout'])
  })

  it('a component using flag A does not re-render when flag B changes (nor when A keeps its value)', () => {
    const c = client(token(), { bootstrap: { featureFlags: { a: true, b: 'one' } } })
    const renders = { enabled: 0, variant: 0, payload: 0, active: 0 }
    function Enabled() {
      renders.enabled++
      return <>{String(useFeatureFlagEnabled('a'))}</>
    }
    function Variant() {
      renders.variant++
      return <>{String(useFeatureFlagVariantKey('a'))}</>
    }
    function Payload() {
      renders.payload++
      return <>{JSON.stringify(useFeatureFlagPayload('a'))}</>
    }
    function Active() {
      renders.active++
      return <>{useActiveFeatureFlags().join()}</>
    }
    render(
      <>
        <Enabled />
        <Variant />
        <Payload />
        <Active />
      </>,
      withProvider(c),
    )
    expect(renders).toEqual({ enabled: 1, variant: 1, payload: 1, active: 1 })
    act(() => c.featureFlags.overrideFeatureFlags({ flags: { b: 'two' } })) // only b changes
    act(() => c.featureFlags.overrideFeatureFlags({ flags: { b: 'three', c: false } })) // b again, a disabled flag appears
    expect(renders).toEqual({ enabled: 1, variant: 1, payload: 1, active: 1 })
    act(() => c.featureFlags.overrideFeatureFlags({ flags: { a: 'test', b: 'three' } })) // a: true → 'test', still enabled
    expect(renders).toEqual({ enabled: 1, variant: 2, payload: 1, active: 1 })
    act(() => c.featureFlags.overrideFeatureFlags({ flags: { a: 'test', b: 'three' }, payloads: { a: { n: 1 } } }))
    expect(renders).toEqual({ enabled: 1, variant: 2, payload: 2, active: 1 })
    act(() => c.featureFlags.overrideFeatureFlags({ flags: { a: false, b: 'three' } }))
    expect(renders).toEqual({ enabled: 2, variant: 3, payload: 3, active: 2 })
  })

  it('send $feature_flag_called once per flag and value when used; useActiveFeatureFlags sends none', async () => {
    const tok = token()
    const c = client(tok, { bootstrap: { featureFlags: { a: true, b: 'x', c: true } } })
    function Uses() {
      useFeatureFlagEnabled('a')
      useFeatureFlagEnabled('a')
      useFeatureFlagVariantKey('b')
      useFeatureFlagPayload('a')
      useActiveFeatureFlags()
      return null
    }
    const { rerender } = render(<Uses />, withProvider(c))
    rerender(<Uses />)
    expect(await called(c, tok)).toEqual([
      ['a', true],
      ['b', 'x'],
    ])
    act(() => c.featureFlags.overrideFeatureFlags({ flags: { b: 'y' } }))
    expect(await called(c, tok)).toEqual([
      ['a', true],
      ['b', 'x'],
      ['b', 'y'],
    ])
  })

  it('report the same value again for each new person: after identify (flags reloaded, same value) and after reset', async () => {
    const tok = token()
    net.flags = v2({ exp: 'test' })
    const c = client(tok, { advanced_disable_flags: false, bootstrap: { distinctID: 'user-a', isIdentifiedID: true } })
    function Variant() {
      return <>{String(useFeatureFlagVariantKey('exp'))}</>
    }
    const { container } = render(<Variant />, withProvider(c))
    await act(() => settle())
    expect(container.textContent).toBe('test')
    await act(async () => {
      c.identify('user-b')
      await settle()
    })
    await act(async () => {
      c.reset()
      await settle()
    })
    await c.flush()
    const exposures = net
      .events(tok)
      .filter((e) => e.event === '$feature_flag_called')
      .map((e) => [e.properties.distinct_id, e.properties.$feature_flag_response])
    expect(exposures).toEqual([
      ['user-a', 'test'],
      ['user-b', 'test'],
      [c.get_distinct_id(), 'test'],
    ])
  })

  it('leave no store listener behind on unmount', () => {
    const c = client(token(), { bootstrap: { featureFlags: { a: true } } })
    const listeners = countListeners(c)
    const { unmount } = render(<Flags />, withProvider(c))
    expect(listeners.live).toBeGreaterThan(0)
    unmount()
    expect(listeners.live).toBe(0)
    c.featureFlags.overrideFeatureFlags({ flags: { a: false } }) // no update reaches an unmounted component
  })

  it('without a provider, hooks read the default `service` instance (not initialized: nothing known)', () => {
    const { container } = render(<Flags />)
    expect(container.textContent).toBe('undefinedundefinednone')
  })
})

describe('ServiceProvider', () => {
  it('with `client`, useService returns it from the first render', () => {
    const c = client(token())
    const seen: (Service | undefined)[] = []
    function Probe() {
      seen.push(useService())
      return null
    }
    render(<Probe />, withProvider(c))
    expect(seen[0]).toBe(c)
  })

  it('with `apiKey`, initializes the default instance once in an effect under StrictMode; useService is undefined before', async () => {
    vi.resetModules()
    const { service } = await import('service-js')
    const react = await import('../../src/react')
    const tok = token()
    net.flags = v2({ 'new-ui': true })
    const init = vi.spyOn(service, 'init')
    const seen: (Service | undefined)[] = []
    function Probe() {
      seen.push(react.useService())
      return <>{String(react.useFeatureFlagEnabled('new-ui'))}</>
    }
    const options = { api_host: 'https://svc.example.com', bootstrap: { featureFlags: { 'new-ui': false } }, capture_pageview: false as const }
    const { container } = render(
      <StrictMode>
        <react.ServiceProvider apiKey={tok} options={options}>
          <Probe />
        </react.ServiceProvider>
      </StrictMode>,
    )
    expect(seen[0]).toBeUndefined() // first render: not initialized (as during server rendering)
    expect(init).toHaveBeenCalledTimes(1)
    expect(init).toHaveBeenCalledWith(tok, options)
    expect(service.__loaded).toBe(true)
    expect(seen.at(-1)).toBe(service)
    expect(container.textContent).toBe('false') // bootstrapped
    await act(() => settle())
    expect(net.flagRequests(tok)).toHaveLength(1)
    expect(net.flagRequests(tok)[0].url).toBe('https://svc.example.com/flags/?v=2&config=true')
    expect(container.textContent).toBe('true')
  })

  it('with `client` and `apiKey`, `client` wins and a development warning says so', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const c = client(token(), { bootstrap: { featureFlags: { a: true } } })
    const both = { client: c, apiKey: 'phc_other', options: { bootstrap: { featureFlags: { a: false } } } } as unknown as { client: Service }
    function Probe() {
      return <>{`${useService() === c} ${useFeatureFlagEnabled('a')}`}</>
    }
    const { container } = render(
      <ServiceProvider {...both}>
        <Probe />
      </ServiceProvider>,
    )
    expect(container.textContent).toBe('true true')
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/`client` and `apiKey`\/`options` were both given: `client` is used/))
    warn.mockRestore()
  })
})

describe('useEarlyAccessFeatures', () => {
  const feature = { id: 'f1', name: 'New editor', description: 'Faster', stage: 'beta', documentationUrl: '', flagKey: 'new-editor' }

  function Beta() {
    const { features, isLoaded, enroll } = useEarlyAccessFeatures()
    if (!isLoaded) return <p>loading</p>
    return (
      <ul>
        {features.map((f) => (
          <li key={f.id}>
            <label>
              <input type="checkbox" checked={f.enrolled} onChange={(e) => enroll(f.flagKey!, e.target.checked)} />
              {f.name}
            </label>
          </li>
        ))}
      </ul>
    )
  }

  it('lists the features with their enrollment, and enroll() opts in and out', async () => {
    const tok = token()
    net.earlyAccess = { earlyAccessFeatures: [feature] }
    const c = client(tok)
    render(<Beta />, withProvider(c))
    expect(screen.getByText('loading')).toBeTruthy()
    await act(() => settle())
    const box = screen.getByLabelText('New editor') as HTMLInputElement
    expect(box.checked).toBe(false)
    expect(net.sent.filter((r) => r.url.includes('/api/early_access_features/'))).toHaveLength(1)
    act(() => box.click())
    expect(box.checked).toBe(true)
    expect(c.getFeatureFlag('new-editor', { send_event: false })).toBe(true)
    act(() => box.click())
    expect(box.checked).toBe(false)
    await c.flush()
    const updates = net.events(tok).filter((e) => e.event === '$feature_enrollment_update')
    expect(updates.map((e) => e.properties)).toMatchObject([
      { $feature_flag: 'new-editor', $feature_enrollment: true, $set: { '$feature_enrollment/new-editor': true }, $feature_enrollment_stage: 'beta' },
      { $feature_flag: 'new-editor', $feature_enrollment: false, $set: { '$feature_enrollment/new-editor': false } },
    ])
  })

  it('shows a feature whose flag is already on as enrolled, and reports a failed load', async () => {
    const c = client(token(), { bootstrap: { featureFlags: { 'new-editor': true } } })
    net.earlyAccess = { earlyAccessFeatures: [feature] }
    render(<Beta />, withProvider(c))
    await act(() => settle())
    expect((screen.getByLabelText('New editor') as HTMLInputElement).checked).toBe(true)
    cleanup()

    vi.mocked(fetch).mockRejectedValue(new TypeError('offline'))
    let result: ReturnType<typeof useEarlyAccessFeatures> | undefined
    function Probe() {
      result = useEarlyAccessFeatures(['alpha'])
      return null
    }
    render(<Probe />, withProvider(client(token())))
    await act(() => settle())
    expect(result).toMatchObject({ features: [], isLoaded: false, error: expect.any(String) })
  })

  it('reads the list from earlyAccessStore: one loaded before mount shows at once, while it reloads', async () => {
    net.earlyAccess = { earlyAccessFeatures: [feature] }
    const c = client(token())
    c.getEarlyAccessFeatures(() => {})
    await settle()
    render(<Beta />, withProvider(c))
    expect(screen.getByLabelText('New editor')).toBeTruthy()
    await act(() => settle())
    expect(net.sent.filter((r) => r.url.includes('/api/early_access_features/'))).toHaveLength(2)
  })

  it('does not update after unmount', async () => {
    const error = vi.spyOn(console, 'error')
    net.earlyAccess = { earlyAccessFeatures: [feature] }
    const { unmount } = render(<Beta />, withProvider(client(token())))
    unmount()
    await settle()
    expect(error).not.toHaveBeenCalled()
    error.mockRestore()
  })
})

describe('useEarlyAccessFeatures: register interest (concept) and try it (release stages)', () => {
  const concept = {
    id: 'c1',
    name: 'AI assistant',
    description: 'Soon',
    stage: 'concept',
    documentationUrl: '',
    flagKey: 'ai-assistant',
    payload: { eta: 'Q3' },
  }
  const beta = { id: 'b1', name: 'New editor', description: 'Faster', stage: 'beta', documentationUrl: '', flagKey: 'new-editor' }

  function Programme({ group }: { group?: { type: string; key: string } }) {
    const { features, enroll } = useEarlyAccessFeatures(['concept', 'beta'], { group })
    return (
      <ul>
        {features.map((f) => (
          <li key={f.id} data-action={f.action} data-payload={JSON.stringify(f.payload ?? null)}>
            {f.action === 'register-interest' ? (
              <button type="button" aria-pressed={f.enrolled} onClick={() => enroll(f.flagKey!, !f.enrolled)}>
                Register interest: {f.name}
              </button>
            ) : (
              <label>
                <input type="checkbox" checked={f.enrolled} onChange={(e) => enroll(f.flagKey!, e.target.checked)} />
                Try {f.name}
              </label>
            )}
          </li>
        ))}
      </ul>
    )
  }

  it('marks each feature with its action and payload; registering keeps the flag off, trying turns it on', async () => {
    const tok = token()
    net.earlyAccess = { earlyAccessFeatures: [concept, beta] }
    const c = client(tok, { bootstrap: { featureFlags: { 'ai-assistant': false, 'new-editor': false } } })
    const { container } = render(<Programme />, withProvider(c))
    await act(() => settle())
    const items = [...container.querySelectorAll('li')]
    expect(items.map((li) => [li.dataset.action, li.dataset.payload])).toEqual([
      ['register-interest', '{"eta":"Q3"}'],
      ['try-it', 'null'],
    ])
    const register = screen.getByRole('button', { name: 'Register interest: AI assistant' })
    expect(register.getAttribute('aria-pressed')).toBe('false')
    act(() => register.click())
    expect(register.getAttribute('aria-pressed')).toBe('true')
    expect(c.getFeatureFlag('ai-assistant', { send_event: false })).toBe(false)

    const box = screen.getByLabelText('Try New editor') as HTMLInputElement
    act(() => box.click())
    expect(box.checked).toBe(true)
    expect(c.getFeatureFlag('new-editor', { send_event: false })).toBe(true)

    await c.flush()
    expect(
      net
        .events(tok)
        .filter((e) => e.event === '$feature_enrollment_update')
        .map((e) => e.properties),
    ).toMatchObject([
      { $feature_flag: 'ai-assistant', $feature_enrollment: true, $feature_enrollment_stage: 'concept', $set: { '$feature_enrollment/ai-assistant': true } },
      { $feature_flag: 'new-editor', $feature_enrollment: true, $feature_enrollment_stage: 'beta', $set: { '$feature_enrollment/new-editor': true } },
    ])
  })

  it('shows a registration recorded earlier as registered after a new mount', async () => {
    net.earlyAccess = { earlyAccessFeatures: [concept] }
    const c = client(token())
    c.updateEarlyAccessFeatureEnrollment('ai-assistant', true, 'concept')
    render(<Programme />, withProvider(c))
    await act(() => settle())
    expect(screen.getByRole('button', { name: 'Register interest: AI assistant' }).getAttribute('aria-pressed')).toBe('true')
  })

  it('with a group: enroll() enrolls the group, and `enrolled` shows its registration', async () => {
    const tok = token()
    net.earlyAccess = { earlyAccessFeatures: [concept, beta] }
    const c = client(tok)
    c.group('company', 'acme')
    render(<Programme group={{ type: 'company', key: 'acme' }} />, withProvider(c))
    await act(() => settle())
    const register = screen.getByRole('button', { name: 'Register interest: AI assistant' })
    act(() => register.click())
    expect(register.getAttribute('aria-pressed')).toBe('true')
    act(() => (screen.getByLabelText('Try New editor') as HTMLInputElement).click())
    expect(c.getFeatureFlag('new-editor', { send_event: false })).toBe(true)
    expect(c.getEarlyAccessFeatureEnrollment('ai-assistant')).toBeUndefined()
    await c.flush()
    const updates = net.events(tok).filter((e) => e.event === '$feature_enrollment_update')
    expect(updates.map((e) => [e.properties.$feature_flag, e.properties.$group_type, e.properties.$group_key, e.properties.$set])).toEqual([
      ['ai-assistant', 'company', 'acme', undefined],
      ['new-editor', 'company', 'acme', undefined],
    ])
  })
})
