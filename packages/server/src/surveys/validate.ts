import { validateFilters } from '@service/flag-engine';
import { uuidv7 } from '../uuid';
import { ValidationError } from '../errors';
import {
  BRANCHING_TYPES,
  CHOICE_TYPES,
  EMOJI_SCALES,
  LIMITS,
  MATCH_TYPES,
  NUMBER_SCALES,
  PROPERTY_OPERATORS,
  RATING_BUCKETS,
  SCALES,
  type QuestionType,
} from './limits';
import type { ConditionsInput, QuestionInput, TargetingFiltersInput } from './schemas';

// A survey definition's rules past each field's own shape, each broken one a 400 naming the field by its path
// (`questions__2__branching__index`): what posthog-js (and our client) would draw wrongly or not at all.

/** A question as stored and served: the fields of its type only, defaults filled in. */
export interface Question {
  type: QuestionType;
  id: string;
  question: string;
  description: string;
  descriptionContentType: 'html' | 'text';
  optional: boolean;
  buttonText?: string;
  branching?: Branching;
  link?: string | null;
  display?: 'number' | 'emoji';
  scale?: number;
  lowerBoundLabel?: string;
  upperBoundLabel?: string;
  skipSubmitButton?: boolean;
  choices?: string[];
  hasOpenChoice?: boolean;
  shuffleOptions?: boolean;
  translations?: Record<string, unknown>;
  validation?: Record<string, unknown>[];
}

export type Branching =
  | { type: 'next_question' }
  | { type: 'end' }
  | { type: 'specific_question'; index: number }
  | { type: 'response_based'; responseValues: Record<string, number | 'end'> };

/** A question id: what its answers' property is named by (`$survey_response_<id>`), so no more than these characters. */
const QUESTION_ID = /^[A-Za-z0-9_-]+$/;
/** The fields only some types have, and those types. */
const TYPE_FIELDS: Record<string, readonly QuestionType[]> = {
  link: ['link'],
  display: ['rating'],
  scale: ['rating'],
  lowerBoundLabel: ['rating'],
  upperBoundLabel: ['rating'],
  skipSubmitButton: ['rating', 'single_choice', 'multiple_choice'],
  choices: CHOICE_TYPES,
  hasOpenChoice: CHOICE_TYPES,
  shuffleOptions: CHOICE_TYPES,
};
const article = (type: string) => (/^[aeiou]/.test(type) ? 'an' : 'a');
const named = (type: string) => `${article(type)} ${type.replace('_', ' ')} question`;

/** JSON text of a value within `LIMITS.jsonBytes`; else a 400 on `attr`. */
export function checkJsonSize(value: unknown, attr: string) {
  if (Buffer.byteLength(JSON.stringify(value)) > LIMITS.jsonBytes) {
    throw new ValidationError(`Ensure this is no more than ${LIMITS.jsonBytes} bytes as JSON.`, attr, 'max_length');
  }
}

const blank = (text: string) => text.trim() === '';

/** A value among `choices`; else a 400 on `attr`, as a schema's enum answers. */
function oneOf(value: string, choices: readonly string[], attr: string) {
  if (!choices.includes(value)) throw new ValidationError(`"${value}" is not a valid choice.`, attr, 'invalid_choice');
}

/**
 * The questions as stored: ids kept when sent (unique, letters, digits, `-` and `_`), made otherwise; each checked for
 * its type (text, choices, scale, link) and its branching (to a later question, or by an answer it can have).
 */
export function normalizeQuestions(input: QuestionInput[]): Question[] {
  const seen = new Set<string>();
  const questions = input.map((q, i) => {
    const at = (field: string) => `questions__${i}__${field}`;
    if (blank(q.question)) throw new ValidationError('A question needs its text.', at('question'), 'blank');
    for (const [field, types] of Object.entries(TYPE_FIELDS)) {
      const value = (q as Record<string, unknown>)[field];
      if (value !== undefined && value !== null && !types.includes(q.type)) {
        throw new ValidationError(`${capitalize(named(q.type))} has no ${field}: only ${types.map(named).join(' or ')} has.`, at(field));
      }
    }
    const id = q.id ?? uuidv7();
    if (!QUESTION_ID.test(id)) throw new ValidationError('A question id has letters, digits, hyphens (-) and underscores (_) only.', at('id'));
    if (seen.has(id)) throw new ValidationError(`Question ids are unique; "${id}" is given twice.`, at('id'), 'unique');
    seen.add(id);
    const question: Question = {
      type: q.type,
      id,
      question: q.question,
      description: q.description ?? '',
      descriptionContentType: q.descriptionContentType ?? 'text',
      optional: q.optional ?? false,
    };
    if (q.buttonText !== undefined) question.buttonText = q.buttonText;
    if (q.type === 'link') question.link = checkLink(q.link ?? null, at('link'));
    if (q.type === 'rating') Object.assign(question, rating(q, at));
    if (CHOICE_TYPES.includes(q.type)) Object.assign(question, choices(q, at));
    if (q.skipSubmitButton !== undefined) question.skipSubmitButton = q.skipSubmitButton;
    if (q.translations !== undefined) {
      checkJsonSize(q.translations, at('translations'));
      question.translations = q.translations;
    }
    if (q.validation !== undefined) {
      checkJsonSize(q.validation, at('validation'));
      question.validation = q.validation;
    }
    return question;
  });
  input.forEach((q, i) => {
    if (q.branching) questions[i]!.branching = branching(q.branching, questions, i);
  });
  return questions;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A link question's link: http(s) or mailto (never `javascript:`), or none. */
function checkLink(link: string | null, attr: string): string | null {
  if (link === null || link === '') return null;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new ValidationError('Enter a valid URL (http, https or mailto).', attr, 'invalid');
  }
  if (!['http:', 'https:', 'mailto:'].includes(url.protocol)) throw new ValidationError('A link is http, https or mailto.', attr, 'invalid');
  return link;
}

function rating(q: QuestionInput, at: (field: string) => string): Partial<Question> {
  const display = q.display ?? 'number';
  const scale = q.scale ?? (display === 'number' ? 10 : 5);
  if (!(SCALES as readonly number[]).includes(scale)) {
    throw new ValidationError(`A rating's scale is one of ${SCALES.join(', ')}; ${scale} is not.`, at('scale'), 'invalid_choice');
  }
  const allowed = display === 'number' ? NUMBER_SCALES : EMOJI_SCALES;
  if (!allowed.includes(scale)) {
    throw new ValidationError(
      `A rating shown as ${display === 'number' ? 'numbers' : 'emoji'} has a scale of ${allowed.join(', ')}; ${scale} is not.`,
      at('scale'),
      'invalid_choice',
    );
  }
  return {
    display,
    scale,
    lowerBoundLabel: q.lowerBoundLabel ?? '',
    upperBoundLabel: q.upperBoundLabel ?? '',
  };
}

function choices(q: QuestionInput, at: (field: string) => string): Partial<Question> {
  const list = q.choices ?? [];
  if (!list.length) throw new ValidationError(`${capitalize(named(q.type))} needs at least one choice.`, at('choices'), 'required');
  const seen = new Set<string>();
  list.forEach((choice, c) => {
    if (blank(choice)) throw new ValidationError('A choice needs its text.', `${at('choices')}__${c}`, 'blank');
    if (seen.has(choice)) throw new ValidationError(`Choices are unique; "${choice}" is given twice.`, `${at('choices')}__${c}`, 'unique');
    seen.add(choice);
  });
  return { choices: list, hasOpenChoice: q.hasOpenChoice ?? false, shuffleOptions: q.shuffleOptions ?? false };
}

/** Where a question goes next: only forward (a question branching back could loop), to a question that exists. */
function branching(input: NonNullable<QuestionInput['branching']>, questions: Question[], i: number): Branching {
  const at = (field: string) => `questions__${i}__branching${field ? `__${field}` : ''}`;
  oneOf(input.type, BRANCHING_TYPES, at('type'));
  const target = (value: unknown, attr: string): number | 'end' => {
    if (value === 'end') return 'end';
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) >= questions.length) {
      throw new ValidationError(
        `Branching goes to a question that exists: an index from 0 to ${questions.length - 1}, or "end"; ${JSON.stringify(value)} is neither.`,
        attr,
        'invalid_choice',
      );
    }
    if ((value as number) <= i) throw new ValidationError(`Branching goes forward: to a question after this one (index above ${i}), or "end".`, attr);
    return value as number;
  };
  const type = input.type as Branching['type'];
  switch (type) {
    case 'next_question':
    case 'end':
      return { type };
    case 'specific_question': {
      if (input.index === undefined) throw new ValidationError('Branching to a specific question names its index.', at('index'), 'required');
      const index = target(input.index, at('index'));
      if (index === 'end') throw new ValidationError('Use the branching type "end" to end the survey.', at('index'));
      return { type: 'specific_question', index };
    }
    case 'response_based': {
      const question = questions[i]!;
      if (question.type !== 'single_choice' && question.type !== 'rating') {
        throw new ValidationError(`Branching by the answer is for single choice and rating questions, not ${named(question.type)}.`, at('type'));
      }
      const answers = question.type === 'rating' ? RATING_BUCKETS[question.scale!]! : question.choices!.map((_, c) => String(c));
      const values = input.responseValues ?? {};
      if (!Object.keys(values).length) throw new ValidationError('Branching by the answer says where each answer goes.', at('responseValues'), 'required');
      const out: Record<string, number | 'end'> = {};
      for (const [answer, to] of Object.entries(values)) {
        const attr = at(`responseValues__${answer}`);
        if (!answers.includes(answer)) {
          const what =
            question.type === 'rating' ? `a rating of scale ${question.scale} falls in ${answers.join(', ')}` : `the choices are ${answers.join(', ')}`;
          throw new ValidationError(`"${answer}" is not an answer of this question: ${what}.`, attr, 'invalid_choice');
        }
        out[answer] = target(to, attr);
      }
      return { type: 'response_based', responseValues: out };
    }
  }
}

/** Conditions as stored: a URL regex that compiles (the browser runs it); events named. */
export function normalizeConditions(input: ConditionsInput | null): ConditionsInput | null {
  if (input === null) return null;
  if (input.urlMatchType !== undefined) oneOf(input.urlMatchType, MATCH_TYPES, 'conditions__urlMatchType');
  if (input.deviceTypesMatchType !== undefined) oneOf(input.deviceTypesMatchType, MATCH_TYPES, 'conditions__deviceTypesMatchType');
  const matchType = input.urlMatchType ?? 'icontains';
  if ((matchType === 'regex' || matchType === 'not_regex') && input.url) {
    try {
      new RegExp(input.url);
    } catch {
      throw new ValidationError('Enter a valid regular expression.', 'conditions__url');
    }
  }
  input.events?.values.forEach((event, e) => {
    const at = `conditions__events__values__${e}`;
    if (blank(event.name)) throw new ValidationError('An event needs its name.', `${at}__name`, 'blank');
    for (const [property, filter] of Object.entries(event.propertyFilters ?? {}))
      oneOf(filter.operator, PROPERTY_OPERATORS, `${at}__propertyFilters__${property}__operator`);
  });
  return input;
}

/** Whether the conditions name an event captured by a server (the targeting flag then waits for `$survey_triggered`). */
export const hasServerSideEvents = (conditions: ConditionsInput | null) => !!conditions?.events?.values.some((event) => event.server_side === true);

/** Person-property targeting as flag conditions: the flag rules (operators, values, rollouts), person properties only. */
export function checkTargeting(input: TargetingFiltersInput | null): TargetingFiltersInput | null {
  if (input === null) return null;
  const groups = input.groups.map((group) => ({ properties: group.properties ?? [], rollout_percentage: group.rollout_percentage ?? 100 }));
  const error = validateFilters({ groups });
  if (error) throw new ValidationError(error.detail, error.attr.replace(/^filters/, 'targeting_flag_filters'), error.code);
  groups.forEach((group, g) => {
    group.properties.forEach((property, p) => {
      const type = (property as { type?: unknown }).type ?? 'person';
      if (type !== 'person') {
        throw new ValidationError(
          'A survey targets people by their properties: the type is "person".',
          `targeting_flag_filters__groups__${g}__properties__${p}__type`,
        );
      }
    });
  });
  return { groups };
}

/** An ISO time as stored (UTC, milliseconds), null as null; a 400 on `attr` for a time that is not one. */
export function isoTime(value: string | null, attr: string): string | null {
  if (value === null) return null;
  const time = Date.parse(value);
  if (!Number.isFinite(time) || !/^\d{4}-\d{2}-\d{2}T/.test(value))
    throw new ValidationError('Enter a valid date and time (ISO 8601, with a time zone).', attr);
  return new Date(time).toISOString();
}
