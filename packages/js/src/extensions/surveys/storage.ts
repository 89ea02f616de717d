import type { Survey, SurveyResponse } from '../../surveys/types'

// What a survey leaves on this device, in localStorage under posthog-js's keys, so that a page moving from
// posthog-js to service-js (or the other way) keeps what the user saw and answered: `seenSurvey_<id>`,
// `inProgressSurvey_<id>` and `abandonedSurvey_<id>`, each `<id>_<iteration>` for an iteration above 0, and
// `lastSeenSurveyDate`. Storage may be missing or full: then in-progress state lives in memory for the page.

/** A survey's answers so far, keyed `$survey_response_<question id>`. */
export type Responses = Record<string, SurveyResponse>

/** A survey answered part way: resumed where it was left, on this page or the next. */
export interface InProgress {
  surveySubmissionId: string
  responses: Responses
  /** The question to show next. */
  lastQuestionIndex: number
  /** The questions answered, in order (the way back). */
  visitedIndices?: number[]
}

const memory: Record<string, InProgress | undefined> = {}

const get = (key: string): string | null => {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}
const put = (key: string, value?: string): boolean => {
  try {
    if (value === undefined) localStorage.removeItem(key)
    else localStorage.setItem(key, value)
    return true
  } catch {
    return false
  }
}

/** `<id>`, or `<id>_<iteration>` while a recurring survey runs an iteration above 0. */
export const iterationKey = (s: Pick<Survey, 'id' | 'current_iteration'>): string => (s.current_iteration ? `${s.id}_${s.current_iteration}` : s.id)

/** The key of the day this device last showed any survey (`seenSurveyWaitPeriodInDays` counts from it). */
export const LAST_SEEN = 'lastSeenSurveyDate'

export const wasSeen = (s: Survey): boolean => !!get('seenSurvey_' + iterationKey(s))
export const markSeen = (s: Survey): void => void put('seenSurvey_' + iterationKey(s), 'true')
export const lastSeen = (): string | null => get(LAST_SEEN)
export const markShown = (): void => void put(LAST_SEEN, new Date().toISOString())

export function getInProgress(s: Survey): InProgress | undefined {
  const key = 'inProgressSurvey_' + iterationKey(s)
  if (memory[key]) return memory[key]
  try {
    const state = JSON.parse(get(key) || 'null')
    return state?.surveySubmissionId ? state : undefined
  } catch {
    return undefined
  }
}

/** Records (or, without `state`, clears) a survey's answers so far. */
export function setInProgress(s: Survey, state?: InProgress): void {
  const key = 'inProgressSurvey_' + iterationKey(s)
  memory[key] = put(key, state && JSON.stringify(state)) ? undefined : state
}

/** True the first time it is asked for a survey (and iteration): a survey is reported abandoned once. */
export function firstAbandon(s: Survey): boolean {
  const key = 'abandonedSurvey_' + iterationKey(s)
  return get(key) !== 'true' && put(key, 'true')
}

/** Forgets what surveys this device saw and left part way (`reset`): the next person starts afresh. */
export function forgetAll(): void {
  try {
    for (const key of Object.keys(localStorage)) if (/^(seenSurvey_|inProgressSurvey_|lastSeenSurveyDate$)/.test(key)) put(key)
  } catch {
    // no storage: nothing to forget
  }
  for (const key in memory) delete memory[key]
}
