import type { Survey, SurveyResponse } from '../../surveys/types'
import type { Responses } from './storage'

// The events of a survey and their properties, as posthog-js sends them (the service's results and posthog-js's
// own reports read the same names).

/** The events a survey sends. */
export type SurveyEventName = 'survey shown' | 'survey dismissed' | 'survey sent' | 'survey abandoned'

/** `$survey_response_<question id>`: where an answer goes. */
export const responseKey = (questionId: string): string => '$survey_response_' + questionId

/** The person property an interaction sets (`responded`, `dismissed`): `$survey_<action>/<id>[/<iteration>]`. */
export const interactionProperty = (s: Survey, action: 'responded' | 'dismissed'): string =>
  `$survey_${action}/${s.id}${s.current_iteration ? '/' + s.current_iteration : ''}`

/** What every event of a survey says of it. */
export const surveyProperties = (s: Survey): Record<string, unknown> => ({
  $survey_id: s.id,
  $survey_name: s.name,
  $survey_iteration: s.current_iteration,
  $survey_iteration_start_date: s.current_iteration_start_date,
})

/**
 * The answers of a submission: `$survey_questions` (each question with its answer), `$survey_response_<id>`, and
 * the keys by the question's place in the survey that older reports read (`$survey_response`, `$survey_response_1`, ...).
 */
export function answerProperties(s: Survey, responses: Responses): Record<string, unknown> {
  const props: Record<string, unknown> = { ...responses }
  const answer = (id: string): SurveyResponse | undefined => responses[responseKey(id)]
  s.questions.forEach((q, i) => {
    if (answer(q.id) !== undefined) props[i ? '$survey_response_' + i : '$survey_response'] = answer(q.id)
  })
  props.$survey_questions = s.questions.map((q) => ({ id: q.id, question: q.question, response: answer(q.id) }))
  return props
}

/** Whether any question has an answer. */
export const hasAnswers = (responses: Responses = {}): boolean => Object.values(responses).some((r) => r != null)

/**
 * The properties of a survey's event (`$set` of the person's interaction included for `sent` and `dismissed`):
 * `sent` says whether the submission is complete; `dismissed` and `abandoned` whether it was partly answered.
 */
export function eventProperties(
  name: SurveyEventName,
  s: Survey,
  submission?: { id?: string; responses?: Responses; completed?: boolean },
): Record<string, unknown> {
  const props = surveyProperties(s)
  if (name === 'survey shown') return props
  const responses = submission?.responses ?? {}
  return {
    ...props,
    $survey_submission_id: submission?.id,
    ...(name === 'survey sent' ? { $survey_completed: !!submission?.completed } : { $survey_partially_completed: hasAnswers(responses) }),
    ...answerProperties(s, responses),
    ...(name === 'survey sent' || name === 'survey dismissed'
      ? { $set: { [interactionProperty(s, name === 'survey sent' ? 'responded' : 'dismissed')]: true } }
      : {}),
  }
}
