import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Changes } from '../changes';
import type { Database } from '../db/schema';
import { flagStore, type FlagRow } from '../feature-flags/store';
import { nextChange, statusOf } from './schedule';
import type { ConditionsInput } from './schemas';
import { surveyStore, type SurveyRow } from './store';
import type { Question } from './validate';

/** The public list of a project, as sent: its JSON, its ETag and how many surveys run. */
export interface PublicList {
  body: string;
  etag: string;
  running: number;
}

/** The longest a project's list is kept without a change announced (a bound on a lost notification). */
const TTL_MS = 60_000;

/**
 * The conditions as the browser gets them: without the events a server captures (the ingestion step and the targeting
 * flag handle those: the person becomes eligible at their next `/flags`), and without `events` when none is left.
 */
export function publicConditions(conditions: ConditionsInput | null): ConditionsInput | null {
  if (!conditions?.events) return conditions;
  const values = conditions.events.values.filter((event) => event.server_side !== true).map(({ server_side: _, ...event }) => event);
  const { events, ...rest } = conditions;
  return values.length ? { ...rest, events: { ...events, values } } : rest;
}

/** A running survey in the shape posthog-js reads (PostHog's SurveyAPISerializer). */
export function toPublicSurvey(row: SurveyRow, flags: ReadonlyMap<number, FlagRow>) {
  const targeting = flags.get(row.targeting_flag_id ?? -1)?.key ?? null;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    questions: JSON.parse(row.questions) as Question[],
    appearance: row.appearance === null ? null : (JSON.parse(row.appearance) as Record<string, unknown>),
    conditions: publicConditions(row.conditions === null ? null : (JSON.parse(row.conditions) as ConditionsInput)),
    linked_flag_key: row.linked_flag_key,
    targeting_flag_key: targeting,
    internal_targeting_flag_key: flags.get(row.internal_targeting_flag_id ?? -1)?.key ?? null,
    start_date: row.start_date,
    // posthog-js takes a survey with any end date for ended; a listed survey runs (one with a later end leaves the list then).
    end_date: null,
    schedule: row.schedule,
    current_iteration: row.current_iteration,
    current_iteration_start_date: row.current_iteration_start_date,
    enable_partial_responses: row.enable_partial_responses === 1,
    // The internal targeting flag is left out: posthog-js checks it itself, skipping it for surveys shown again and again.
    feature_flag_keys: [
      { key: 'linked_flag_key', value: row.linked_flag_key },
      { key: 'targeting_flag_key', value: targeting },
    ],
  };
}

/**
 * Each project's public list, built once per change: every survey write announces a change of the project's flags
 * (the surveys' flags change with them), which drops it here too, in every process. A list is also rebuilt when a
 * survey of it starts, ends or begins an iteration, and at least every minute.
 */
export class PublicSurveys {
  private readonly entries = new LRUCache<number, Promise<PublicList>>({ max: 10_000, ttl: TTL_MS });

  constructor(
    private readonly db: Kysely<Database>,
    changes: Changes,
  ) {
    changes.on('flags', (projectId) => this.entries.delete(projectId));
    changes.on('gap', () => this.entries.clear());
  }

  get(projectId: number): Promise<PublicList> {
    const cached = this.entries.get(projectId);
    if (cached) return cached;
    const now = Date.now();
    const value = this.load(projectId, now);
    this.entries.set(projectId, value);
    value.then(
      ({ until }) => {
        if (until !== null && this.entries.peek(projectId) === value) this.entries.set(projectId, value, { ttl: Math.max(1, Math.min(TTL_MS, until - now)) });
      },
      () => this.entries.peek(projectId) === value && this.entries.delete(projectId),
    );
    return value;
  }

  private async load(projectId: number, now: number): Promise<PublicList & { until: number | null }> {
    const at = new Date(now).toISOString();
    const rows = await surveyStore.inApp(this.db, projectId, at);
    const running = rows.filter((row) => statusOf(row, at) === 'running');
    const ids = running.flatMap((row) => [row.targeting_flag_id, row.internal_targeting_flag_id]).filter((id): id is number => id !== null);
    const flags = new Map((await flagStore.byIds(this.db, ids)).map((flag) => [flag.id, flag]));
    const body = JSON.stringify({ surveys: running.map((row) => toPublicSurvey(row, flags)) });
    const changes = rows.map((row) => nextChange(row, now)).filter((time): time is number => time !== null);
    return {
      body,
      etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      running: running.length,
      until: changes.length ? Math.min(...changes) : null,
    };
  }
}
