import { storable } from '../db/text';
import { isObject, type Properties } from '../json';

/**
 * A response's answers as survey events carry them (posthog-js and our client alike): `$survey_response_<question id>`,
 * the legacy keys by the question's original index (`$survey_response` for the first, `$survey_response_1`, …), and
 * `$survey_questions` (`[{id, question, response}]`). Each answer is kept in one of a few plain forms, cut to a size.
 */

/** Longest text answer kept, in characters: a longer one is cut there (the README and the API docs say so). */
export const MAX_ANSWER_CHARS = 5_000;
/** Most choices one answer keeps (a multiple choice answer is a list). */
export const MAX_ANSWER_ITEMS = 100;
/** Most answers one response keeps, whatever its events send: a submission's row cannot grow past it. */
export const MAX_ANSWERS = 100;
/** Most `$feature/<key>` values kept of an event, for results by variant. */
const MAX_FLAGS = 200;

/** An answer as stored: a text, a number (a rating), a boolean, or a list of texts (multiple choice). */
export type Answer = string | number | boolean | string[];

/** What ingestion and results read of a survey's question. */
export interface Question {
  id: string;
  /** Its place in the survey's list: the index of the legacy `$survey_response_<index>` key. */
  index: number;
  type: string;
  question: string;
  scale: number | undefined;
  choices: string[];
  hasOpenChoice: boolean;
}

const RESPONSE_PREFIX = '$survey_response_';
const LEGACY_FIRST = '$survey_response';
const FLAG_PREFIX = '$feature/';
/** Where an answer by index goes when no question has that index (an unknown survey's, or a removed question's). */
const byIndexKey = (index: number) => `index:${index}`;

/** A survey's stored questions (JSON text), read defensively: entries without a text id are skipped, their index kept. */
export function questionsOf(json: string | null | undefined): Question[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((q: unknown, index) =>
    isObject(q) && typeof q.id === 'string' && q.id !== ''
      ? [
          {
            id: q.id,
            index,
            type: typeof q.type === 'string' ? q.type : 'open',
            question: typeof q.question === 'string' ? q.question : '',
            scale: typeof q.scale === 'number' && Number.isInteger(q.scale) ? q.scale : undefined,
            choices: Array.isArray(q.choices) ? q.choices.filter((c): c is string => typeof c === 'string') : [],
            hasOpenChoice: q.hasOpenChoice === true,
          },
        ]
      : [],
  );
}

/** A scalar as an answer's text: cut, NUL and lone surrogates replaced; '' and anything else is no text. */
function textOf(value: unknown): string | undefined {
  let text: string | undefined;
  if (typeof value === 'string') text = value;
  else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') text = String(value);
  return text === undefined || text.trim() === '' ? undefined : storable(text, MAX_ANSWER_CHARS);
}

const listOf = (value: unknown): string[] | undefined => {
  const items = (Array.isArray(value) ? value : [value]).slice(0, MAX_ANSWER_ITEMS);
  const texts = items.map(textOf).filter((t): t is string => t !== undefined);
  return texts.length ? texts : undefined;
};

/**
 * An answer as kept, by its question's type (undefined: no answer): a rating as a number (a numeric text too), a
 * multiple choice answer as a list of texts, any other as a text. An answer to no known question keeps numbers and
 * booleans, and lists of texts; objects are no answer anywhere.
 */
export function answerOf(value: unknown, question: Question | undefined): Answer | undefined {
  if (value === null || value === undefined || isObject(value)) return undefined;
  if (question?.type === 'rating') {
    const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
    return Number.isFinite(n) ? n : textOf(value);
  }
  if (question?.type === 'multiple_choice') return listOf(value);
  if (Array.isArray(value)) return question ? textOf(value[0]) : listOf(value);
  if (!question && typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (!question && typeof value === 'boolean') return value;
  return textOf(value);
}

/**
 * The answers an event carries, by question id: `$survey_response_<id>` first, then `$survey_questions`, then the
 * legacy keys by index (mapped to the question of that index, else kept as `index:<n>`). Keys that name no question
 * are kept too (a response to an unknown survey, or to a question since removed), at most MAX_ANSWERS in all.
 */
export function answersOf(properties: Properties, questions: readonly Question[]): Map<string, Answer> {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const byIndex = new Map(questions.map((q) => [q.index, q]));
  const answers = new Map<string, Answer>();
  const put = (rawId: string, value: unknown) => {
    const id = storable(rawId);
    if (id === '' || answers.has(id) || answers.size >= MAX_ANSWERS) return;
    const answer = answerOf(value, byId.get(id));
    if (answer !== undefined) answers.set(id, answer);
  };
  const legacy: [number, unknown][] = [];
  const unnamed: [string, unknown][] = [];
  for (const key of Object.keys(properties)) {
    if (key === LEGACY_FIRST) legacy.push([0, properties[key]]);
    if (!key.startsWith(RESPONSE_PREFIX)) continue;
    const id = key.slice(RESPONSE_PREFIX.length);
    if (byId.has(id)) put(id, properties[key]);
    else if (/^\d{1,4}$/.test(id)) legacy.push([Number(id), properties[key]]);
    else unnamed.push([id, properties[key]]);
  }
  const listed = properties.$survey_questions;
  if (Array.isArray(listed)) {
    for (const entry of listed.slice(0, MAX_ANSWERS)) {
      if (isObject(entry) && typeof entry.id === 'string') put(entry.id, entry.response);
    }
  }
  for (const [index, value] of legacy) put(byIndex.get(index)?.id ?? byIndexKey(index), value);
  for (const [id, value] of unnamed) put(id, value);
  return answers;
}

/** The event's flag values (`$feature/<key>`: a variant or a boolean), for results by variant; null when none. */
export function flagsOf(properties: Properties): Record<string, string | boolean> | null {
  const flags = new Map<string, string | boolean>();
  for (const key of Object.keys(properties)) {
    if (!key.startsWith(FLAG_PREFIX) || flags.size >= MAX_FLAGS) continue;
    const value = properties[key];
    const flag = storable(key.slice(FLAG_PREFIX.length));
    if (typeof value === 'boolean') flags.set(flag, value);
    else if (typeof value === 'string') flags.set(flag, storable(value));
  }
  return flags.size ? Object.fromEntries(flags) : null;
}
