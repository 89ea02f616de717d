import type { SurveyEventCondition, SurveyMatchType } from '../../surveys/types'

/** Longest regular expression of a survey's conditions that is run. */
const MAX_PATTERN = 512
/** A value is compared on its first 2 048 characters (a URL longer than that is rare). */
const MAX_TEXT = 2048

const compiled = new Map<string, RegExp | null>()

/**
 * A survey's regular expression (written by the team, run on every page of every user): null when it is invalid, or
 * could backtrack for ever: a backreference, or a repeated group that holds a quantifier or an alternation (`(a+)+`,
 * `(.*)*`, `(a|ab)*`), which is what makes a backtracking engine exponential. Linear patterns, the ones conditions
 * need (`^https://app\.example\.com/(billing|settings)`, `/projects/\d+/`), run; compiled once.
 */
export function userRegex(pattern: string): RegExp | null {
  let re = compiled.get(pattern)
  if (re === undefined) {
    re = null
    if (pattern.length <= MAX_PATTERN && !/\\[1-9]|\\k</.test(pattern) && !repeatsQuantifiedGroup(pattern))
      try {
        re = new RegExp(pattern)
      } catch {
        // invalid: matches nothing
      }
    compiled.set(pattern, re)
  }
  return re
}

/** Whether a quantified group (`(...)*`, `+`, `{n,}`) holds a quantifier or an alternation, at any depth. */
function repeatsQuantifiedGroup(p: string): boolean {
  // One entry per open group: whether it holds a quantifier or `|`.
  const groups: boolean[] = [false]
  const last = () => groups.length - 1
  for (let i = 0; i < p.length; i++) {
    const ch = p[i]
    if (ch === '\\') i++
    else if (ch === '[') {
      // a class: up to its closing bracket (an escaped one does not close it)
      while (++i < p.length && p[i] !== ']') if (p[i] === '\\') i++
    } else if (ch === '(') {
      groups.push(false)
      if (p[i + 1] === '?') i++
    } else if (ch === ')') {
      const risky = groups.pop() ?? false
      if (risky && /[*+{]/.test(p[i + 1] ?? '')) return true
      if (!groups.length) groups.push(false)
      groups[last()] ||= risky
    } else if (ch === '|' || /[*+?{]/.test(ch)) groups[last()] = true
  }
  return false
}

const lower = (s: string) => s.toLowerCase()
const test = (pattern: string, value: string) => !!userRegex(pattern)?.test(value.slice(0, MAX_TEXT))

/** posthog-js's comparisons of a value with the condition's targets (numbers for `gt` / `lt`). */
const COMPARE: Record<SurveyMatchType, (targets: string[], value: string) => boolean> = {
  exact: (t, v) => t.includes(v),
  is_not: (t, v) => !t.includes(v),
  regex: (t, v) => t.some((p) => test(p, v)),
  not_regex: (t, v) => t.every((p) => !test(p, v)),
  icontains: (t, v) => t.some((x) => lower(v).includes(lower(x))),
  not_icontains: (t, v) => t.every((x) => !lower(v).includes(lower(x))),
  gt: (t, v) => t.some((x) => parseFloat(v) > parseFloat(x)),
  lt: (t, v) => t.some((x) => parseFloat(v) < parseFloat(x)),
}

/** Whether `value` meets a condition (`icontains` unless said otherwise); an unknown operator never does. */
export const compare = (targets: unknown[], value: string, type: SurveyMatchType = 'icontains'): boolean =>
  !!COMPARE[type]?.(targets.map(String), String(value))

/** Whether an event's properties meet an event condition's filters (a missing or null property meets none). */
export const propertiesMatch = (condition: SurveyEventCondition | undefined, properties: Record<string, unknown> = {}): boolean =>
  !!condition &&
  Object.entries(condition.propertyFilters ?? {}).every(([key, f]) => properties[key] != null && compare(f.values ?? [], String(properties[key]), f.operator))

/**
 * The device type as posthog-js names it (`Desktop`, `Mobile`, `Tablet`, `Console`, `Wearable`), from the user agent
 * (and, for Chrome's desktop mode on an Android tablet, its client hints and screen).
 */
export function deviceType(ua = navigator.userAgent): string {
  if (/Nintendo|PlayStation|Xbox|Ouya/i.test(ua)) return 'Console'
  if (/watch(?: ?os[,/]|\d,\d\/)[\d.]+/i.test(ua)) return 'Wearable'
  if (/iPad|Kindle|Silk|kobo|(tablet|playbook)(?! pc)/i.test(ua) || (/Android/i.test(ua) && !/Mobile/.test(ua))) return 'Tablet'
  if (/Mobile|iPhone|iPod|Android|BlackBerry|Windows Phone|Opera Mini|IEMobile|pda/i.test(ua)) return 'Mobile'
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } }
  if (nav.userAgentData?.platform === 'Android' && navigator.maxTouchPoints > 0)
    return Math.min(screen.width, screen.height) / (devicePixelRatio || 1) >= 600 ? 'Tablet' : 'Mobile'
  return 'Desktop'
}
