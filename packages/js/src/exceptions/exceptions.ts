import type { Props } from '../core/properties'

/** One stack frame, as in `$exception_list[].stacktrace.frames`. */
export interface StackFrame {
  filename: string
  function: string
  /** Absent for frames without a position (`at Array.map (<anonymous>)`). */
  lineno?: number
  colno?: number
  platform: 'web:javascript'
  /** False for code that isn't the app's: browser extensions, Safari's masked scripts, `<anonymous>` and native code. */
  in_app: boolean
}

// Chrome/V8/Edge: "    at fn (url:1:2)", "    at url:1:2", "    at async fn (url:1:2)", "    at Array.map (<anonymous>)"
const CHROME = /^\s*at (?:(.+?) \()?(?:(.+?):(\d+):(\d+)|(<anonymous>|native))\)?\s*$/
// Firefox/Safari: "fn@url:1:2", "@url:1:2"
const GECKO = /^\s*(.*?)@(.+?):(\d+):(\d+)\s*$/
/** Files that aren't the app's code (as posthog-js marks them, browser extensions added). */
const NOT_APP = /^(?:<anonymous>|native)$|^(?:webkit-masked-url|chrome-extension|moz-extension|safari(?:-web)?-extension|ms-browser-extension):/

/** Parses a Chrome or Firefox/Safari `stack`; frames are oldest first, the throwing frame last. */
export function parseStack(stack: string): StackFrame[] {
  const frames: StackFrame[] = []
  for (const line of stack.split('\n')) {
    const m = CHROME.exec(line) || GECKO.exec(line)
    if (!m) continue
    const filename = m[2] ?? m[5]
    const frame: StackFrame = { filename, function: m[1] || '?', platform: 'web:javascript', in_app: !NOT_APP.test(filename) }
    if (m[3]) Object.assign(frame, { lineno: +m[3], colno: +m[4] })
    frames.push(frame)
  }
  return frames.reverse()
}

type ErrorLike = { name?: string; message?: string; stack?: string; cause?: unknown }
const isErrorLike = (e: unknown): e is ErrorLike => !!e && typeof e === 'object' && 'message' in e

function describe(e: unknown): string {
  try {
    return typeof e === 'string' ? e : (JSON.stringify(e) ?? String(e))
  } catch {
    return String(e)
  }
}

/**
 * Properties of an `$exception` event for any thrown value: `$exception_type`, `$exception_message`
 * and `$exception_list` (the error, then its `cause` chain).
 */
export function exceptionProps(error: unknown, handled: boolean, mechanism = 'generic', nonErrorType = 'Error'): Props {
  const list = []
  for (let e = error, n = 0; e != null && n < 5; n++) {
    const err = isErrorLike(e) ? e : undefined
    const type = err?.name || nonErrorType
    const value = err ? String(err.message) : describe(e)
    list.push({
      type,
      value,
      mechanism: { type: mechanism, handled, synthetic: !err },
      stacktrace: { type: 'raw', frames: err?.stack ? parseStack(String(err.stack)) : [] },
    })
    e = err?.cause
  }
  return { $exception_type: list[0]?.type ?? nonErrorType, $exception_message: list[0]?.value ?? '', $exception_level: 'error', $exception_list: list }
}

/**
 * Reports uncaught errors and unhandled rejections on `window`, first those of `early` (events that
 * happened before); returns what stops it.
 */
export function catchExceptions(report: (props: Props) => void, early: Event[] = []): () => void {
  const onError = (ev: ErrorEvent) =>
    report(
      exceptionProps(
        // "Script error." events from other origins carry no error: keep what the event knows.
        ev.error ?? { name: 'Error', message: ev.message, stack: ev.filename ? `?@${ev.filename}:${ev.lineno}:${ev.colno}` : '' },
        false,
        'onerror',
      ),
    )
  const onRejection = (ev: PromiseRejectionEvent) => report(exceptionProps(ev.reason, false, 'onunhandledrejection', 'UnhandledRejection'))
  for (const ev of early) (ev.type === 'error' ? onError : onRejection)(ev as ErrorEvent & PromiseRejectionEvent)
  addEventListener('error', onError)
  addEventListener('unhandledrejection', onRejection)
  return () => {
    removeEventListener('error', onError)
    removeEventListener('unhandledrejection', onRejection)
  }
}
