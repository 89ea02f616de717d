import type { Insertable } from 'kysely';
import type { CapturedEvent, IngestSlice, Marked } from '../capture/pipeline';
import type { Executor, SurveyEventTable, SurveyResponseTable } from '../db/schema';
import { isObject } from '../json';
import { answersOf, flagsOf, questionsOf, type Answer, type Question } from './responses-answers';
import { responseStore, type ResponseRow, type SurveyState } from './responses-store';

/** The four survey events, by the kind stored in `survey_events`. */
export const SURVEY_EVENTS = { 'survey shown': 'shown', 'survey dismissed': 'dismissed', 'survey sent': 'sent', 'survey abandoned': 'abandoned' } as const;
export type SurveyEventKind = (typeof SURVEY_EVENTS)[keyof typeof SURVEY_EVENTS];

/** What the door notes of a survey event. */
export interface SurveyMark {
  kind: SurveyEventKind;
  surveyId: string;
  /** `$survey_iteration` when it is a whole number, else null. */
  iteration: number | null;
  /** `$survey_submission_id`, else null (a response is then the event's alone). */
  submissionId: string | null;
  /** A `survey sent` that completes its submission (`$survey_completed` absent or true). */
  completed: boolean;
}

/** Ends a survey whose responses reached its limit, in the ingest transaction. */
export type StopSurvey = (tx: Executor, projectId: number, surveyId: string, at: string) => Promise<void>;

interface Known {
  state: SurveyState;
  questions: Question[];
  /** Completed responses counted toward the limit, kept up to date through the slice. */
  counted: number;
  /** When the survey stopped (reaching its limit in this slice, or before). */
  stoppedAt: string | null;
}

/** Whether a response stored now is late: its survey is unknown, archived, not launched, ended, or stopped. */
const lateFor = (known: Known | undefined, now: string) =>
  !known ||
  known.state.archived === 1 ||
  known.state.start_date === null ||
  known.state.start_date > now ||
  (known.state.end_date !== null && known.state.end_date <= now) ||
  known.stoppedAt !== null;

const answersJson = (answers: ReadonlyMap<string, Answer>) => JSON.stringify(Object.fromEntries(answers));

function storedAnswers(json: string): Map<string, Answer> {
  try {
    const parsed: unknown = JSON.parse(json);
    return isObject(parsed) ? new Map(Object.entries(parsed) as [string, Answer][]) : new Map();
  } catch {
    return new Map();
  }
}

/** A submission's response as this slice leaves it: the stored row (if any) with this slice's events merged in. */
interface Pending {
  row: Insertable<SurveyResponseTable> & { id?: number };
  answers: Map<string, Answer>;
  changed: boolean;
}

/**
 * Records a slice's survey events, in its ingest transaction: a `survey_events` row each, and one response per
 * submission (`$survey_submission_id`, else the event's uuid) for every `survey sent` and for a dismissed or
 * abandoned survey that carries answers. A submission's answers are merged (an answer of a later event replaces
 * one of an earlier event), it is complete once a `survey sent` completes it, and late when it arrived while its survey
 * was not running (unknown, ended, stopped). Once the completed responses stored while it ran reach the survey's
 * `responses_limit`, the survey stops (`stop`), and `stopped` runs after the commit.
 */
export async function recordSurveyEvents(
  slice: IngestSlice,
  marked: readonly Marked<SurveyMark>[],
  stop: StopSurvey,
  stopped: (projectId: number) => void,
): Promise<void> {
  const { tx, projectId } = slice;
  const now = new Date().toISOString();
  const surveys = new Map<string, Known>();
  for (const state of await responseStore.surveys(tx, projectId, [...new Set(marked.map((m) => m.mark.surveyId))])) {
    surveys.set(state.id, { state, questions: questionsOf(state.questions), counted: 0, stoppedAt: null });
  }
  const personUuids = new Map(marked.map(({ event }) => [event.distinctId, slice.personUuid(event.distinctId)]));
  const personIds = await responseStore.personIds(
    tx,
    projectId,
    [...new Set(personUuids.values())].filter((u): u is string => u !== undefined),
  );
  const personOf = (e: CapturedEvent) => personIds.get(personUuids.get(e.distinctId) ?? '') ?? null;

  const answered = marked.map(({ event, mark }) => {
    const answers = answersOf(event.properties, surveys.get(mark.surveyId)?.questions ?? []);
    const responds = mark.kind === 'sent' || ((mark.kind === 'dismissed' || mark.kind === 'abandoned') && answers.size > 0);
    return { event, mark, answers, submission: responds ? (mark.submissionId ?? event.uuid) : null, flags: flagsOf(event.properties) };
  });

  await responseStore.insertEvents(
    tx,
    answered.map(({ event, mark, submission, flags }) => ({
      project_id: projectId,
      survey_id: mark.surveyId,
      kind: mark.kind,
      event_uuid: event.uuid,
      distinct_id: event.distinctId,
      person_id: personOf(event),
      submission_id: submission ?? mark.submissionId,
      iteration: mark.iteration,
      timestamp: event.timestamp,
      flags: flags && JSON.stringify(flags),
    })) satisfies Insertable<SurveyEventTable>[],
  );

  const responding = answered.filter((a) => a.submission !== null);
  if (!responding.length) return;
  const keyOf = (surveyId: string, submission: string) => JSON.stringify([surveyId, submission]);
  const pending = new Map<string, Pending>();
  const stored = await responseStore.responses(
    tx,
    projectId,
    [...new Set(responding.map((a) => a.mark.surveyId))],
    [...new Set(responding.map((a) => a.submission!))],
  );
  for (const row of stored) pending.set(keyOf(row.survey_id, row.submission_id), { row, answers: storedAnswers(row.answers), changed: false });

  for (const known of surveys.values()) {
    if (known.state.responses_limit === null || lateFor(known, now)) continue;
    known.counted = await responseStore.countedResponses(tx, projectId, known.state.id);
    // A limit lowered below the responses already counted stops the survey at its next response.
    if (known.counted >= known.state.responses_limit) known.stoppedAt = now;
  }
  const toStop = new Set<string>([...surveys.values()].filter((k) => k.stoppedAt !== null).map((k) => k.state.id));

  for (const { event, mark, answers, submission, flags } of responding) {
    const known = surveys.get(mark.surveyId);
    const late = lateFor(known, now);
    const key = keyOf(mark.surveyId, submission!);
    let response = pending.get(key);
    if (!response) {
      response = {
        row: {
          project_id: projectId,
          survey_id: mark.surveyId,
          submission_id: submission!,
          distinct_id: event.distinctId,
          person_id: personOf(event),
          iteration: mark.iteration,
          answers: '{}',
          completed: 0,
          late: late ? 1 : 0,
          first_at: event.timestamp,
          last_at: event.timestamp,
          flags: null,
        },
        answers: new Map(),
        changed: true,
      };
      pending.set(key, response);
    }
    const { row } = response;
    const newer = event.timestamp >= row.last_at!;
    for (const [id, answer] of answers) if (newer || !response.answers.has(id)) response.answers.set(id, answer);
    if (event.timestamp < row.first_at!) row.first_at = event.timestamp;
    if (newer) row.last_at = event.timestamp;
    row.person_id = personOf(event) ?? row.person_id ?? null;
    if (flags && (newer || row.flags === null)) row.flags = JSON.stringify(flags);
    // A response completed while its survey ran stays counted; one still open when the survey stopped becomes late.
    if (!row.completed && late) row.late = 1;
    if (!row.completed && mark.completed) {
      row.completed = 1;
      if (!row.late && known && known.state.responses_limit !== null) {
        known.counted++;
        if (known.counted >= known.state.responses_limit) {
          known.stoppedAt = now;
          toStop.add(known.state.id);
        }
      }
    }
    response.changed = true;
  }

  const inserts: Insertable<SurveyResponseTable>[] = [];
  for (const { row, answers, changed } of pending.values()) {
    if (!changed) continue;
    row.answers = answersJson(answers);
    if (row.id === undefined) inserts.push(row);
    else await responseStore.updateResponse(tx, row as ResponseRow);
  }
  await responseStore.insertResponses(tx, inserts);
  if (!toStop.size) return;
  for (const surveyId of toStop) await stop(tx, projectId, surveyId, now);
  slice.afterCommit(() => stopped(projectId));
}
