import { useContext, useEffect, useRef } from './externals'
import type { ReactElement, ReactNode } from 'react'
import type { FeatureFlagKey, FlagValue, Service } from 'service-js'
import { StoreContext } from './context'
import { useFeatureFlagPayload } from './use-feature-flag-payload'
import { useFeatureFlagVariantKey } from './use-feature-flag-variant-key'

/** Props of `ServiceFeature`. */
export interface ServiceFeatureProps {
  /** The feature flag's key. */
  flag: FeatureFlagKey
  /** `true` (default): any enabled value; a string: that variant; `false`: the flag is off. */
  match?: boolean | string
  /** Rendered when the flag does not match, or while its value is unknown. */
  fallback?: ReactNode
  /** Options of the IntersectionObserver that detects the view; `threshold` defaults to 0.1. */
  visibilityObserverOptions?: IntersectionObserverInit
  /** Capture `$feature_view` the first time the feature is visible. Default true. */
  trackView?: boolean
  /** Capture `$feature_interaction` the first time it is clicked. Default true. */
  trackInteraction?: boolean
  /** What to render when the flag matches; a function receives the flag's payload. */
  children: ReactNode | ((payload: unknown) => ReactNode)
}

/**
 * Renders `children` when `flag` matches (else `fallback`), and captures `$feature_view` once when
 * visible and `$feature_interaction` once on click, with `feature_flag`, `feature_flag_variant` and
 * `$set: {"$feature_view/<flag>": variant or true}`. The children are wrapped in one
 * `<div style="display: contents">`, which adds no box to the layout (grid and flex keep working).
 * Needs a `ServiceProvider` above it.
 * @example
 * <ServiceFeature flag="new-checkout" match="test" fallback={<OldCheckout />}>
 *   {(payload) => <NewCheckout config={payload} />}
 * </ServiceFeature>
 */
export function ServiceFeature(props: ServiceFeatureProps): ReactElement {
  const ctx = useContext(StoreContext)
  if (!ctx)
    throw new Error(
      'ServiceFeature must be used inside a <ServiceProvider>: wrap your app in <ServiceProvider apiKey="..."> or <ServiceProvider client={...}>.',
    )
  const { flag, match = true, children } = props
  const value = useFeatureFlagVariantKey(flag)
  const payload = useFeatureFlagPayload(flag)
  // Each event once per ServiceFeature, even when the flag goes off and on again.
  const done = useRef<Record<string, boolean>>({})
  const matches = value !== undefined && (match === true ? !!value : match === value)
  if (!matches) return <>{props.fallback}</>
  return (
    <Tracked {...props} client={ctx.client} value={value} done={done.current}>
      {typeof children === 'function' ? children(payload) : children}
    </Tracked>
  )
}

type TrackedProps = Omit<ServiceFeatureProps, 'children'> & { client: Service; value: FlagValue; done: Record<string, boolean>; children: ReactNode }

function Tracked({ flag, client, value, done, visibilityObserverOptions, trackView = true, trackInteraction = true, children }: TrackedProps) {
  const ref = useRef<HTMLDivElement>(null)
  // The latest props, read when an event fires (the observer is made once, on mount).
  const latest = useRef({ value, visibilityObserverOptions })
  latest.current = { value, visibilityObserverOptions }

  const send = (kind: 'view' | 'interaction') => {
    if (done[kind]) return
    done[kind] = true
    const v = latest.current.value
    client.capture('$feature_' + kind, {
      feature_flag: flag,
      ...(typeof v === 'string' ? { feature_flag_variant: v } : {}),
      $set: { [`$feature_${kind}/${flag}`]: typeof v === 'string' ? v : true },
    })
  }

  useEffect(() => {
    const el = ref.current
    if (!trackView || !el || done.view || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return
        observer.disconnect()
        send('view')
      },
      { threshold: 0.1, ...latest.current.visibilityObserverOptions },
    )
    // A `display: contents` box never intersects: watch its element children instead.
    for (const child of el.children.length ? Array.from(el.children) : [el]) observer.observe(child)
    return () => observer.disconnect()
  }, [flag, trackView])

  return (
    <div ref={ref} style={{ display: 'contents' }} onClick={trackInteraction ? () => send('interaction') : undefined}>
      {children}
    </div>
  )
}
