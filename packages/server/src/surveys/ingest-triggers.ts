import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';
import type { Changes } from '../changes';
import { DEFAULT_FLAG_CACHE_PROJECTS } from '../config';
import type { Db } from '../db/database';
import { isObject, type Properties } from '../json';

/**
 * Server-side event conditions: an entry of a survey's `conditions.events.values[]` with `server_side: true` names an
 * event that makes its person eligible whoever captures it (service-node, any SDK). Ingestion then sets the person
 * property `$survey_triggered/<survey id>[/<iteration>]`, which the survey's targeting flag requires.
 */

/** One property filter of an entry, as posthog-js matches them (`matchPropertyFilters`): on the value's text. */
interface Filter {
  property: string;
  test: (value: string) => boolean;
}

/** An event that triggers a survey: the survey, its current iteration and its dates, and the entry's property filters. */
export interface Trigger {
  surveyId: string;
  iteration: number;
  start: string;
  end: string | null;
  filters: Filter[];
}

/** A project's triggers by event name. */
export type TriggerIndex = ReadonlyMap<string, readonly Trigger[]>;

/** Entries older than this are read again even without a notification (a bound on a lost one). */
const TTL_MS = 60_000;

/** A regular expression of a filter, RE2 (linear time: no pattern can freeze ingestion); null when it is not one. */
function regexOf(pattern: string): RE2JS | null {
  try {
    return RE2JS.compile(pattern);
  } catch {
    return null;
  }
}

/** The comparisons of posthog-js's `propertyComparisons`; an unknown operator never matches. */
function testOf(operator: unknown, targets: string[]): (value: string) => boolean {
  switch (operator) {
    case 'exact':
      return (value) => targets.includes(value);
    case 'is_not':
      return (value) => !targets.includes(value);
    case 'icontains': {
      const lower = targets.map((t) => t.toLowerCase());
      return (value) => lower.some((t) => value.toLowerCase().includes(t));
    }
    case 'not_icontains': {
      const lower = targets.map((t) => t.toLowerCase());
      return (value) => lower.every((t) => !value.toLowerCase().includes(t));
    }
    case 'regex':
    case 'not_regex': {
      const regexes = targets.map(regexOf);
      const found = (value: string) => regexes.some((re) => re !== null && re.test(value));
      return operator === 'regex' ? found : (value) => !found(value);
    }
    case 'gt':
    case 'lt': {
      const bounds = targets.map((t) => parseFloat(t)).filter((n) => !Number.isNaN(n));
      return (value) => {
        const n = parseFloat(value);
        return !Number.isNaN(n) && bounds.some((bound) => (operator === 'gt' ? n > bound : n < bound));
      };
    }
    default:
      return () => false;
  }
}

function filtersOf(propertyFilters: unknown): Filter[] {
  if (!isObject(propertyFilters)) return [];
  return Object.entries(propertyFilters).map(([property, filter]) => {
    const values = isObject(filter) && Array.isArray(filter.values) ? filter.values.map(String) : undefined;
    return { property, test: values && isObject(filter) ? testOf(filter.operator, values) : () => false };
  });
}

/** What the index is read from: launched surveys not yet ended whose conditions may hold a server-side entry. */
export interface TriggerRow {
  id: string;
  conditions: string | null;
  start_date: string | null;
  end_date: string | null;
  current_iteration: number | null;
}

/** The index of a project's server-side entries, by event name. */
export function triggersOf(rows: readonly TriggerRow[]): Map<string, Trigger[]> {
  const index = new Map<string, Trigger[]>();
  for (const row of rows) {
    if (row.start_date === null) continue;
    let conditions: unknown;
    try {
      conditions = JSON.parse(row.conditions ?? 'null');
    } catch {
      continue;
    }
    const values = isObject(conditions) && isObject(conditions.events) ? conditions.events.values : undefined;
    if (!Array.isArray(values)) continue;
    for (const entry of values) {
      if (!isObject(entry) || entry.server_side !== true || typeof entry.name !== 'string') continue;
      const trigger = {
        surveyId: row.id,
        iteration: row.current_iteration ?? 0,
        start: row.start_date,
        end: row.end_date,
        filters: filtersOf(entry.propertyFilters),
      };
      const list = index.get(entry.name);
      if (list) list.push(trigger);
      else index.set(entry.name, [trigger]);
    }
  }
  return index;
}

/** The person property a trigger sets: `$survey_triggered/<id>`, with `/<iteration>` past the first. */
export const triggeredProperty = (trigger: Pick<Trigger, 'surveyId' | 'iteration'>) =>
  `$survey_triggered/${trigger.surveyId}${trigger.iteration > 0 ? `/${trigger.iteration}` : ''}`;

/** Whether an event of the trigger's name with these properties triggers it now: the survey runs, every filter matches. */
export function triggers(trigger: Trigger, properties: Properties, now: string): boolean {
  if (trigger.start > now || (trigger.end !== null && trigger.end <= now)) return false;
  return trigger.filters.every(({ property, test }) => {
    const value = properties[property];
    return value !== null && value !== undefined && test(String(value));
  });
}

interface Entry {
  loading: Promise<TriggerIndex>;
  index?: TriggerIndex;
}

/**
 * The server-side entries of each project's surveys, read from the `surveys` table and kept in memory: invalidated
 * by every change announced through `changes` (a survey's writes announce its flags' change), across processes too.
 * At most `maxProjects` are kept: past that the least recently used is dropped.
 */
export class SurveyTriggers {
  private readonly entries: LRUCache<number, Entry>;
  /** The read, prepared: on SQLite it runs on the read-only connection, never behind the ingest transaction. */
  private readonly read: (...params: unknown[]) => Promise<TriggerRow[]>;

  constructor(
    private readonly db: Pick<Db, 'kysely' | 'preparedRead'>,
    changes: Changes,
    maxProjects = DEFAULT_FLAG_CACHE_PROJECTS,
  ) {
    this.entries = new LRUCache({ max: maxProjects, ttl: TTL_MS });
    this.read = db.preparedRead(this.query(0, ''));
    changes.on('flags', (projectId) => this.entries.delete(projectId));
    changes.on('gap', () => this.entries.clear());
  }

  /** The project's index when it is in memory already (undefined: `get` it). */
  peek(projectId: number): TriggerIndex | undefined {
    return this.entries.get(projectId)?.index;
  }

  get(projectId: number): Promise<TriggerIndex> {
    const cached = this.entries.get(projectId);
    if (cached) return cached.loading;
    const entry: Entry = { loading: this.load(projectId) };
    this.entries.set(projectId, entry);
    entry.loading.then(
      (index) => (entry.index = index),
      // A failed read is not kept; the next request reads again.
      () => this.entries.peek(projectId) === entry && this.entries.delete(projectId),
    );
    return entry.loading;
  }

  /** Launched surveys of the project not ended at `now` whose conditions may hold a server-side entry. */
  private query(projectId: number, now: string) {
    return this.db.kysely
      .selectFrom('surveys')
      .select(['id', 'conditions', 'start_date', 'end_date', 'current_iteration'])
      .where('project_id', '=', projectId)
      .where('archived', '=', 0)
      .where('start_date', 'is not', null)
      .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>', now)]))
      .where('conditions', 'like', '%server_side%');
  }

  private async load(projectId: number): Promise<TriggerIndex> {
    return triggersOf(await this.read(...this.query(projectId, new Date().toISOString()).compile().parameters));
  }
}
