import type { Survey, SurveyResponse } from '../../surveys/types'

/** A rating's bucket, the key of `response_based` branching on a rating question. */
export function ratingBucket(value: number, scale: number): string {
  if (scale === 10) return value <= 6 ? 'detractors' : value <= 8 ? 'passives' : 'promoters'
  if (scale === 2) return value === 1 ? 'positive' : 'negative'
  // 3: 1 | 2 | 3; 5: 1-2 | 3 | 4-5; 7: 1-3 | 4 | 5-7
  const mid = (scale + 1) / 2
  return value < mid ? 'negative' : value === mid ? 'neutral' : 'positive'
}

/**
 * Where a survey goes after question `index` is answered with `response`: the index of the next question, or `end`.
 * Without branching: the next question (`end` after the last); `end`; `specific_question`; `response_based`: by the
 * choice's index (an open answer counts as the last choice) or the rating's bucket, else the next question.
 */
export function nextStep(survey: Survey, index: number, response: SurveyResponse): number | 'end' {
  const q = survey.questions[index]
  const next = index + 1 < survey.questions.length ? index + 1 : 'end'
  const b = q?.branching
  if (!b || b.type === 'next_question') return next
  if (b.type === 'end') return 'end'
  let target: number | 'end' | undefined
  if (b.type === 'specific_question') target = b.index
  else if (b.type === 'response_based') {
    let key: string | undefined
    if (q.type === 'single_choice') {
      const i = q.choices.indexOf(String(response))
      key = String(i < 0 && q.hasOpenChoice && response != null && response !== '' ? q.choices.length - 1 : i)
    } else if (q.type === 'rating' && typeof response === 'number') key = ratingBucket(response, q.scale)
    target = key === undefined ? undefined : b.responseValues?.[key]
  }
  return target === 'end' || (Number.isInteger(target) && (target as number) >= 0 && (target as number) < survey.questions.length)
    ? (target as number | 'end')
    : next
}
