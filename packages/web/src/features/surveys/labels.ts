import type { MatchType, QuestionType, SurveySchedule, SurveyStatus, SurveyType } from './types';

export const STATUS_INFO: Record<SurveyStatus, { label: string; color: string; help: string }> = {
  draft: { label: 'Draft', color: 'gray', help: 'Not launched: nobody sees it until you launch it.' },
  running: { label: 'Running', color: 'green', help: 'Shown to the people who match its conditions.' },
  stopped: { label: 'Stopped', color: 'orange', help: 'Nobody is shown it any more; its results stay.' },
};

export const TYPE_INFO: Record<SurveyType, { label: string; help: string }> = {
  popover: { label: 'Popover', help: 'Pops up in a corner of the page when its conditions match.' },
  widget: { label: 'Feedback widget', help: 'A tab or button on the page that opens the survey when clicked.' },
  api: { label: 'API', help: 'Your app draws it with its own components (useSurvey in service-js/react).' },
  external_survey: { label: 'Hosted link', help: 'A page of its own that you share by link.' },
};

export const QUESTION_TYPES: { value: QuestionType; label: string }[] = [
  { value: 'open', label: 'Open text' },
  { value: 'rating', label: 'Rating' },
  { value: 'single_choice', label: 'Single choice' },
  { value: 'multiple_choice', label: 'Multiple choice' },
  { value: 'link', label: 'Link' },
];
export const questionTypeLabel = (type: string) => QUESTION_TYPES.find((t) => t.value === type)?.label ?? type;

export const MATCH_TYPES: { value: MatchType; label: string }[] = [
  { value: 'icontains', label: 'contains' },
  { value: 'not_icontains', label: "doesn't contain" },
  { value: 'exact', label: 'equals' },
  { value: 'is_not', label: "doesn't equal" },
  { value: 'regex', label: 'matches regex' },
  { value: 'not_regex', label: "doesn't match regex" },
];

export const DEVICE_TYPES = ['Desktop', 'Mobile', 'Tablet'];

export const SCHEDULES: { value: SurveySchedule; label: string; help: string }[] = [
  { value: 'once', label: 'Once', help: 'Each person answers it at most once.' },
  { value: 'recurring', label: 'Recurring', help: 'Asked again every few days, a number of times: each round is an iteration.' },
  { value: 'always', label: 'Every time', help: 'Shown whenever its conditions match, even to people who answered.' },
];

export const POSITIONS = [
  { value: 'right', label: 'Bottom right' },
  { value: 'center', label: 'Bottom center' },
  { value: 'left', label: 'Bottom left' },
  { value: 'middle_center', label: 'Middle of the page' },
  { value: 'top_right', label: 'Top right' },
];

/** The scales of a rating, by how it is drawn (what posthog-js draws): numbers 5, 7 or 0–10; emoji 2, 3 or 5. */
export const SCALES = {
  number: [
    { value: '5', label: '1 to 5' },
    { value: '7', label: '1 to 7' },
    { value: '10', label: '0 to 10 (NPS)' },
  ],
  emoji: [
    { value: '2', label: '2 (thumbs)' },
    { value: '3', label: '3 faces' },
    { value: '5', label: '5 faces' },
  ],
};

/** The answers of a rating scale, for branching by answer: posthog-js's buckets. */
export function ratingBuckets(scale: number): { key: string; label: string }[] {
  if (scale === 10)
    return [
      { key: 'detractors', label: 'Detractors (0–6)' },
      { key: 'passives', label: 'Passives (7–8)' },
      { key: 'promoters', label: 'Promoters (9–10)' },
    ];
  if (scale === 2)
    return [
      { key: 'positive', label: 'Thumbs up (1)' },
      { key: 'negative', label: 'Thumbs down (2)' },
    ];
  const low = scale === 3 ? '1' : scale === 5 ? '1–2' : '1–3';
  const mid = scale === 3 ? '2' : scale === 5 ? '3' : '4';
  const high = scale === 3 ? '3' : scale === 5 ? '4–5' : '5–7';
  return [
    { key: 'negative', label: `Negative (${low})` },
    { key: 'neutral', label: `Neutral (${mid})` },
    { key: 'positive', label: `Positive (${high})` },
  ];
}

/** The values of a rating scale, lowest first (0–10 for NPS, 1–n otherwise). */
export const scaleValues = (scale: number) => (scale === 10 ? Array.from({ length: 11 }, (_, i) => i) : Array.from({ length: scale }, (_, i) => i + 1));

/** A share as a whole percentage ("42 %"), or '—'. */
export function percent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${Math.round(value * 100)} %`;
}
