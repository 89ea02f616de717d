import type { SurveyStatus } from './limits';

const DAY_MS = 86_400_000;

/** What a survey's status and iterations are read from. */
export interface Timing {
  start_date: string | null;
  end_date: string | null;
  schedule: string;
  iteration_count: number | null;
  iteration_frequency_days: number | null;
}

/**
 * Draft until it starts (no start date, or one still to come), stopped once its end date has passed, running between.
 * Times are ISO strings in UTC, compared as text (as the list's filter compares them in SQL).
 */
export function statusOf(timing: Pick<Timing, 'start_date' | 'end_date'>, now: string): SurveyStatus {
  if (timing.end_date !== null && timing.end_date <= now) return 'stopped';
  if (timing.start_date === null || timing.start_date > now) return 'draft';
  return 'running';
}

/** A recurring survey with what its iterations need (a start, a count and a frequency). */
const recurring = (timing: Timing) =>
  timing.schedule === 'recurring' && timing.start_date !== null && timing.iteration_count !== null && timing.iteration_frequency_days !== null;

/**
 * The iteration a recurring survey is in at `now` (1 from its start, one more every `iteration_frequency_days`, at most
 * `iteration_count`) and when it began; none for another schedule or before the start. The survey's events and the
 * person properties that keep a person from seeing it again (`$survey_responded/<id>/<iteration>`) carry it.
 */
export function iterationAt(timing: Timing, now: number): { current_iteration: number | null; current_iteration_start_date: string | null } {
  if (!recurring(timing)) return { current_iteration: null, current_iteration_start_date: null };
  const start = Date.parse(timing.start_date!);
  if (now < start) return { current_iteration: null, current_iteration_start_date: null };
  const period = timing.iteration_frequency_days! * DAY_MS;
  const iteration = Math.min(timing.iteration_count!, Math.floor((now - start) / period) + 1);
  return { current_iteration: iteration, current_iteration_start_date: new Date(start + (iteration - 1) * period).toISOString() };
}

/** When a recurring survey's last iteration ends (it stops then), or null. */
export function recurringEnd(timing: Timing): string | null {
  if (!recurring(timing)) return null;
  return new Date(Date.parse(timing.start_date!) + timing.iteration_count! * timing.iteration_frequency_days! * DAY_MS).toISOString();
}

/** The next moment after `now` at which the status or iteration of a survey changes, or null (for the public list's cache). */
export function nextChange(timing: Timing, now: number): number | null {
  const times: number[] = [];
  if (timing.start_date !== null) times.push(Date.parse(timing.start_date));
  if (timing.end_date !== null) times.push(Date.parse(timing.end_date));
  if (recurring(timing)) {
    const { current_iteration, current_iteration_start_date } = iterationAt(timing, now);
    if (current_iteration !== null) times.push(Date.parse(current_iteration_start_date!) + timing.iteration_frequency_days! * DAY_MS);
  }
  const future = times.filter((time) => time > now);
  return future.length ? Math.min(...future) : null;
}
