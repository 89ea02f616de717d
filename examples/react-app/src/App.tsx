import {
  ServiceFeature,
  useActiveFeatureFlags,
  useEarlyAccessFeatures,
  useFeatureFlagEnabled,
  useFeatureFlagVariantKey,
  useService,
  type EarlyAccessItem,
} from 'service-js/react'
import type { EarlyAccessStage } from 'service-js'
import { SafeCart } from './BrokenCart'
import { Account } from './Account'

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

      <Account />
      <Checkout />
      <EarlyAccess />
      <SafeCart />

      <p className="actions">
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

/** Stages the app lists: `concept` features take registrations of interest, the others can be tried at once. */
const STAGES: EarlyAccessStage[] = ['concept', 'alpha', 'beta']

/**
 * The early access programme: features still being designed (`concept`), where users register interest
 * (the flag stays off until the feature is released), and released ones (`alpha`, `beta`) they can try now.
 */
function EarlyAccess() {
  const { features, isLoaded, error, enroll } = useEarlyAccessFeatures(STAGES)
  const soon = features.filter((f) => f.action === 'register-interest')
  const now = features.filter((f) => f.action === 'try-it')
  return (
    <section className="early-access" data-testid="early-access" aria-labelledby="early-access-title">
      <h2 id="early-access-title">Early access</h2>
      {!isLoaded && <p>{error ? `Could not load the features (${error}).` : 'Loading…'}</p>}
      {isLoaded && features.length === 0 && <p>No early access features right now.</p>}
      {now.length > 0 && (
        <>
          <h3>Try it now</h3>
          <ul className="features">
            {now.map((f) => (
              <Feature key={f.id} feature={f} enroll={enroll} />
            ))}
          </ul>
        </>
      )}
      {soon.length > 0 && (
        <>
          <h3>Coming soon</h3>
          <ul className="features">
            {soon.map((f) => (
              <Feature key={f.id} feature={f} enroll={enroll} />
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

/** One feature: a "Try it" switch for a released feature, a "Register interest" button for a concept. */
function Feature({ feature, enroll }: { feature: EarlyAccessItem; enroll: (flagKey: string, enrolled: boolean) => void }) {
  const on = useFeatureFlagEnabled(feature.flagKey ?? '')
  const key = feature.flagKey
  const descriptionId = `feature-${feature.id}-description`
  return (
    <li className="feature">
      <div className="feature-text">
        <span className="feature-name">
          {feature.name} <span className={`stage stage-${feature.stage}`}>{feature.stage}</span>
        </span>
        <span className="feature-description" id={descriptionId}>
          {feature.description}
          {feature.documentationUrl && (
            <>
              {' '}
              <a href={feature.documentationUrl}>Learn more</a>
            </>
          )}
        </span>
        <small className="feature-flag">
          Flag <code>{key}</code>: <span data-testid={`flag-${key}`}>{on ? 'on' : 'off'}</span>
        </small>
      </div>
      {feature.action === 'register-interest' ? (
        <div className="feature-action">
          <button
            type="button"
            className="register"
            data-testid={`register-${key}`}
            aria-label={`Register interest in ${feature.name}`}
            aria-describedby={descriptionId}
            aria-pressed={feature.enrolled}
            disabled={!key}
            onClick={() => key && enroll(key, !feature.enrolled)}
          >
            {feature.enrolled && <span aria-hidden="true">✓ </span>}
            Register interest
          </button>
          <span className="feature-status" role="status" data-testid={`registered-${key}`}>
            {feature.enrolled ? "You're on the list" : ''}
          </span>
        </div>
      ) : (
        <label className="feature-action switch">
          <input
            type="checkbox"
            role="switch"
            data-testid={`enroll-${key}`}
            aria-label={`Try it: ${feature.name}`}
            aria-describedby={descriptionId}
            checked={feature.enrolled}
            disabled={!key}
            onChange={(e) => key && enroll(key, e.target.checked)}
          />
          <span className="switch-track" aria-hidden="true" />
          <span>Try it</span>
        </label>
      )}
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
