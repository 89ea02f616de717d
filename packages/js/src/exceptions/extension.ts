import type { ExceptionCall } from '../core/bus'
import type { Client } from '../core/client'
import type { ExtensionOf } from '../core/extension'
import type { Props } from '../core/properties'
import { catchExceptions, exceptionProps } from './exceptions'
import { rateLimiter } from './rate-limit'
import { createTrail } from './steps'

/**
 * Lazy extension `exceptions`: builds and sends the `$exception` events of `captureException`, with the
 * trail of the steps before them (`$exception_steps`: pageviews, clicks and `addExceptionStep`) and
 * `$release`, at most 10 per exception type and then 1 per 10 s. With `capture_exceptions` it also reports
 * uncaught errors and unhandled rejections, those that happened while its chunk loaded included. The
 * exceptions feature (feature.ts) loads it for that option, or on the first `captureException` /
 * `addExceptionStep`; src/extensions/exceptions.ts makes it a chunk of its own.
 */
const exceptions: ExtensionOf<Client> = {
  name: 'exceptions',
  start(client, early, heard = []) {
    const c = client.config
    const trail = createTrail()
    const allow = rateLimiter()
    const send = (props: Props, timestamp = new Date()) => {
      const type = String(props.$exception_type)
      if (!allow(type, timestamp.getTime())) return void (c.debug && console.warn('[service-js] rate limited: $exception', type))
      const steps = trail.take(timestamp.toISOString())
      const release = typeof c.release === 'string' ? c.release : undefined
      client.capture('$exception', { $release: release, $exception_steps: steps.length ? steps : undefined, ...props }, { timestamp })
    }
    const onCall = (call: ExceptionCall) => {
      try {
        if ('step' in call) trail.add({ $message: String(call.step), $timestamp: call.timestamp.toISOString(), $type: 'custom', ...call.properties })
        else send({ ...exceptionProps(call.error, true), ...call.properties }, call.timestamp)
      } catch (e) {
        // a value that throws when read (a hostile Proxy): that call is lost, never the next ones
        if (c.debug) console.warn('[service-js]', e)
      }
    }
    // What happened while the chunk loaded, in order, then what comes.
    for (const [name, value] of heard) {
      if (name === 'exception') onCall(value)
      else if (name === 'eventCaptured') trail.fromEvent(value)
    }
    const stops = [client.on('eventCaptured', trail.fromEvent), client.on('exception', onCall)]
    if (c.capture_exceptions) stops.push(catchExceptions((props) => send(props), early))
    return () => stops.forEach((stop) => stop())
  },
}

export default exceptions
