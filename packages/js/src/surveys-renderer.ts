/**
 * service-js/surveys-renderer: the survey renderer of service-js's `surveys` extension, on its own, for a page that
 * draws surveys itself (the service's web app previews the survey being built with it). Pure: it sends nothing;
 * `onEvent` hears the events a survey would send.
 * @example
 * import { renderSurvey } from '@flagstation/service-js/surveys-renderer'
 * const preview = renderSurvey(document.querySelector('#preview')!, survey, { preview: true, questionIndex: 0 })
 * preview.destroy()
 */
export { renderSurvey, type RenderOptions, type RenderedSurvey } from './extensions/surveys/render/renderer'
export type { SurveyEventName } from './extensions/surveys/events'
export type {
  ChoiceQuestion,
  LinkQuestion,
  OpenQuestion,
  RatingQuestion,
  Survey,
  SurveyAppearance,
  SurveyBranching,
  SurveyConditions,
  SurveyEventCondition,
  SurveyMatchType,
  SurveyPosition,
  SurveyQuestion,
  SurveyResponse,
} from './surveys/types'
