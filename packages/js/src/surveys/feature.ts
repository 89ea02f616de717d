import type { Client } from '../core/client'
import type { Feature } from '../core/feature'
import type { SurveysApi } from './types'

/** Keys of the flags the service makes for a survey: a person may see a survey only while one of them is on. */
export const SURVEY_FLAG = 'survey-targeting-'

/**
 * Surveys, in the core only as their calls and the trigger of the lazy `surveys` extension, which does the rest
 * (fetches the running surveys, matches their conditions, draws them, sends their events). It loads when `/flags`
 * turns a survey's flag on for this person (so a page of a project without a running survey never downloads it),
 * or on the first call, which it is told of (`surveys`) once it runs.
 */
export function surveys(c: Client): Feature<SurveysApi> {
  const api: Record<string, unknown> = {}
  for (const method of ['getSurveys', 'getActiveMatchingSurveys', 'renderSurvey', 'displaySurvey'])
    api[method] = (...args: unknown[]) => c._run(() => c._load('surveys').then(() => c._bus.emit('surveys', [method, args])))
  c.on('featureFlagsLoaded', ({ flags }) => {
    for (const k in flags) if (flags[k] && !k.indexOf(SURVEY_FLAG)) void c._load('surveys')
  })
  return { api: api as unknown as SurveysApi }
}
