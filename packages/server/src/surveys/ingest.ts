import type { CapturedEvent, EventDraft, IngestPipeline, IngestStep } from '../capture/pipeline';
import type { Changes } from '../changes';
import type { Db } from '../db/database';
import { storable } from '../db/text';
import type { Properties } from '../json';
import { SurveyTriggers, triggeredProperty, triggers, type TriggerIndex } from './ingest-triggers';
import { SURVEY_EVENTS, recordSurveyEvents, type StopSurvey, type SurveyMark } from './responses';
import { responseStore } from './responses-store';

/** A survey's or a submission's id as events carry it: a text (or a number) of at most 200 characters; else none. */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? storable(value) : undefined;
}

/** `$survey_iteration` as a whole number (a numeric text too), else null. */
function iterationOf(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 0 && n < 1e9 ? n : null;
}

/** The person property posthog-js sets when a person responds to or dismisses a survey: per iteration past the first. */
export const interactionProperty = (action: 'responded' | 'dismissed', surveyId: string, iteration: number | null) =>
  `$survey_${action}/${surveyId}${iteration !== null && iteration > 0 ? `/${iteration}` : ''}`;

/** What the door notes of a survey event (`survey shown|dismissed|sent|abandoned` with a usable `$survey_id`), else undefined. */
export function surveyMarkOf(event: string, properties: Properties): SurveyMark | undefined {
  const kind = SURVEY_EVENTS[event as keyof typeof SURVEY_EVENTS] as SurveyMark['kind'] | undefined;
  if (kind === undefined || !Object.hasOwn(SURVEY_EVENTS, event)) return undefined;
  const surveyId = idOf(properties.$survey_id);
  if (surveyId === undefined) return undefined;
  const done = properties.$survey_completed;
  return {
    kind,
    surveyId,
    iteration: iterationOf(properties.$survey_iteration),
    submissionId: idOf(properties.$survey_submission_id) ?? null,
    completed: kind === 'sent' && done !== false && done !== 'false' && done !== 0,
  };
}

/** Adds `key: true` to an event's `$set`, unless it sets that key already. */
function setOnDraft(draft: Pick<EventDraft, 'set'>, key: string): boolean {
  if (draft.set && Object.hasOwn(draft.set, key)) return false;
  draft.set = { ...draft.set, [key]: true };
  return true;
}

/**
 * The survey events step. At the door it marks survey events and adds to their `$set` what posthog-js sets (an SDK
 * that did not, or an older one, is then alike): `$survey_responded/<id>[/<iteration>]` for a completed `survey sent`,
 * `$survey_dismissed/<id>[/<iteration>]` for `survey dismissed`. In the transaction it records them
 * (`recordSurveyEvents`): their rows, the merged responses, and the stop of a survey that reached its limit.
 */
export function surveysStep({ changes, stop = responseStore.stop }: { changes: Changes; stop?: StopSurvey }): IngestStep<SurveyMark> {
  return {
    mark(draft) {
      if (draft.group) return undefined;
      const mark = surveyMarkOf(draft.event, draft.properties);
      if (!mark) return undefined;
      if (mark.kind === 'sent' && mark.completed) setOnDraft(draft, interactionProperty('responded', mark.surveyId, mark.iteration));
      if (mark.kind === 'dismissed') setOnDraft(draft, interactionProperty('dismissed', mark.surveyId, mark.iteration));
      return mark;
    },
    // A stopped survey changes what its flags answer and what the public list holds: they hear it as flag changes do.
    record: (slice, marked) => recordSurveyEvents(slice, marked, stop, (projectId) => changes.flagsChanged(projectId)),
  };
}

/** Adds the triggered surveys' properties to the `$set` of the events that trigger them, and to their stored JSON. */
function applyTriggers(index: TriggerIndex, events: readonly CapturedEvent[]): void {
  if (!index.size) return;
  const now = new Date().toISOString();
  for (const event of events) {
    const found = index.get(event.event);
    if (!found || event.group || event.event === '$groupidentify') continue;
    let changed = false;
    for (const trigger of found) {
      if (triggers(trigger, event.properties, now) && setOnDraft(event, triggeredProperty(trigger))) changed = true;
    }
    if (!changed) continue;
    event.properties.$set = event.set;
    // The stored JSON may leave parts of the properties apart (an exception's stacks): only `$set` changes in it.
    const stored = JSON.parse(event.propertiesJson) as Properties;
    stored.$set = event.set;
    event.propertiesJson = JSON.stringify(stored);
  }
}

/**
 * The server-side conditions step: before the transaction (every event: a server-side event is any event), an event
 * named by a running survey's server-side entry, whose property filters it matches, sets
 * `$survey_triggered/<survey id>[/<iteration>]` on its person. The project's entries come from `SurveyTriggers`: in
 * memory, the step works at once; else it waits for their read.
 */
export function surveyTriggersStep(surveys: SurveyTriggers): IngestStep {
  return {
    prepare(projectId, _marked, events) {
      const index = surveys.peek(projectId);
      if (!index) return surveys.get(projectId).then((loaded) => applyTriggers(loaded, events));
      applyTriggers(index, events);
      return undefined;
    },
  };
}

/** Adds the surveys' two ingestion steps to the pipeline (their `$set` reaches the persons step: marks and `prepare` come before any `record`). */
export function useSurveySteps(
  pipeline: IngestPipeline,
  { db, changes, stop }: { db: Pick<Db, 'kysely' | 'preparedRead'>; changes: Changes; stop?: StopSurvey },
): void {
  pipeline.use(surveysStep({ changes, ...(stop ? { stop } : {}) }));
  pipeline.use(surveyTriggersStep(new SurveyTriggers(db, changes)));
}
