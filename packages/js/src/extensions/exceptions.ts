import type { Extension } from '../core/extension'
import { catchExceptions } from '../exceptions/exceptions'

/**
 * Lazy extension `exceptions` (option `capture_exceptions`): uncaught errors and unhandled rejections as
 * `$exception`, those that happened while its chunk loaded included.
 */
const exceptions: Extension = {
  name: 'exceptions',
  start: (client, early) => catchExceptions((props) => client.capture('$exception', props), early),
}

export default exceptions
