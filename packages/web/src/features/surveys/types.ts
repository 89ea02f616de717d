// The API's survey (`/api/projects/:id/surveys/`) and its results, as generated from the OpenAPI document (src/api/
// types.ts), with the shapes the document leaves open (appearance, conditions, targeting, branching) spelled out as
// posthog-js reads them.
import type {
  FlagFilters,
  SurveyAnswersPage,
  SurveyApi,
  SurveyFlagApi,
  SurveyQuestionApi,
  SurveyQuestionResults,
  SurveySchedule,
  SurveyStatus,
  SurveyType,
} from '../../api/types';

export type { SurveyResults, SurveySchedule, SurveyStatus, SurveyType } from '../../api/types';
export type QuestionResults = SurveyQuestionResults;
export type SurveyAnswer = SurveyAnswersPage['results'][number];

export type QuestionType = SurveyQuestionApi['type'];
/** How a survey's URL condition compares (posthog-js's `SurveyMatchType`). */
export type MatchType = 'icontains' | 'not_icontains' | 'exact' | 'is_not' | 'regex' | 'not_regex';

/** Where a question leads once answered: on, to the end, to a question by answer, or to one question. */
export type Branching =
  | { type: 'next_question' }
  | { type: 'end' }
  /** Keys: a choice's index (single choice) or a rating's bucket (`negative`… / `detractors`…); values: an index or `end`. */
  | { type: 'response_based'; responseValues: Record<string, number | 'end'> }
  | { type: 'specific_question'; index: number };

/** A question as the API takes it (and, with its `id`, gives it). */
export interface SurveyQuestion {
  id?: string;
  type: QuestionType;
  question: string;
  description?: string | null;
  optional?: boolean;
  buttonText?: string;
  branching?: Branching | null;
  /** link */
  link?: string | null;
  /** rating */
  display?: 'number' | 'emoji';
  scale?: number;
  lowerBoundLabel?: string;
  upperBoundLabel?: string;
  /** single and multiple choice */
  choices?: string[];
  hasOpenChoice?: boolean;
  shuffleOptions?: boolean;
  /** What the builder does not edit (`descriptionContentType`, `skipSubmitButton`, `translations`, `validation`), kept. */
  [other: string]: unknown;
}

export interface SurveyAppearance {
  backgroundColor?: string;
  textColor?: string;
  submitButtonColor?: string;
  submitButtonTextColor?: string;
  borderColor?: string;
  position?: string;
  placeholder?: string;
  displayThankYouMessage?: boolean;
  thankYouMessageHeader?: string;
  thankYouMessageDescription?: string;
  widgetType?: 'button' | 'tab' | 'selector';
  widgetLabel?: string;
  widgetSelector?: string;
  surveyPopupDelaySeconds?: number;
  [other: string]: unknown;
}

/** An event that shows the survey: by name, with optional property filters; `server_side` when a server captures it. */
export interface SurveyEventCondition {
  name: string;
  propertyFilters?: Record<string, { values: string[]; operator: string }>;
  server_side?: boolean;
}

export interface SurveyConditions {
  url?: string;
  urlMatchType?: MatchType;
  selector?: string;
  seenSurveyWaitPeriodInDays?: number;
  events?: { repeatedActivation?: boolean; values: SurveyEventCondition[] } | null;
  cancelEvents?: { values: SurveyEventCondition[] } | null;
  deviceTypes?: string[];
  deviceTypesMatchType?: MatchType;
  linkedFlagVariant?: string;
  [other: string]: unknown;
}

export type SurveyFlag = Omit<SurveyFlagApi, 'filters'> & { filters: FlagFilters };

/** A survey as the API gives it. */
export type Survey = Omit<
  SurveyApi,
  'questions' | 'appearance' | 'conditions' | 'targeting_flag_filters' | 'targeting_flag' | 'internal_targeting_flag' | 'type' | 'status' | 'schedule'
> & {
  type: SurveyType;
  status: SurveyStatus;
  schedule: SurveySchedule;
  questions: (Omit<SurveyQuestionApi, 'branching'> & { branching?: Branching })[];
  appearance: SurveyAppearance | null;
  conditions: SurveyConditions | null;
  targeting_flag_filters: Pick<FlagFilters, 'groups'> | null;
  targeting_flag: SurveyFlag;
  internal_targeting_flag: SurveyFlag;
};

/** What the preview draws: a survey's questions and looks, as the renderer reads them. */
export interface PreviewedSurvey {
  id: string;
  name: string;
  type: SurveyType;
  questions: SurveyQuestion[];
  appearance: SurveyAppearance | null;
}
