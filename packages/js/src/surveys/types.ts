// The survey as the service's public endpoint (`GET /api/surveys/?token=`) serves it: PostHog's SurveyAPISerializer
// shape, which posthog-js reads too.

/** Where a popover sits (`right` by default). */
export type SurveyPosition =
  'top_left' | 'top_right' | 'top_center' | 'middle_left' | 'middle_right' | 'middle_center' | 'left' | 'center' | 'right' | 'next_to_trigger'

/** How a string condition compares (`icontains` by default). */
export type SurveyMatchType = 'regex' | 'not_regex' | 'exact' | 'is_not' | 'icontains' | 'not_icontains' | 'gt' | 'lt'

/** Where a question leads once answered (no branching: the next question, or the end after the last one). */
export type SurveyBranching =
  | { type: 'next_question' }
  | { type: 'end' }
  /**
   * By answer: for single choice, the choice's index (the open choice is the last index); for rating, the bucket
   * (`negative` / `neutral` / `positive`, or `detractors` / `passives` / `promoters` on a 0–10 scale).
   * The value is a question index or `end`.
   */
  | { type: 'response_based'; responseValues: Record<string, number | 'end'> }
  | { type: 'specific_question'; index: number }

interface QuestionBase {
  /** Made by the service. */
  id: string
  question: string
  description?: string | null
  /** `html` descriptions are shown as text by this client (never parsed as HTML). */
  descriptionContentType?: 'html' | 'text'
  optional?: boolean
  buttonText?: string
  branching?: SurveyBranching | null
}

/** A free-text answer. */
export interface OpenQuestion extends QuestionBase {
  type: 'open'
}

/** A link the user follows (answer: `link clicked`). */
export interface LinkQuestion extends QuestionBase {
  type: 'link'
  link?: string | null
}

/** A rating on a scale: 1–2, 1–3, 1–5, 1–7 or 0–10, drawn as numbers or (scales 2, 3 and 5) emoji. */
export interface RatingQuestion extends QuestionBase {
  type: 'rating'
  display: 'number' | 'emoji'
  scale: 2 | 3 | 5 | 7 | 10
  lowerBoundLabel?: string
  upperBoundLabel?: string
  /** Answer on the click, without a submit button. */
  skipSubmitButton?: boolean
}

/** One choice (`single_choice`) or several (`multiple_choice`); with `hasOpenChoice` the last choice takes free text. */
export interface ChoiceQuestion extends QuestionBase {
  type: 'single_choice' | 'multiple_choice'
  choices: string[]
  hasOpenChoice?: boolean
  /** Choices in a random order (the open choice stays last). */
  shuffleOptions?: boolean
  skipSubmitButton?: boolean
}

export type SurveyQuestion = OpenQuestion | LinkQuestion | RatingQuestion | ChoiceQuestion

/** How a survey looks; every field is optional. */
export interface SurveyAppearance {
  backgroundColor?: string
  textColor?: string
  borderColor?: string
  submitButtonColor?: string
  submitButtonText?: string
  submitButtonTextColor?: string
  ratingButtonColor?: string
  ratingButtonActiveColor?: string
  inputBackground?: string
  inputTextColor?: string
  fontFamily?: string
  maxWidth?: string
  zIndex?: string
  position?: SurveyPosition
  /** Placeholder of open text fields. */
  placeholder?: string
  displayThankYouMessage?: boolean
  thankYouMessageHeader?: string
  thankYouMessageDescription?: string
  thankYouMessageCloseButtonText?: string
  /** Close the thank-you message by itself after 5 s. */
  autoDisappear?: boolean
  shuffleQuestions?: boolean
  surveyPopupDelaySeconds?: number
  hideCancelButton?: boolean
  /** A back button on the questions after the first. */
  allowGoBack?: boolean
  backButtonText?: string
  /** Leave focus where it is when the popover opens. */
  disableAutofocus?: boolean
  /** A widget: a `tab` on the edge of the page (default), or a click on the app's own element (`selector`). */
  widgetType?: 'tab' | 'button' | 'selector'
  widgetSelector?: string
  widgetLabel?: string
  widgetColor?: string
}

/** An event that shows a survey (or cancels it), optionally only when its properties match. */
export interface SurveyEventCondition {
  name: string
  propertyFilters?: Record<string, { values: string[]; operator: SurveyMatchType }>
}

/** When a survey shows (every set condition must hold). */
export interface SurveyConditions {
  url?: string
  urlMatchType?: SurveyMatchType
  /** Shows only while an element matches this CSS selector. */
  selector?: string
  /** Not within this many days after the user saw any survey (`lastSeenSurveyDate`). */
  seenSurveyWaitPeriodInDays?: number
  /** `Desktop`, `Mobile`, `Tablet`, ... */
  deviceTypes?: string[]
  deviceTypesMatchType?: SurveyMatchType
  linkedFlagVariant?: string
  /** Shows after one of these events (once, or after each with `repeatedActivation`). */
  events?: { repeatedActivation?: boolean; values: SurveyEventCondition[] } | null
  /** One of these events cancels a survey its events activated and did not show yet. */
  cancelEvents?: { values: SurveyEventCondition[] } | null
}

/** A survey definition. */
export interface Survey {
  id: string
  name: string
  description?: string | null
  /** `popover` and `widget` are drawn by the client; `api` surveys by the app (see `useSurvey`). */
  type: 'popover' | 'widget' | 'api' | 'external_survey'
  questions: SurveyQuestion[]
  appearance?: SurveyAppearance | null
  conditions?: SurveyConditions | null
  linked_flag_key?: string | null
  targeting_flag_key?: string | null
  internal_targeting_flag_key?: string | null
  feature_flag_keys?: { key: string; value?: string }[] | null
  start_date?: string | null
  end_date?: string | null
  current_iteration?: number | null
  current_iteration_start_date?: string | null
  schedule?: 'once' | 'recurring' | 'always' | null
  enable_partial_responses?: boolean | null
}

/** An answer: text, a rating, a choice, the choices picked, or none (an optional question skipped). */
export type SurveyResponse = string | number | string[] | null

/** How a `getSurveys` / `getActiveMatchingSurveys` call went. */
export interface SurveysContext {
  isLoaded: boolean
  error?: string
}

/** Called with the surveys asked for. */
export type SurveysCallback = (surveys: Survey[], context: SurveysContext) => void

/** Options of `displaySurvey`. */
export interface DisplaySurveyOptions {
  /** `popover` (default) or `inline` into `selector`. */
  displayType?: 'popover' | 'inline'
  /** The element an inline survey goes into. */
  selector?: string
  /** Show it even when the user is not eligible (flags, already seen, wait period). Default false. */
  ignoreConditions?: boolean
  /** Show it at once, without `appearance.surveyPopupDelaySeconds`. Default false. */
  ignoreDelay?: boolean
  /** Added to the survey's events. */
  properties?: Record<string, unknown>
}

/** What the surveys feature adds to the client. */
export interface SurveysApi {
  /**
   * The running surveys of the project (cached for 5 minutes unless `forceReload`).
   * @example service.getSurveys((surveys) => console.log(surveys.map((s) => s.name)))
   */
  getSurveys(callback: SurveysCallback, forceReload?: boolean): void

  /**
   * The surveys this user may see here and now: running, flags on, conditions (URL, selector, device, events)
   * met, not seen yet (or repeatable), wait period passed. Loads the `surveys` extension.
   * @example service.getActiveMatchingSurveys((surveys) => surveys.forEach((s) => console.log(s.id)))
   */
  getActiveMatchingSurveys(callback: SurveysCallback, forceReload?: boolean): void

  /**
   * Draws a survey into the element of `selector` (inline: no close button), whatever its conditions.
   * @example service.renderSurvey('0190e5a2-…', '#feedback')
   */
  renderSurvey(surveyId: string, selector: string): void

  /**
   * Shows a survey now, as a popover (default) or inline; unless `ignoreConditions`, only to an eligible user.
   * @example service.displaySurvey('0190e5a2-…', { ignoreConditions: true })
   */
  displaySurvey(surveyId: string, options?: DisplaySurveyOptions): void
}

/** What the surveys extension hears from the client. */
declare module '../core/bus' {
  interface ClientEvents {
    /** A call of the surveys feature, made once the `surveys` extension runs: the method's name and arguments. */
    surveys: [method: string, args: unknown[]]
  }
}
