import { useCallback, useContext, useMemo, useSyncExternalStore } from 'react'
import { service } from 'service-js'
import type { Service, Survey, SurveyResponse } from 'service-js'
import { uuidv7 } from '../core/identity'
import { nextStep } from '../extensions/surveys/branching'
import { eventProperties, responseKey, type SurveyEventName } from '../extensions/surveys/events'
import { getInProgress, markSeen, markShown, setInProgress } from '../extensions/surveys/storage'
import { surveysStore } from './surveys-store'
import { StoreContext } from './context'

/** Result of `useSurvey`: the survey, and what the app's own components do with it. */
export interface SurveyHandle {
  /** The running survey of this id, `undefined` until loaded (or when it does not run). */
  survey: Survey | undefined
  /** Whether this user may see it here and now (its flags, conditions, not answered or dismissed yet). */
  active: boolean
  /** Sends `survey shown`: call it when your component shows the survey. */
  show(): void
  /**
   * Records the answer to a question (by id or index), on this device until `submit`; with
   * `enable_partial_responses` it is sent at once too. Returns where the survey goes next, as its branching says:
   * a question's index, or `end`.
   */
  answer(question: string | number, response: SurveyResponse): number | 'end'
  /**
   * Sends the submission, complete (`survey sent`), with the answers recorded and any given here (by question id);
   * the user will not be asked again. Flags reload.
   */
  submit(answers?: Record<string, SurveyResponse>): void
  /** Sends `survey dismissed` (with the answers so far); the user will not be asked again. */
  dismiss(): void
}

/** Captures a survey's event, its `$set` as the event's. */
function send(client: Service, name: SurveyEventName, { $set, ...props }: Record<string, unknown>) {
  client.capture(name, props, { $set: $set as Record<string, unknown> | undefined })
}

/**
 * A survey your own components draw (type `api`), by id: its definition and whether this user may see it, and
 * `show`, `answer`, `submit` and `dismiss`, which send the same events as the surveys service-js draws (so results
 * count them, and the user is not asked again). `answer` follows the survey's branching.
 * @example
 * const { survey, active, show, answer, submit, dismiss } = useSurvey('0190e5a2-…')
 * useEffect(() => { if (active) show() }, [active])
 * if (!active || !survey) return null
 * return <Stars label={survey.questions[0].question} onPick={(n) => { answer(0, n); submit() }} onClose={dismiss} />
 */
export function useSurvey(id: string): SurveyHandle {
  const client = useContext(StoreContext)?.client ?? service
  const store = useMemo(() => surveysStore(client), [client])
  const view = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot)
  const survey = useMemo(() => view.surveys.find((s) => s.id === id), [view, id])
  const active = view.active.some((s) => s.id === id)

  const show = useCallback(() => {
    if (!survey) return
    markShown()
    send(client, 'survey shown', eventProperties('survey shown', survey))
  }, [client, survey])

  const answer = useCallback(
    (question: string | number, response: SurveyResponse): number | 'end' => {
      const index = typeof question === 'number' ? question : (survey?.questions.findIndex((q) => q.id === question) ?? -1)
      const q = survey?.questions[index]
      if (!survey || !q) return 'end'
      const state = getInProgress(survey) ?? { surveySubmissionId: uuidv7(), responses: {}, lastQuestionIndex: 0, visitedIndices: [] }
      const responses = { ...state.responses, [responseKey(q.id)]: response }
      const next = nextStep(survey, index, response)
      setInProgress(survey, { ...state, responses, lastQuestionIndex: next === 'end' ? index : next, visitedIndices: [...(state.visitedIndices ?? []), index] })
      if (survey.enable_partial_responses) {
        markSeen(survey)
        send(client, 'survey sent', eventProperties('survey sent', survey, { id: state.surveySubmissionId, responses, completed: false }))
      }
      return next
    },
    [client, survey],
  )

  const submit = useCallback(
    (answers: Record<string, SurveyResponse> = {}) => {
      if (!survey) return
      const state = getInProgress(survey)
      const given = Object.fromEntries(Object.entries(answers).map(([k, v]) => [responseKey(k), v]))
      setInProgress(survey)
      markSeen(survey)
      send(
        client,
        'survey sent',
        eventProperties('survey sent', survey, { id: state?.surveySubmissionId ?? uuidv7(), responses: { ...state?.responses, ...given }, completed: true }),
      )
      client.reloadFeatureFlags()
    },
    [client, survey],
  )

  const dismiss = useCallback(() => {
    if (!survey) return
    const state = getInProgress(survey)
    setInProgress(survey)
    markSeen(survey)
    send(client, 'survey dismissed', eventProperties('survey dismissed', survey, { id: state?.surveySubmissionId, responses: state?.responses }))
  }, [client, survey])

  return useMemo(() => ({ survey, active, show, answer, submit, dismiss }), [survey, active, show, answer, submit, dismiss])
}
