// The API's survey (`/api/projects/:id/surveys/`), in the shape posthog-js reads (PostHog's SurveyAPISerializer), and
// its results (`…/surveys/:id/results/`).
import type { FlagFilters } from '../../api/types';

export type SurveyType = 'popover' | 'widget' | 'api' | 'external_survey';
export type SurveyStatus = 'draft' | 'running' | 'stopped';
export type SurveySchedule = 'once' | 'recurring' | 'always';
export type QuestionType = 'open' | 'link' | 'rating' | 'single_choice' | 'multiple_choice';
/** How a survey's URL condition compares (posthog-js's `SurveyMatchType`). */
export type MatchType = 'icontains' | 'not_icontains' | 'exact' | 'is_not' | 'regex' | 'not_regex';

/** Where a question leads once answered: on, to the end, to a question by answer, or to one question. */
export type Branching =
  | { type: 'next_question' }
  | { type: 'end' }
  /** Keys: a choice's index (single choice) or a rating's bucket (`negative`… / `detractors`…); values: an index or `end`. */
  | { type: 'response_based'; responseValues: Record<string, number | 'end'> }
  | { type: 'specific_question'; index: number };

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
  scale?: 2 | 3 | 5 | 7 | 10;
  lowerBoundLabel?: string;
  upperBoundLabel?: string;
  /** single and multiple choice */
  choices?: string[];
  hasOpenChoice?: boolean;
  shuffleOptions?: boolean;
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

export interface SurveyFlag {
  id: number;
  key: string;
  active: boolean;
  filters: FlagFilters;
}

export interface Survey {
  id: string;
  name: string;
  description: string;
  type: SurveyType;
  questions: SurveyQuestion[];
  appearance: SurveyAppearance | null;
  conditions: SurveyConditions | null;
  linked_flag_key: string | null;
  targeting_flag_key: string | null;
  internal_targeting_flag_key: string | null;
  targeting_flag_filters: Pick<FlagFilters, 'groups'> | null;
  /** The flags the service keeps for the survey (not in the flags list, not editable there). */
  targeting_flag?: SurveyFlag;
  internal_targeting_flag?: SurveyFlag;
  start_date: string | null;
  end_date: string | null;
  responses_limit: number | null;
  schedule: SurveySchedule | null;
  iteration_count: number | null;
  iteration_frequency_days: number | null;
  current_iteration: number | null;
  current_iteration_start_date: string | null;
  enable_partial_responses: boolean;
  archived: boolean;
  created_at: string;
  updated_at: string;
  created_by: unknown;
  status: SurveyStatus;
  linked_early_access_feature_id: string | null;
}

export interface SurveyAnswer {
  value: unknown;
  distinct_id: string;
  /** The person's id (uuid); null when the distinct id has none. */
  person_id: string | null;
  timestamp: string;
  submission_id: string;
}

export interface QuestionResults {
  id: string;
  index: number;
  type: string;
  question: string;
  /** How many answered it. */
  responses: number;
  choices?: { value: string; count: number }[];
  ratings?: { value: number; count: number }[];
  /** % promoters − % detractors, −100 to 100; null without answers. */
  nps?: { promoters: number; passives: number; detractors: number; score: number | null };
  answers?: { results: SurveyAnswer[]; count: number; next_offset: number | null };
}

export interface SurveyCounts {
  shown: number;
  dismissed: number;
  sent: number;
  abandoned: number;
  partial: number;
}

export interface SurveyResults {
  survey_id: string;
  counts: SurveyCounts;
  /** People who sent it among people who were shown it, 0 to 1; null when nobody was shown it. */
  response_rate: number | null;
  /** Responses stored after the survey ended. */
  late_responses: number;
  by_day: { day: string; shown: number; dismissed: number; sent: number; abandoned: number }[];
  questions: QuestionResults[];
}
