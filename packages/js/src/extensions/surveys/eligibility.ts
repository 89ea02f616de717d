import type { FlagsApi } from '../../flags/feature'
import type { FeatureFlagKey } from '../../flags/registry'
import type { FlagValue } from '../../flags/types'
import type { Survey } from '../../surveys/types'
import { compare, deviceType } from './match'
import { getInProgress, lastSeen, wasSeen } from './storage'

// Who may see a survey, as posthog-js decides it (`checkSurveyEligibility`, `_isSurveyConditionMatched`, `_checkFlags`).

/** The flags a survey's checks read. */
export type Flags = Pick<FlagsApi, 'getFeatureFlag' | 'flagStore'>

const IN_APP = ['popover', 'widget', 'api']
/** The keys of the flags the service makes for surveys (`SURVEY_FLAG` of the surveys feature, in the core). */
const SURVEY_FLAG = 'survey-targeting-'

export const isRunning = (s: Survey): boolean => !!s.start_date && !s.end_date
export const activatesByEvent = (s: Survey): boolean => !!s.conditions?.events?.values?.length

/** Shows again after being seen: repeated by its events, `always` scheduled, or answered part way. */
export const repeatable = (s: Survey): boolean =>
  (activatesByEvent(s) && !!s.conditions?.events?.repeatedActivation) || s.schedule === 'always' || !!getInProgress(s)

/**
 * Whether a flag is on (`variant`: on with this variant, `any` variant will do); no key: yes. Reading a survey's own
 * flags sends no `$feature_flag_called`, reading the app's flags does (posthog-js's rule).
 */
export function flagOn(flags: Flags, key?: string | null, variant?: string): boolean {
  if (!key) return true
  // A survey names flags by the service's keys, which the app's flag registry need not list.
  const v = flags.getFeatureFlag(key as FeatureFlagKey, { send_event: key.indexOf(SURVEY_FLAG) !== 0 }) as FlagValue | undefined
  return !!v && (!variant || variant === 'any' || v === variant)
}

/** Whether `days` have passed since this device last showed a survey (a day started counts whole, as in posthog-js). */
export function waitPassed(days?: number, last = lastSeen()): boolean {
  if (!days || !last) return true
  return Math.ceil(Math.abs(Date.now() - new Date(last).getTime()) / 864e5) > days
}

/** Why a survey may not show to this user (undefined: it may): running, in-app, its flags, wait period, already seen. */
export function whyNot(s: Survey, flags: Flags): string | undefined {
  if (!isRunning(s)) return 'not running'
  if (!IN_APP.includes(s.type)) return `a survey of type ${s.type} never shows in the app`
  if (!flagOn(flags, s.linked_flag_key, s.conditions?.linkedFlagVariant)) return 'its linked flag is off'
  if (!flagOn(flags, s.targeting_flag_key)) return 'its targeting flag is off'
  if (!repeatable(s)) {
    // a new iteration turns the internal flag back on: cached flags may still say it is off
    if (s.internal_targeting_flag_key && (s.schedule === 'recurring' || !!s.current_iteration) && flags.flagStore.getSnapshot().source !== 'server')
      return 'flags are not loaded yet'
    if (!flagOn(flags, s.internal_targeting_flag_key)) return 'it was answered or dismissed'
    if (wasSeen(s)) return 'it was seen'
  }
  if (!waitPassed(s.conditions?.seenSurveyWaitPeriodInDays)) return 'the wait period since the last survey has not passed'
}

/** Whether the page meets a survey's conditions: its URL, device type and selector. */
export function pageMatches(s: Survey): boolean {
  const c = s.conditions
  if (!c) return true
  if (c.url && !compare([c.url], location.href, c.urlMatchType)) return false
  if (c.deviceTypes?.length && !compare(c.deviceTypes, deviceType(), c.deviceTypesMatchType)) return false
  if (c.selector)
    try {
      return !!document.querySelector(c.selector)
    } catch {
      return false
    }
  return true
}

/** `feature_flag_keys`: each named flag with a key must be on. */
export const flagKeysOn = (s: Survey, flags: Flags): boolean => (s.feature_flag_keys ?? []).every(({ key, value }) => !key || !value || flagOn(flags, value))
