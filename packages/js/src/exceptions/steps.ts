import type { Props } from '../core/properties'
import type { CaptureEvent } from '../core/queue'
import { sanitize } from '../core/sanitize'

/** One step of `$exception_steps`: what the user did before an error. */
export type ExceptionStep = Props & { $message: string; $timestamp: string; $type: string }

/** The most steps an exception carries, and their most bytes of JSON (posthog-js keeps about 32 KB). */
export const MAX_STEPS = 20
export const MAX_STEPS_BYTES = 32 * 1024

/** The trail of the last steps: added one by one, taken (and so cleared) by the exception they led to. */
export interface Trail {
  /** Adds a step (a copy of it); the oldest go when there are more than MAX_STEPS or MAX_STEPS_BYTES. */
  add(step: ExceptionStep): void
  /** Adds the step a captured event stands for: a `$pageview`, or a click (`$autocapture`). */
  fromEvent(event: CaptureEvent): void
  /** Removes and returns the steps up to `until` (an ISO time), oldest first; later ones stay for the next exception. */
  take(until: string): ExceptionStep[]
}

export function createTrail(): Trail {
  let steps: { step: ExceptionStep; size: number }[] = []
  const add = (step: ExceptionStep) => {
    try {
      const copy = sanitize(step, () => {})
      const size = JSON.stringify(copy).length
      // One step larger than the whole trail is left out (it would push out all the others).
      if (size <= MAX_STEPS_BYTES) steps.push({ step: copy, size })
    } catch {
      // a property whose toJSON throws: the step is left out
    }
    let total = steps.reduce((n, s) => n + s.size, 0)
    while (steps.length > MAX_STEPS || total > MAX_STEPS_BYTES) total -= steps.shift()!.size
  }
  return {
    add,
    fromEvent({ event, properties: p, timestamp: $timestamp }) {
      if (event === '$pageview') add({ $message: `Viewed ${p.$pathname}`, $timestamp, $type: 'pageview', $current_url: p.$current_url })
      else if (event === '$autocapture' && p.$event_type === 'click') {
        const element = /^[\w-]+/.exec(String(p.$elements_chain))?.[0] ?? 'element'
        add({ $message: `Clicked ${element}${p.$el_text ? ` "${p.$el_text}"` : ''}`, $timestamp, $type: 'click' })
      }
    },
    take(until) {
      const taken = steps.filter((s) => s.step.$timestamp <= until)
      steps = steps.filter((s) => s.step.$timestamp > until)
      return taken.map((s) => s.step)
    },
  }
}
