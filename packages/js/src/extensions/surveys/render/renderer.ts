import { uuidv7 } from '../../../core/identity'
import type { Survey, SurveyResponse } from '../../../surveys/types'
import { nextStep } from '../branching'
import { eventProperties, responseKey, type SurveyEventName } from '../events'
import { getInProgress, markSeen, markShown, setInProgress, type InProgress, type Responses } from '../storage'
import { h } from './dom'
import { drawQuestion, type DrawnQuestion } from './questions'
import { appearanceVars, CSS, POSITIONS } from './styles'

/** Options of `renderSurvey`. */
export interface RenderOptions {
  /**
   * A preview (the web app's builder): drawn in the flow of `host`, never taking focus, storing nothing on the device;
   * events still go to `onEvent`.
   */
  preview?: boolean
  /** The question a preview starts on (the number of questions: the thank-you message). */
  questionIndex?: number
  /** Hears each event the survey sends (`survey shown`, `survey sent`, `survey dismissed`), with its properties (`$set` among them). */
  onEvent?: (name: SurveyEventName, properties: Record<string, unknown>) => void
  /** The survey closed: dismissed, or done. */
  onClose?: () => void
  /** In the flow of `host`, without a close button (a survey put into the page by `renderSurvey(id, selector)`). */
  inline?: boolean
  /** Added to each of its events. */
  properties?: Record<string, unknown>
  /** The element a `next_to_trigger` popover opens by. */
  anchor?: Element
}

/** A survey on the page. */
export interface RenderedSurvey {
  /** Removes it (no event). */
  destroy(): void
  /** Whether its box is open (a widget's tab alone is not). */
  isOpen(): boolean
}

/** The survey stylesheet, made once a page. */
let sheet: CSSStyleSheet | undefined

/** Positions at the bottom of the window: there the box has no bottom border and square bottom corners. */
const BOTTOM = ['left', 'center', 'right', undefined]
const CLOSE_ICON = 'M6 6l12 12M18 6 6 18'

/**
 * Draws a survey into a shadow tree of its own (an `svc-survey` element appended to `host`): a popover (a non-modal
 * dialog named by its question, which takes focus when it opens and gives it back when it closes, and which Escape
 * dismisses), a widget's tab that opens it, or an inline survey. It follows branching, keeps the answers so far on
 * the device (a reload resumes them; `preview` stores nothing), and hands its events to `onEvent`: `survey shown`, a
 * `survey sent` per answered question with `enable_partial_responses` (else once, complete), `survey dismissed`.
 * @example const drawn = renderSurvey(document.body, survey, { onEvent: (name, props) => console.log(name, props) })
 */
export function renderSurvey(host: HTMLElement, survey: Survey, options: RenderOptions = {}): RenderedSurvey {
  const { preview, inline, onEvent, properties } = options
  const a = survey.appearance ?? {}
  const questions = survey.questions ?? []
  const flow = !!(preview || inline)
  const el = document.createElement('svc-survey')
  const root = h('div', { class: 'root' })
  const shadow = el.attachShadow({ mode: 'open' })
  // A constructed stylesheet, which a Content-Security-Policy without 'unsafe-inline' styles allows (a <style> where
  // the browser has none); styles are set through the CSSOM, never as attributes, for the same reason.
  try {
    if (!sheet) {
      const made = new CSSStyleSheet()
      made.replaceSync(CSS)
      sheet = made
    }
    shadow.adoptedStyleSheets = [sheet]
  } catch {
    shadow.append(h('style', {}, CSS))
  }
  shadow.append(root)
  host.append(el)
  root.style.cssText = appearanceVars(a, root)

  // Resumed where it was left, in the order it was shown; shuffled (`shuffleQuestions`) only without branching
  // or partial responses, as posthog-js does.
  const saved = preview ? undefined : getInProgress(survey)
  let state: InProgress & { questionOrder?: string[] } = saved ?? { surveySubmissionId: uuidv7(), responses: {}, lastQuestionIndex: 0, visitedIndices: [] }
  let order = questions.map((_, i) => i)
  const restored = state.questionOrder?.map((id) => questions.findIndex((q) => q.id === id))
  if (restored?.length === order.length && restored.every((i) => i >= 0)) order = restored
  else if (!saved && a.shuffleQuestions && !survey.enable_partial_responses && !questions.some((q) => q.branching?.type)) {
    order.sort(() => Math.random() - 0.5)
    state.questionOrder = order.map((i) => questions[i].id)
  }
  let pos = preview ? Math.min(Math.max(options.questionIndex ?? 0, 0), questions.length) : state.lastQuestionIndex
  if (!(pos >= 0 && pos <= questions.length)) pos = 0

  const emit = (name: SurveyEventName, props: Record<string, unknown>) => onEvent?.(name, { ...props, ...properties })
  let box: HTMLElement | undefined
  let tab: HTMLElement | undefined
  let current: DrawnQuestion | undefined
  let returnFocus: Element | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  const inside = () => !!box && el.shadowRoot!.activeElement !== null

  const save = (next: InProgress | undefined) => {
    if (next) state = { ...state, ...next }
    if (!preview) setInProgress(survey, next && state)
  }

  /** Answers the question shown: on to the next one (as branching says) or done; sends what is due. */
  const answer = (value: SurveyResponse) => {
    const hadFocus = inside()
    const q = questions[order[pos]]
    const responses: Responses = { ...state.responses, [responseKey(q.id)]: value }
    const visited = [...(state.visitedIndices ?? []), pos]
    const next = order[pos] === pos ? nextStep(survey, pos, value) : pos + 1 < questions.length ? pos + 1 : 'end'
    const completed = next === 'end'
    save(completed ? undefined : { ...state, responses, visitedIndices: visited, lastQuestionIndex: next })
    if (survey.enable_partial_responses || completed) {
      // the answers on the way taken (a question left by going back does not count)
      const keys = visited.map((i) => responseKey(questions[order[i]].id))
      const onPath = Object.fromEntries(Object.entries(responses).filter(([k]) => keys.includes(k)))
      if (!preview) markSeen(survey)
      emit('survey sent', eventProperties('survey sent', survey, { id: state.surveySubmissionId, responses: onPath, completed }))
    }
    if (completed && !a.displayThankYouMessage) return close()
    go(completed ? questions.length : next, hadFocus)
    if (completed && a.autoDisappear) timer = setTimeout(close, 5000)
  }

  const go = (to: number, hadFocus = inside()) => {
    pos = to
    draw()
    if (hadFocus) focusFirst()
  }

  const back = () => {
    const visited = [...(state.visitedIndices ?? [])]
    const to = visited.pop()
    if (to === undefined) return
    save({ ...state, visitedIndices: visited, lastQuestionIndex: to })
    go(to)
  }

  const dismiss = () => {
    emit(
      'survey dismissed',
      eventProperties('survey dismissed', survey, saved || state.visitedIndices?.length ? { id: state.surveySubmissionId, responses: state.responses } : {}),
    )
    if (!preview) {
      setInProgress(survey)
      markSeen(survey)
    }
    close()
  }

  const focusFirst = () => ((current?.first() ?? box?.querySelector('.submit') ?? box?.querySelector('button')) as HTMLElement | null)?.focus()

  /** Draws the question at `pos` (the thank-you message past the last one). */
  const draw = () => {
    if (!box) return
    const closeButton =
      !inline && a.hideCancelButton !== true
        ? h(
            'button',
            { type: 'button', class: 'close', 'aria-label': 'Close survey', onclick: dismiss },
            h(
              'svg',
              { viewBox: '0 0 24 24', width: 16, height: 16, fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'aria-hidden': 'true' },
              h('path', { d: CLOSE_ICON }),
            ),
          )
        : null
    if (pos >= questions.length) {
      current = undefined
      const titleId = 'svc-thanks'
      box.setAttribute('aria-labelledby', titleId)
      box.replaceChildren(
        h(
          'div',
          { class: 'thanks' },
          h('h2', { id: titleId, class: 'title' }, a.thankYouMessageHeader || 'Thank you for your feedback!'),
          a.thankYouMessageDescription ? h('p', { class: 'desc' }, a.thankYouMessageDescription) : null,
          h('div', { class: 'actions' }, h('button', { type: 'button', class: 'submit', onclick: close }, a.thankYouMessageCloseButtonText || 'Close')),
        ),
      )
      return
    }
    const q = questions[order[pos]]
    const auto = q.type !== 'open' && q.type !== 'link' && q.type !== 'multiple_choice' && q.skipSubmitButton
    const submit = h('button', { type: 'submit', class: auto ? 'submit sr' : 'submit' }, q.buttonText || a.submitButtonText || 'Submit') as HTMLButtonElement
    const changed = () => void (submit.disabled = current?.value() === undefined)
    current = drawQuestion(q, { changed, picked: () => form.requestSubmit(), initial: state.responses[responseKey(q.id)], appearance: a })
    const form: HTMLFormElement = h(
      'form',
      {
        onsubmit: (e) => {
          e.preventDefault()
          const value = current?.value()
          if (value === undefined) return
          const link = q.type === 'link' && q.link
          if (link && /^(https?:|mailto:)/i.test(link) && !preview) open(link, '_blank', 'noopener,noreferrer')
          answer(value)
        },
      },
      current.el,
      h(
        'div',
        { class: 'actions' },
        a.allowGoBack && state.visitedIndices?.length ? h('button', { type: 'button', class: 'back', onclick: back }, a.backButtonText || 'Back') : null,
        submit,
      ),
    ) as HTMLFormElement
    box.setAttribute('aria-labelledby', current.titleId)
    box.replaceChildren(...(closeButton ? [closeButton] : []), form)
    changed()
  }

  /** Opens the survey's box (a widget's with its tab), says it was shown, and takes focus unless told not to. */
  const openBox = () => {
    returnFocus = document.activeElement
    const pos0 = a.position
    const anchored = pos0 === 'next_to_trigger' && options.anchor?.getBoundingClientRect()
    box = h('div', {
      class: `box${flow ? ' inline' : ''}${!flow && !tab && !anchored && BOTTOM.includes(pos0) ? ' bottom' : ''}`,
      role: flow ? 'region' : 'dialog',
      style:
        flow || tab
          ? undefined
          : anchored
            ? `top:${anchored.bottom + 12}px;left:${Math.max(20, anchored.left)}px`
            : (POSITIONS[pos0 ?? 'right'] ?? POSITIONS.right),
      onkeydown: (e) => {
        if ((e as KeyboardEvent).key === 'Escape' && !inline) {
          e.stopPropagation()
          dismiss()
        }
      },
    })
    root.append(box)
    tab?.setAttribute('aria-expanded', 'true')
    draw()
    if (!preview) markShown()
    emit('survey shown', eventProperties('survey shown', survey))
    if (!flow && !a.disableAutofocus) focusFirst()
  }

  /** Removes the box (a widget keeps its tab) and gives focus back to where it was, if it was inside. */
  const hide = () => {
    const hadFocus = inside()
    box?.remove()
    box = current = undefined
    tab?.setAttribute('aria-expanded', 'false')
    if (hadFocus) ((tab ?? returnFocus) as HTMLElement | null)?.focus?.()
  }

  /** Closes it (a preview stays drawn: the page showing it decides). */
  function close() {
    clearTimeout(timer)
    if (!preview) {
      hide()
      if (!tab) el.remove()
    }
    options.onClose?.()
  }

  if (survey.type === 'widget' && !flow && (a.widgetType ?? 'tab') === 'tab') {
    tab = h('button', { type: 'button', class: 'tab', 'aria-expanded': 'false', onclick: () => (box ? hide() : openBox()) }, a.widgetLabel || 'Feedback')
    root.append(tab)
  } else openBox()

  return {
    isOpen: () => !!box,
    destroy() {
      clearTimeout(timer)
      hide()
      el.remove()
    },
  }
}
