import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { ValidationError } from '../errors';
import { PAGE_MAX_BYTES } from '../http/pagination';
import type { Properties } from '../persons/store';
import { eventStore, type EventFilters } from './store';

export interface EventQuery {
  event?: string;
  distinct_id?: string;
  after?: string;
  before?: string;
}

/** An ISO time filter, normalized to the stored form; 400 naming the field when it is not a time. */
function timeFilter(value: string | undefined, attr: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new ValidationError('Enter a valid date/time, e.g. 2026-01-31T12:00:00Z.', attr, 'invalid');
  return new Date(ms).toISOString();
}

/** Reading stored events back. */
export class EventService {
  constructor(private readonly db: Kysely<Database>) {}

  async list(projectId: number, query: EventQuery, limit: number, offset: number) {
    const filters: EventFilters = {
      event: query.event || undefined,
      distinctId: query.distinct_id || undefined,
      after: timeFilter(query.after, 'after'),
      before: timeFilter(query.before, 'before'),
    };
    const { count, rows } = await eventStore.page(this.db, projectId, filters, limit, offset, PAGE_MAX_BYTES);
    const results = rows.map((row) => ({
      id: row.uuid,
      event: row.event,
      distinct_id: row.distinct_id,
      properties: JSON.parse(row.properties) as Properties,
      timestamp: row.timestamp,
    }));
    return { count, results };
  }
}
