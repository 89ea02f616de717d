/**
 * The kinds, choices and caps of a survey definition, shared by its schemas (routes) and its rules (service). The caps
 * are documented in the README's surveys section: keep the two in step.
 */

export const SURVEY_TYPES = ['popover', 'widget', 'api', 'external_survey'] as const;
export type SurveyType = (typeof SURVEY_TYPES)[number];
/** The types posthog-js (and our client) show in the page: the public list has these only. */
export const IN_APP_TYPES: readonly SurveyType[] = ['popover', 'widget', 'api'];

export const QUESTION_TYPES = ['open', 'link', 'rating', 'single_choice', 'multiple_choice'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const CHOICE_TYPES: readonly QuestionType[] = ['single_choice', 'multiple_choice'];

export const SCHEDULES = ['once', 'recurring', 'always'] as const;
export type Schedule = (typeof SCHEDULES)[number];

export const STATUSES = ['draft', 'running', 'stopped'] as const;
export type SurveyStatus = (typeof STATUSES)[number];

export const BRANCHING_TYPES = ['next_question', 'end', 'specific_question', 'response_based'] as const;
export const MATCH_TYPES = ['regex', 'not_regex', 'exact', 'is_not', 'icontains', 'not_icontains'] as const;
/** How an event condition's property filter compares (posthog-js's operators there). */
export const PROPERTY_OPERATORS = ['exact', 'is_not', 'icontains', 'not_icontains', 'regex', 'not_regex', 'gt', 'lt'] as const;
export const DISPLAYS = ['number', 'emoji'] as const;

/** The scales a rating has; shown as numbers 5, 7 or 10 (0–10), as emoji 2, 3 or 5 (what posthog-js draws). */
export const SCALES = [2, 3, 5, 7, 10] as const;
export const NUMBER_SCALES: readonly number[] = [5, 7, 10];
export const EMOJI_SCALES: readonly number[] = [2, 3, 5];

/**
 * The buckets a rating's answer falls in, by scale, as posthog-js names them in `response_based` branching:
 * 2: negative (2) or positive (1); 3, 5, 7: negative, neutral, positive; 10 (0–10, NPS): detractors, passives, promoters.
 */
export const RATING_BUCKETS: Readonly<Record<number, readonly string[]>> = {
  2: ['negative', 'positive'],
  3: ['negative', 'neutral', 'positive'],
  5: ['negative', 'neutral', 'positive'],
  7: ['negative', 'neutral', 'positive'],
  10: ['detractors', 'passives', 'promoters'],
};

/** Caps on a definition's lengths and counts. */
export const LIMITS = {
  name: 400,
  description: 10_000,
  questions: 50,
  question: 2_000,
  questionDescription: 10_000,
  buttonText: 100,
  link: 2_000,
  boundLabel: 200,
  choices: 50,
  choice: 1_000,
  questionId: 64,
  /** JSON text of `appearance`, and of a question's `translations` and `validation`. */
  jsonBytes: 32_768,
  url: 2_000,
  selector: 1_000,
  events: 50,
  eventName: 400,
  waitPeriodDays: 3_650,
  responsesLimit: 1_000_000_000,
  iterationCount: 500,
  iterationFrequencyDays: 3_650,
} as const;
