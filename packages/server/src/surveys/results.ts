import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../db/database';
import { storable } from '../db/text';
import { NotFoundError, ValidationError } from '../errors';
import { timeOf } from '../http/query-time';
import { questionsOf, type Answer, type Question } from './responses-answers';
import { resultsStore, type ResultsFilter } from './results-store';

/** Open answers a page lists by default, and at most. */
export const DEFAULT_ANSWERS_LIMIT = 20;
export const MAX_ANSWERS_LIMIT = 100;
/** Answers outside a choice question's choices (an open choice's texts) counted one by one: the most frequent ones. */
export const MAX_OTHER_CHOICES = 100;
/** `by_day` lists every day between the first and the last with events up to this many; past it, only those days. */
const MAX_LISTED_DAYS = 1000;
const DAY_MS = 86_400_000;

export interface ResultsQuery {
  date_from?: string | undefined;
  date_to?: string | undefined;
  property_key?: string | undefined;
  property_value?: string | undefined;
  variant_flag?: string | undefined;
  variant?: string | undefined;
  answers_offset?: string | undefined;
  answers_limit?: string | undefined;
  answers_question?: string | undefined;
}

type Counts = { shown: number; dismissed: number; sent: number; abandoned: number };

export interface QuestionResults {
  id: string;
  index: number;
  type: string;
  question: string;
  responses: number;
  choices?: { value: string; count: number }[];
  ratings?: { value: number; count: number }[];
  nps?: { promoters: number; passives: number; detractors: number; score: number | null };
  answers?: {
    results: { value: Answer; distinct_id: string; person_id: string | null; timestamp: string; submission_id: string }[];
    count: number;
    next_offset: number | null;
  };
}

export interface SurveyResults {
  survey_id: string;
  counts: Counts & { partial: number };
  response_rate: number | null;
  late_responses: number;
  by_day: ({ day: string } & Counts)[];
  questions: QuestionResults[];
}

function intOf(value: string | undefined, attr: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw new ValidationError(`Enter a whole number from ${min} to ${max}.`, attr, 'invalid');
  return n;
}

/** A pair of query parameters given together or not at all. */
function pairOf(a: string | undefined, b: string | undefined, names: [string, string]): { first: string; second: string } | undefined {
  const has = (v: string | undefined) => v !== undefined && v !== '';
  if (!has(a) && !has(b)) return undefined;
  if (!has(a) || !has(b)) throw new ValidationError(`Give \`${names[0]}\` and \`${names[1]}\` together.`, has(a) ? names[1] : names[0], 'required');
  return { first: a!, second: b! };
}

/** The filters of a results query, checked (400 naming the parameter). */
export function filterOf(projectId: number, surveyId: string, query: ResultsQuery, now = Date.now()): ResultsFilter {
  const from = timeOf(query.date_from, 'date_from', now);
  const to = timeOf(query.date_to, 'date_to', now);
  if (from !== undefined && to !== undefined && from >= to) throw new ValidationError('`date_from` must be earlier than `date_to`.', 'date_from', 'invalid');
  const property = pairOf(query.property_key, query.property_value, ['property_key', 'property_value']);
  const variant = pairOf(query.variant_flag, query.variant, ['variant_flag', 'variant']);
  return {
    projectId,
    surveyId,
    from,
    to,
    property: property && { key: property.first, value: property.second },
    variant: variant && { flag: variant.first, value: variant.second },
  };
}

/** Every value of a rating scale: 0–10 for 10 (NPS), else 1 to the scale. */
export const scaleValues = (scale: number) => Array.from({ length: scale === 10 ? 11 : scale }, (_, i) => (scale === 10 ? i : i + 1));

/** The net promoter score of a 0–10 distribution: promoters 9–10, passives 7–8, detractors 0–6; null without answers. */
export function npsOf(ratings: { value: number; count: number }[]): NonNullable<QuestionResults['nps']> {
  const sum = (test: (v: number) => boolean) => ratings.filter((r) => test(r.value)).reduce((n, r) => n + r.count, 0);
  const promoters = sum((v) => v >= 9);
  const passives = sum((v) => v === 7 || v === 8);
  const detractors = sum((v) => v <= 6);
  const total = promoters + passives + detractors;
  return { promoters, passives, detractors, score: total ? Math.round(((promoters - detractors) / total) * 1000) / 10 : null };
}

/** Every day from the first to the last (when at most MAX_LISTED_DAYS), with the days that had events. */
function daysOf(days: Map<string, Counts>): ({ day: string } & Counts)[] {
  const sorted = [...days.keys()].sort();
  if (sorted.length > 1) {
    const first = Date.parse(`${sorted[0]}T00:00:00Z`);
    const last = Date.parse(`${sorted[sorted.length - 1]}T00:00:00Z`);
    if ((last - first) / DAY_MS < MAX_LISTED_DAYS) {
      for (let t = first; t <= last; t += DAY_MS) {
        const day = new Date(t).toISOString().slice(0, 10);
        if (!days.has(day)) days.set(day, { shown: 0, dismissed: 0, sent: 0, abandoned: 0 });
      }
    }
  }
  return [...days.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, counts]) => ({ day, ...counts }));
}

/**
 * A survey's results, read from its stored events and responses (`results-store.ts`): the counts and the people
 * reached, per day, and per question what was answered. A survey that does not exist has results only when events
 * name it (they are stored, and all late). On SQLite, whose statements run in the event loop, other requests get a
 * turn between two statements.
 */
export class SurveyResultsService {
  constructor(private readonly db: Db) {}

  async results(projectId: number, surveyId: string, query: ResultsQuery): Promise<SurveyResults> {
    // An id no event could have stored (ids are cut to 200 characters and hold no NUL) names nothing.
    if (storable(surveyId) !== surveyId) throw new NotFoundError('No survey with this id.');
    const filter = filterOf(projectId, surveyId, query);
    const limit = intOf(query.answers_limit, 'answers_limit', DEFAULT_ANSWERS_LIMIT, 1, MAX_ANSWERS_LIMIT);
    const offset = intOf(query.answers_offset, 'answers_offset', 0, 0, 1_000_000_000);
    const { kysely, dialect } = this.db;
    const survey = await kysely
      .selectFrom('surveys')
      .select(['id', 'questions'])
      .where('project_id', '=', projectId)
      .where('id', '=', surveyId)
      .executeTakeFirst();
    if (!survey && !(await resultsStore.anyStored(kysely, projectId, surveyId))) throw new NotFoundError('No survey with this id.');
    const turn = () => (dialect === 'sqlite' ? nextTurn() : undefined);

    const days = new Map<string, Counts>();
    const dayOf = (day: string) => days.get(day) ?? days.set(day, { shown: 0, dismissed: 0, sent: 0, abandoned: 0 }).get(day)!;
    const counts = { shown: 0, dismissed: 0, sent: 0, abandoned: 0, partial: 0 };
    for (const { day, kind, n } of await resultsStore.eventsByDay(kysely, dialect, filter)) {
      const k = kind as 'shown' | 'dismissed' | 'abandoned';
      dayOf(day)[k] += n;
      counts[k] += n;
    }
    await turn();
    for (const { day, n } of await resultsStore.sentByDay(kysely, dialect, filter)) {
      dayOf(day).sent += n;
      counts.sent += n;
    }
    await turn();
    const totals = await resultsStore.responseTotals(kysely, dialect, filter);
    counts.partial = totals.partial;
    await turn();
    const reach = await resultsStore.reach(kysely, dialect, filter);
    await turn();
    const answered = await resultsStore.answered(kysely, dialect, filter);

    const questions: QuestionResults[] = [];
    for (const question of questionsOf(survey?.questions)) {
      await turn();
      const pageOffset = query.answers_question === undefined || query.answers_question === question.id ? offset : 0;
      questions.push(await this.question(filter, question, answered.get(question.id) ?? 0, limit, pageOffset));
    }
    return {
      survey_id: surveyId,
      counts,
      response_rate: reach.shown ? Math.min(1, reach.responded / reach.shown) : null,
      late_responses: totals.late,
      by_day: daysOf(days),
      questions,
    };
  }

  private async question(filter: ResultsFilter, question: Question, responses: number, limit: number, offset: number): Promise<QuestionResults> {
    const { kysely, dialect } = this.db;
    const { id, index, type } = question;
    const result: QuestionResults = { id, index, type, question: question.question, responses };
    const page = async (otherThan: string[] | undefined) => {
      const { count, rows } = await resultsStore.answers(kysely, dialect, filter, id, otherThan, limit, offset);
      const results = rows.map((row) => ({ ...row, value: JSON.parse(row.value) as Answer }));
      return { results, count, next_offset: offset + rows.length < count && rows.length ? offset + rows.length : null };
    };
    if (type === 'single_choice' || type === 'multiple_choice') {
      const defined = [...new Set(question.choices)];
      const known = new Map((await resultsStore.itemCounts(kysely, dialect, filter, id, { within: defined })).map((c) => [c.value, c.n]));
      const others = await resultsStore.itemCounts(kysely, dialect, filter, id, { without: defined, limit: MAX_OTHER_CHOICES });
      result.choices = [...defined.map((value) => ({ value, count: known.get(value) ?? 0 })), ...others.map((o) => ({ value: o.value, count: o.n }))];
      if (question.hasOpenChoice) result.answers = await page(defined);
    } else if (type === 'rating') {
      const values = scaleValues(question.scale ?? 5);
      const found = new Map((await resultsStore.itemCounts(kysely, dialect, filter, id, { within: values.map(String) })).map((c) => [Number(c.value), c.n]));
      result.ratings = values.map((value) => ({ value, count: found.get(value) ?? 0 }));
      if (question.scale === 10) result.nps = npsOf(result.ratings);
    } else if (type === 'open' || type === 'link') {
      result.answers = await page(undefined);
    }
    return result;
  }
}
