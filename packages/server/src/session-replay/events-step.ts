import type { IngestStep } from '../capture/pipeline';
import { storable } from '../db/text';
import { addExceptions, fillSessionPersons } from './session-rows';

/** What the step notes of an event with a session: whether it is an exception. One object each, shared by every event. */
interface SessionMark {
  exception: boolean;
}
const EXCEPTION: SessionMark = { exception: true };
const OTHER: SessionMark = { exception: false };

/**
 * The ingestion step that ties events to recordings: at the door an event's `$session_id` becomes its row's
 * `session_id` (which a replay's timeline reads by); in the transaction `$exception` events are counted into their
 * sessions (a row is made for a session not recorded yet, its start null until a snapshot arrives), and the sessions
 * named get their person once the persons step before has one for their distinct id.
 */
export function sessionEventsStep(): IngestStep<SessionMark> {
  return {
    mark(event) {
      const sessionId = event.properties.$session_id;
      if (typeof sessionId !== 'string' || sessionId === '') return undefined;
      event.sessionId = storable(sessionId);
      return event.event === '$exception' ? EXCEPTION : OTHER;
    },
    async record(slice, marked) {
      const sessions = new Set<string>();
      const exceptions = new Map<string, { distinctId: string; exceptions: number }>();
      for (const { event, mark } of marked) {
        const sessionId = event.sessionId!;
        sessions.add(sessionId);
        if (!mark.exception) continue;
        const counted = exceptions.get(sessionId);
        if (counted) counted.exceptions++;
        else exceptions.set(sessionId, { distinctId: event.distinctId, exceptions: 1 });
      }
      await addExceptions(slice.tx, slice.projectId, exceptions, new Date().toISOString());
      await fillSessionPersons(slice.tx, slice.projectId, [...sessions]);
    },
  };
}
