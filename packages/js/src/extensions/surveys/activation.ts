import type { CaptureEvent } from '../../core/queue'
import type { Survey } from '../../surveys/types'
import { activatesByEvent } from './eligibility'
import { propertiesMatch } from './match'

/** Surveys shown after an event: which the events captured on this page have activated (and not cancelled). */
export interface Activation {
  /** Whether the survey may show as far as its events go (a survey without events always may). */
  allows(s: Survey): boolean
  /** Hears a captured event; returns the ids of the surveys it cancelled (a delayed one must not show). */
  heard(event: Pick<CaptureEvent, 'event' | 'properties'>): string[]
}

/**
 * posthog-js's rules: an event named in a survey's `conditions.events` (its property filters met) activates it; one
 * in `cancelEvents` cancels it. A survey repeated by its events is used up when shown (the next event shows it
 * again); any other stays active until it is answered or dismissed.
 */
export function createActivation(surveys: () => Survey[]): Activation {
  const active = new Set<string>()
  return {
    allows: (s) => !activatesByEvent(s) || active.has(s.id),
    heard({ event, properties }) {
      const all = surveys()
      const id = properties?.$survey_id as string | undefined
      const own = id && active.has(id) ? all.find((s) => s.id === id) : undefined
      if (own) {
        const usedUp =
          event === 'survey shown'
            ? !!own.conditions?.events?.repeatedActivation || own.schedule === 'always'
            : event === 'survey dismissed' || (event === 'survey sent' && properties.$survey_completed !== false)
        if (usedUp) active.delete(id!)
      }
      const cancelled: string[] = []
      for (const s of all) {
        const c = s.conditions
        const named = (values?: { name: string }[]) => values?.find((v) => v.name === event)
        if (propertiesMatch(named(c?.cancelEvents?.values), properties)) {
          active.delete(s.id)
          cancelled.push(s.id)
        }
        if (propertiesMatch(named(c?.events?.values), properties)) active.add(s.id)
      }
      return cancelled
    },
  }
}
