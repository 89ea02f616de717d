import type { ExceptionCall, ExceptionRequest } from '../core/bus'
import type { Client } from '../core/client'
import type { Feature } from '../core/feature'
import type { Props } from '../core/properties'

/** What the exceptions feature adds to the client. */
export interface ExceptionsApi {
  /**
   * Captures an error as `$exception` with its parsed stack, the steps that led to it (`$exception_steps`)
   * and `$release`. The `exceptions` extension builds the event: the first call loads it, and calls made
   * meanwhile are sent once it runs, with their time. At most 10 per exception type, then 1 per 10 s.
   * Should the extension not load, the type and message alone are sent, for the first 10 calls.
   * @example try { risky() } catch (e) { service.captureException(e, { area: 'checkout' }) }
   */
  captureException(error: unknown, properties?: Props): void

  /**
   * Records a step for the trail sent with the next exception (`$exception_steps`, the last 20 steps,
   * pageviews and clicks included once the `exceptions` extension runs).
   * @example service.addExceptionStep('Opened checkout', { cart_id: 'c_19' })
   */
  addExceptionStep(message: string, properties?: Props): void
}

/**
 * Error tracking's calls: `captureException` and `addExceptionStep` are announced (`exception`) to the lazy
 * `exceptions` extension (src/extensions/exceptions.ts), which builds the events; the first call loads it, and
 * so does `init` with `capture_exceptions` (keeping the uncaught errors that happen while it loads).
 */
export function exceptions(c: Client): Feature<ExceptionsApi> {
  /** Exceptions sent without their extension (it could not load): at most 10 a page, so a loop cannot flood. */
  let bare = 0

  /**
   * Announces a call to the `exceptions` extension, loading it first if needed (it gets the calls made
   * while it loads; `flush` waits for it). An error whose extension cannot load is still sent, with its
   * type and message only, 10 at most.
   */
  const announce = (call: ExceptionRequest): void => {
    const e: ExceptionCall = { ...call, timestamp: new Date() }
    c._run(() => {
      c._load('exceptions').then(
        (ok) =>
          ok ||
          ('error' in e &&
            bare++ < 10 &&
            c._try(() => {
              const error = e.error as Error | undefined
              c._capture('$exception', { $exception_type: error?.name || 'Error', $exception_message: String(error?.message ?? error), ...e.properties }, e)
            })),
      )
      c._bus.emit('exception', e)
    })
  }

  return {
    api: {
      captureException: (error, properties) => announce({ error, properties }),
      addExceptionStep: (step, properties) => announce({ step, properties }),
    },
    // Uncaught errors from here on are kept until the extension's chunk has loaded.
    init() {
      if (c.config.capture_exceptions) void c._load('exceptions', ['error', 'unhandledrejection'])
    },
  }
}
