import {
  ServiceFeature,
  useActiveFeatureFlags,
  useEarlyAccessFeatures,
  useFeatureFlagEnabled,
  useFeatureFlagVariantKey,
  useService,
  type EarlyAccessItem,
} from 'service-js/react'

/** Flags this app reads; create them in the service (see README.md). */
export const FLAGS = { banner: 'new-banner', checkout: 'checkout-experiment' }

export function App({ configured }: { configured: boolean }) {
  const client = useService()
  return (
    <main>
      <h1>service-js/react example</h1>
      {!configured && <p className="warning">APP_PUBLIC_SERVICE_KEY is not set: see README.md.</p>}

      <ServiceFeature flag={FLAGS.banner} fallback={<p data-testid="old-banner">Welcome back.</p>}>
        {(payload) => (
          <section className="banner" data-testid="new-banner">
            <strong>{(payload as { title?: string } | undefined)?.title ?? 'Something new is here.'}</strong>
            <button type="button" data-testid="banner-cta">
              Take a look
            </button>
          </section>
        )}
      </ServiceFeature>

      <Checkout />
      <EarlyAccess />

      <p>
        <button type="button" data-attr="signup-button" onClick={() => client?.capture('signup_clicked', { from: 'example' })}>
          Sign up
        </button>
        <button type="button" className="svc-no-capture">
          Not captured
        </button>
      </p>

      <Footer />
    </main>
  )
}

/** A component driven by the variant of a multivariate flag (an A/B test). */
function Checkout() {
  const variant = useFeatureFlagVariantKey(FLAGS.checkout)
  const label = variant === 'test' ? 'Buy now, pay later' : variant === undefined ? 'Loading…' : 'Buy'
  return (
    <section className={`checkout checkout-${String(variant)}`} data-testid="checkout" data-variant={String(variant)}>
      <h2>Checkout</h2>
      <button type="button">{label}</button>
    </section>
  )
}

/** The beta programme: the early access features open to the user, with an opt-in toggle each. */
function EarlyAccess() {
  const { features, isLoaded, error, enroll } = useEarlyAccessFeatures()
  return (
    <section data-testid="early-access">
      <h2>Early access</h2>
      {!isLoaded && <p>{error ? `Could not load the features (${error}).` : 'Loading…'}</p>}
      {isLoaded && features.length === 0 && <p>No beta features right now.</p>}
      <ul>
        {features.map((f) => (
          <Feature key={f.id} feature={f} enroll={enroll} />
        ))}
      </ul>
    </section>
  )
}

function Feature({ feature, enroll }: { feature: EarlyAccessItem; enroll: (flagKey: string, enrolled: boolean) => void }) {
  const on = useFeatureFlagEnabled(feature.flagKey ?? '')
  return (
    <li>
      <label>
        <input
          type="checkbox"
          data-testid={`enroll-${feature.flagKey}`}
          checked={feature.enrolled}
          disabled={!feature.flagKey}
          onChange={(e) => feature.flagKey && enroll(feature.flagKey, e.target.checked)}
        />
        {feature.name}
      </label>{' '}
      <small>
        {feature.description} (flag <code>{feature.flagKey}</code>: <span data-testid={`flag-${feature.flagKey}`}>{on ? 'on' : 'off'}</span>)
      </small>
    </li>
  )
}

function Footer() {
  const client = useService()
  const active = useActiveFeatureFlags()
  return (
    <footer>
      <p>
        Distinct id: <code data-testid="distinct-id">{client?.get_distinct_id() ?? '…'}</code>
      </p>
      <p>
        Active flags: <span data-testid="active-flags">{active.join(', ')}</span>
      </p>
    </footer>
  )
}
