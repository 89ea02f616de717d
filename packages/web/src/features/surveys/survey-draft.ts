import { ratingBuckets } from './labels';
import { conditionErrors, toConditionDrafts, toGroups, type ConditionDraft } from '../flags/flag-draft';
import type {
  Branching,
  MatchType,
  PreviewedSurvey,
  QuestionType,
  Survey,
  SurveyAppearance,
  SurveyConditions,
  SurveyEventCondition,
  SurveyQuestion,
  SurveySchedule,
  SurveyType,
} from './types';

/** A question as the builder edits it: every type's fields at hand, so switching type loses nothing typed. */
export interface QuestionDraft {
  /** The question's server-made id, sent back so its answers stay its own. */
  id?: string;
  type: QuestionType;
  question: string;
  description: string;
  optional: boolean;
  buttonText: string;
  link: string;
  display: 'number' | 'emoji';
  scale: number;
  lowerBoundLabel: string;
  upperBoundLabel: string;
  choices: string[];
  hasOpenChoice: boolean;
  shuffleOptions: boolean;
  branching: Branching;
  /** The question's fields the builder does not edit (translations, validation…), sent back as they came. */
  other: Record<string, unknown>;
}

/** A property filter of an event condition: the property, how it compares, the values. */
export interface EventFilterDraft {
  key: string;
  operator: string;
  values: string[];
}

export interface EventDraft {
  name: string;
  /** Captured by a server (service-node, any SDK): the person becomes eligible at their next /flags. */
  serverSide: boolean;
  filters: EventFilterDraft[];
}

export interface SurveyDraft {
  name: string;
  description: string;
  type: SurveyType;
  questions: QuestionDraft[];
  appearance: SurveyAppearance;
  url: string;
  urlMatchType: MatchType;
  selector: string;
  events: EventDraft[];
  repeatedActivation: boolean;
  deviceTypes: string[];
  /** Days since the person last saw any survey; '' for no wait. */
  waitDays: number | string;
  linkedFlagKey: string | null;
  linkedFlagVariant: string | null;
  targeting: ConditionDraft[];
  schedule: SurveySchedule;
  iterationCount: number | string;
  iterationFrequencyDays: number | string;
  responsesLimit: number | string;
  partialResponses: boolean;
  linkedEarlyAccessFeatureId: string | null;
  /** What the survey's conditions hold that the builder does not edit (cancel events, actions…), kept as it is. */
  otherConditions: Record<string, unknown>;
}

export const DEFAULT_APPEARANCE: SurveyAppearance = {
  backgroundColor: '#ffffff',
  // White on it reads at 4.9:1 (WCAG AA).
  submitButtonColor: '#1971c2',
  textColor: '#1f2328',
  position: 'right',
  placeholder: 'Start typing…',
  displayThankYouMessage: true,
  thankYouMessageHeader: 'Thank you for your feedback!',
  thankYouMessageDescription: '',
};

export function newQuestion(type: QuestionType = 'open', patch: Partial<QuestionDraft> = {}): QuestionDraft {
  return {
    type,
    question: '',
    description: '',
    optional: false,
    buttonText: 'Submit',
    link: '',
    display: 'number',
    scale: 5,
    lowerBoundLabel: 'Unlikely',
    upperBoundLabel: 'Very likely',
    choices: type === 'single_choice' || type === 'multiple_choice' ? ['', ''] : [],
    hasOpenChoice: false,
    shuffleOptions: false,
    branching: { type: 'next_question' },
    other: {},
    ...patch,
  };
}

export function emptyDraft(): SurveyDraft {
  return {
    name: '',
    description: '',
    type: 'popover',
    questions: [newQuestion('open')],
    appearance: { ...DEFAULT_APPEARANCE },
    url: '',
    urlMatchType: 'icontains',
    selector: '',
    events: [],
    repeatedActivation: false,
    deviceTypes: [],
    waitDays: '',
    linkedFlagKey: null,
    linkedFlagVariant: null,
    targeting: [],
    schedule: 'once',
    iterationCount: 2,
    iterationFrequencyDays: 90,
    responsesLimit: '',
    partialResponses: true,
    linkedEarlyAccessFeatureId: null,
    otherConditions: {},
  };
}

/** The fields of a question the builder edits (every type's); the others are kept aside as they came. */
const EDITED = new Set([
  'id',
  'type',
  'question',
  'description',
  'optional',
  'buttonText',
  'branching',
  'link',
  'display',
  'scale',
  'lowerBoundLabel',
  'upperBoundLabel',
  'choices',
  'hasOpenChoice',
  'shuffleOptions',
]);

const questionDraft = (q: SurveyQuestion): QuestionDraft =>
  newQuestion(q.type, {
    id: q.id,
    question: q.question ?? '',
    description: q.description ?? '',
    optional: q.optional ?? false,
    buttonText: q.buttonText ?? 'Submit',
    link: q.link ?? '',
    display: q.display ?? 'number',
    scale: q.scale ?? 5,
    lowerBoundLabel: q.lowerBoundLabel ?? '',
    upperBoundLabel: q.upperBoundLabel ?? '',
    choices: q.choices ?? [],
    hasOpenChoice: q.hasOpenChoice ?? false,
    shuffleOptions: q.shuffleOptions ?? false,
    branching: q.branching ?? { type: 'next_question' },
    other: Object.fromEntries(Object.entries(q).filter(([key]) => !EDITED.has(key))),
  });

const eventDraft = (e: SurveyEventCondition): EventDraft => ({
  name: e.name,
  serverSide: e.server_side === true,
  filters: Object.entries(e.propertyFilters ?? {}).map(([key, f]) => ({ key, operator: f.operator, values: f.values.map(String) })),
});

/** A survey as the builder edits it. */
export function toDraft(s: Survey): SurveyDraft {
  const {
    url,
    urlMatchType,
    selector,
    events,
    deviceTypes,
    seenSurveyWaitPeriodInDays,
    linkedFlagVariant,
    deviceTypesMatchType: _,
    ...rest
  } = s.conditions ?? {};
  return {
    name: s.name,
    description: s.description ?? '',
    type: s.type,
    questions: s.questions.map(questionDraft),
    appearance: { ...DEFAULT_APPEARANCE, ...(s.appearance ?? {}) },
    url: url ?? '',
    urlMatchType: urlMatchType ?? 'icontains',
    selector: selector ?? '',
    events: (events?.values ?? []).map(eventDraft),
    repeatedActivation: events?.repeatedActivation ?? false,
    deviceTypes: deviceTypes ?? [],
    waitDays: seenSurveyWaitPeriodInDays ?? '',
    linkedFlagKey: s.linked_flag_key,
    linkedFlagVariant: linkedFlagVariant ?? null,
    targeting: toConditionDrafts(s.targeting_flag_filters?.groups ?? []),
    schedule: s.schedule ?? 'once',
    iterationCount: s.iteration_count ?? 2,
    iterationFrequencyDays: s.iteration_frequency_days ?? 90,
    responsesLimit: s.responses_limit ?? '',
    partialResponses: s.enable_partial_responses,
    linkedEarlyAccessFeatureId: s.linked_early_access_feature_id,
    otherConditions: rest,
  };
}

const isChoice = (type: QuestionType) => type === 'single_choice' || type === 'multiple_choice';

/** A question as the API takes it: the fields of its type only. */
export function questionBody(q: QuestionDraft): SurveyQuestion {
  const body: SurveyQuestion = {
    ...q.other,
    ...(q.id ? { id: q.id } : {}),
    type: q.type,
    question: q.question.trim(),
    description: q.description.trim(),
    optional: q.optional,
    buttonText: q.buttonText.trim() || 'Submit',
  };
  const branching = branchingBody(q);
  if (branching.type !== 'next_question') body.branching = branching;
  if (q.type === 'link') body.link = q.link.trim();
  if (q.type === 'rating') {
    Object.assign(body, { display: q.display, scale: q.scale, lowerBoundLabel: q.lowerBoundLabel, upperBoundLabel: q.upperBoundLabel });
  }
  if (isChoice(q.type)) Object.assign(body, { choices: q.choices.map((c) => c.trim()), hasOpenChoice: q.hasOpenChoice, shuffleOptions: q.shuffleOptions });
  return body;
}

/** Branching by answer keeps only the answers that do not simply go on to the next question. */
function branchingBody(q: QuestionDraft): Branching {
  const b = q.branching;
  if (b.type !== 'response_based') return b;
  const keys = new Set(q.type === 'rating' ? ratingBuckets(q.scale).map((r) => r.key) : q.choices.map((_, i) => String(i)));
  const responseValues = Object.fromEntries(Object.entries(b.responseValues).filter(([key]) => keys.has(key)));
  // Every answer going on to the next question is no branching at all.
  return Object.keys(responseValues).length ? { type: 'response_based', responseValues } : { type: 'next_question' };
}

/** Whether a question can branch by its answer (posthog-js branches by a single choice or a rating). */
export const branchesByAnswer = (type: QuestionType) => type === 'single_choice' || type === 'rating';

function eventBody(e: EventDraft): SurveyEventCondition {
  const filters = e.filters.filter((f) => f.key.trim());
  return {
    name: e.name.trim(),
    ...(filters.length ? { propertyFilters: Object.fromEntries(filters.map((f) => [f.key.trim(), { operator: f.operator, values: f.values }])) } : {}),
    ...(e.serverSide ? { server_side: true } : {}),
  };
}

const isRegex = (text: string) => {
  try {
    new RegExp(text);
    return true;
  } catch {
    return false;
  }
};

const wholeAtLeast = (value: number | string, min: number) => value !== '' && Number.isInteger(Number(value)) && Number(value) >= min;

/**
 * The body the API takes (POST or PATCH), or the errors by field that keep it from being sent. `was`: the draft as the
 * survey was saved, if it was.
 */
export function fromDraft(d: SurveyDraft, was?: SurveyDraft): { body?: Record<string, unknown>; errors?: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (!d.name.trim()) errors.name = 'Give the survey a name, like "Checkout NPS". Only your team sees it.';
  if (d.questions.length === 0) errors.questions = 'Add a question: a survey asks at least one.';
  d.questions.forEach((q, i) => {
    const at = `questions.${i}`;
    if (!q.question.trim()) errors[`${at}.question`] = 'Write the question people will read.';
    if (isChoice(q.type)) {
      const choices = q.choices.map((c) => c.trim());
      if (choices.length < 2 || choices.some((c) => !c)) errors[`${at}.choices`] = 'Give at least two choices, none of them empty.';
      else if (new Set(choices).size !== choices.length) errors[`${at}.choices`] = 'Each choice must be different.';
    }
    if (q.type === 'link' && q.link.trim() && !/^(https?:\/\/|mailto:)/i.test(q.link.trim()))
      errors[`${at}.link`] = 'A link starts with https://, http:// or mailto:.';
    const b = q.branching;
    // Branching goes forward, to a question that is there.
    if (b.type === 'specific_question' && (b.index <= i || !d.questions[b.index])) errors[`${at}.branching`] = 'Choose a later question to go to.';
    if (b.type === 'response_based' && Object.values(b.responseValues).some((v) => v !== 'end' && (v <= i || !d.questions[v])))
      errors[`${at}.branching`] = 'An answer leads to a question that is not after this one.';
  });
  if (d.url.trim() && d.urlMatchType.includes('regex') && !isRegex(d.url.trim())) errors['conditions.url'] = 'Not a valid regular expression.';
  if (d.events.some((e) => !e.name.trim())) errors['conditions.events'] = 'Name every event, or remove the empty one.';
  if (d.waitDays !== '' && !wholeAtLeast(d.waitDays, 0)) errors['conditions.seenSurveyWaitPeriodInDays'] = 'A whole number of days, 0 or more.';
  if (d.responsesLimit !== '' && !wholeAtLeast(d.responsesLimit, 1)) errors.responses_limit = 'A whole number of responses, 1 or more.';
  if (d.schedule === 'recurring') {
    if (!wholeAtLeast(d.iterationCount, 1)) errors.iteration_count = 'How many times to ask: 1 or more.';
    if (!wholeAtLeast(d.iterationFrequencyDays, 1)) errors.iteration_frequency_days = 'Days between two rounds: 1 or more.';
  }
  for (const [field, message] of Object.entries(conditionErrors(d.targeting))) errors[`targeting.${field}`] = message;
  if (Object.keys(errors).length) return { errors };

  const conditions: SurveyConditions = { ...d.otherConditions };
  if (d.url.trim()) Object.assign(conditions, { url: d.url.trim(), urlMatchType: d.urlMatchType });
  if (d.selector.trim()) conditions.selector = d.selector.trim();
  if (d.events.length) conditions.events = { repeatedActivation: d.repeatedActivation, values: d.events.map(eventBody) };
  if (d.deviceTypes.length) Object.assign(conditions, { deviceTypes: d.deviceTypes, deviceTypesMatchType: 'icontains' });
  if (d.waitDays !== '') conditions.seenSurveyWaitPeriodInDays = Number(d.waitDays);
  if (d.linkedFlagKey && d.linkedFlagVariant) conditions.linkedFlagVariant = d.linkedFlagVariant;
  const recurring = d.schedule === 'recurring';
  return {
    body: {
      name: d.name.trim(),
      description: d.description.trim(),
      type: d.type,
      questions: d.questions.map(questionBody),
      appearance: d.appearance,
      conditions: Object.keys(conditions).length ? conditions : null,
      linked_flag_key: d.linkedFlagKey || null,
      targeting_flag_filters: d.targeting.length ? { groups: toGroups(d.targeting) } : null,
      schedule: d.schedule,
      iteration_count: recurring ? Number(d.iterationCount) : null,
      iteration_frequency_days: recurring ? Number(d.iterationFrequencyDays) : null,
      responses_limit: d.responsesLimit === '' ? null : Number(d.responsesLimit),
      enable_partial_responses: d.partialResponses,
      // Sent when there is one, or to unlink one: the API reads a null it did not expect as an id it does not know.
      ...(d.linkedEarlyAccessFeatureId || was?.linkedEarlyAccessFeatureId ? { linked_early_access_feature_id: d.linkedEarlyAccessFeatureId } : {}),
    },
  };
}

/** Where an index that pointed at question `from` points once the questions moved (`null`: the question is gone). */
type Remap = (index: number) => number | null;

function remapBranching(b: Branching, remap: Remap): Branching {
  if (b.type === 'specific_question') {
    const index = remap(b.index);
    return index === null ? { type: 'next_question' } : { type: 'specific_question', index };
  }
  if (b.type === 'response_based') {
    const responseValues: Record<string, number | 'end'> = {};
    for (const [key, to] of Object.entries(b.responseValues)) {
      const next = to === 'end' ? 'end' : remap(to);
      if (next !== null) responseValues[key] = next;
    }
    return { type: 'response_based', responseValues };
  }
  return b;
}

/** Branching goes forward only (a branch back could loop): a branch that now points back goes on to the next question. */
function forwardOnly(b: Branching, own: number): Branching {
  if (b.type === 'specific_question') return b.index > own ? b : { type: 'next_question' };
  if (b.type === 'response_based')
    return { type: 'response_based', responseValues: Object.fromEntries(Object.entries(b.responseValues).filter(([, to]) => to === 'end' || to > own)) };
  return b;
}

const remapAll = (questions: QuestionDraft[], remap: Remap) =>
  questions.map((q, i) => ({ ...q, branching: forwardOnly(remapBranching(q.branching, remap), i) }));

/** The questions without question `i`: branching to it goes on to the next question instead, later indexes shift down. */
export function removeQuestion(questions: QuestionDraft[], i: number): QuestionDraft[] {
  return remapAll(
    questions.filter((_, j) => j !== i),
    (index) => (index === i ? null : index > i ? index - 1 : index),
  );
}

/** The questions with question `from` moved to `to`: branching follows the questions it named. */
export function moveQuestion(questions: QuestionDraft[], from: number, to: number): QuestionDraft[] {
  const order = questions.map((_, i) => i);
  const [moved] = order.splice(from, 1);
  order.splice(to, 0, moved!);
  const where = new Map(order.map((old, now) => [old, now]));
  return remapAll(
    order.map((old) => questions[old]!),
    (index) => where.get(index) ?? null,
  );
}

/** A choice removed: branching by the choices after it follows them. */
export function removeChoice(q: QuestionDraft, c: number): QuestionDraft {
  const choices = q.choices.filter((_, j) => j !== c);
  if (q.branching.type !== 'response_based') return { ...q, choices };
  const responseValues: Record<string, number | 'end'> = {};
  for (const [key, to] of Object.entries(q.branching.responseValues)) {
    const k = Number(key);
    if (k !== c) responseValues[String(k > c ? k - 1 : k)] = to;
  }
  return { ...q, choices, branching: { type: 'response_based', responseValues } };
}

/**
 * Where an API error's `attr` belongs in the builder: `questions__2__choices` → `questions.2.choices`,
 * `targeting_flag_filters__groups__0__properties__1` → the targeting section; else the closest field the builder has.
 */
export function surveyFieldOf(attr: string): string | undefined {
  const path = attr.split('__');
  if (path[0] === 'questions') {
    if (path.length < 2 || !/^\d+$/.test(path[1]!)) return 'questions';
    const field = path[2];
    const known = ['question', 'description', 'choices', 'link', 'branching', 'buttonText', 'scale', 'display', 'lowerBoundLabel', 'upperBoundLabel'];
    return `questions.${path[1]}.${field && known.includes(field) ? field : 'question'}`;
  }
  if (path[0] === 'conditions') {
    const field = path[1];
    if (field === 'url' || field === 'urlMatchType') return 'conditions.url';
    if (field && ['selector', 'events', 'deviceTypes', 'seenSurveyWaitPeriodInDays', 'linkedFlagVariant'].includes(field)) return `conditions.${field}`;
    return 'conditions';
  }
  if (path[0] === 'targeting_flag_filters') return 'targeting';
  if (path[0] === 'linked_early_access_feature_id') return 'linked_flag_key';
  const top = ['name', 'description', 'type', 'appearance', 'linked_flag_key', 'schedule', 'iteration_count', 'iteration_frequency_days', 'responses_limit'];
  return top.includes(path[0]!) ? path[0] : undefined;
}

/** The survey as the renderer draws it in the preview: the draft's questions and looks, whatever is still unfinished. */
export function previewSurvey(d: SurveyDraft, id = 'preview'): PreviewedSurvey {
  return {
    id,
    name: d.name || 'Survey',
    type: d.type,
    questions: d.questions.map((q) => ({ ...questionBody(q), question: q.question.trim() || 'Your question' })),
    appearance: d.appearance,
  };
}
