import { sql, type SelectQueryBuilder } from 'kysely';
import type { Dialect } from '../db/database';
import { jsonTextAt } from '../db/json-text';
import type { LlmEventTable } from '../db/llm-schema';
import type { Database, Executor } from '../db/schema';

/** The filters of the generations list and of usage, checked. */
export interface LlmFilters {
  kinds: readonly string[];
  model?: string | undefined;
  provider?: string | undefined;
  traceId?: string | undefined;
  distinctIds?: readonly string[] | undefined;
  isError?: boolean | undefined;
  flag?: { key: string; variant: string | undefined } | undefined;
  costMin?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export type LlmRow = LlmEventTable;

/** Event uuids per read. */
const UUIDS_PER_READ = 500;

type Query = SelectQueryBuilder<Database, 'llm_events', object>;

/** The project's LLM events the filters keep. */
export function filtered(db: Executor, dialect: Dialect, projectId: number, f: LlmFilters): Query {
  let q: Query = db
    .selectFrom('llm_events')
    .where('project_id', '=', projectId)
    .where('kind', 'in', [...f.kinds]);
  if (f.model !== undefined) q = q.where('model', '=', f.model);
  if (f.provider !== undefined) q = q.where('provider', '=', f.provider);
  if (f.traceId !== undefined) q = q.where('trace_id', '=', f.traceId);
  if (f.distinctIds !== undefined) q = q.where('distinct_id', 'in', f.distinctIds.length ? [...f.distinctIds] : ['\uFFFF-none']);
  if (f.isError !== undefined) q = q.where('is_error', '=', f.isError ? 1 : 0);
  if (f.costMin !== undefined) q = q.where('total_cost_usd', '>=', f.costMin);
  if (f.from !== undefined) q = q.where('timestamp', '>=', f.from);
  if (f.to !== undefined) q = q.where('timestamp', '<', f.to);
  if (f.flag) {
    const value = jsonTextAt(dialect, 'flags', [f.flag.key]);
    // A flag's variant is stored as its JSON (`"test"`); a boolean flag as `true` / `false`.
    q = f.flag.variant === undefined ? q.where(value, 'is not', null).where(value, '!=', 'false') : q.where(value, '=', JSON.stringify(f.flag.variant));
  }
  return q;
}

export const llmStore = {
  async count(db: Executor, dialect: Dialect, projectId: number, f: LlmFilters): Promise<number> {
    const row = await filtered(db, dialect, projectId, f)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** A page of events, newest first. */
  page(db: Executor, dialect: Dialect, projectId: number, f: LlmFilters, limit: number, offset: number): Promise<LlmRow[]> {
    return filtered(db, dialect, projectId, f).selectAll().orderBy('timestamp', 'desc').orderBy('uuid', 'desc').limit(limit).offset(offset).execute();
  },

  /** Every event of a trace, oldest first. */
  trace(db: Executor, projectId: number, traceId: string): Promise<LlmRow[]> {
    return db
      .selectFrom('llm_events')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('trace_id', '=', traceId)
      .orderBy('timestamp')
      .orderBy('uuid')
      .execute();
  },

  /**
   * The stored properties of these events (a trace's, in its order) while their size whole stays within `maxBytes`
   * (the first one in any case), in that order; the sizes are read first, so events past the budget are never loaded.
   */
  async properties(db: Executor, projectId: number, uuids: readonly string[], maxBytes: number) {
    const sizes = new Map<string, number>();
    for (let i = 0; i < uuids.length; i += UUIDS_PER_READ) {
      const rows = await db
        .selectFrom('events as e')
        .select(['e.uuid', sql<number | string>`octet_length(e.properties) + coalesce(e.llm_payload_bytes, 0)`.as('bytes')])
        .where('e.project_id', '=', projectId)
        .where('e.uuid', 'in', uuids.slice(i, i + UUIDS_PER_READ))
        .execute();
      for (const row of rows) sizes.set(row.uuid, Number(row.bytes));
    }
    const within: string[] = [];
    let total = 0;
    for (const uuid of uuids) {
      const bytes = sizes.get(uuid);
      if (bytes === undefined) continue;
      total += bytes;
      if (within.length && total > maxBytes) break;
      within.push(uuid);
    }
    const found: { uuid: string; properties: string; llm_payloads: string | null }[] = [];
    for (let i = 0; i < within.length; i += UUIDS_PER_READ) {
      found.push(
        ...(await db
          .selectFrom('events')
          .select(['uuid', 'properties', 'llm_payloads'])
          .where('project_id', '=', projectId)
          .where('uuid', 'in', within.slice(i, i + UUIDS_PER_READ))
          .execute()),
      );
    }
    return found;
  },

  /** What usage adds up, one row a generation (latency percentiles need every value). */
  usageRows(db: Executor, dialect: Dialect, projectId: number, f: LlmFilters, limit: number) {
    return filtered(db, dialect, projectId, f)
      .select(['timestamp', 'model', 'provider', 'flags', 'input_tokens', 'output_tokens', 'total_cost_usd', 'latency', 'is_error'])
      .orderBy('timestamp')
      .limit(limit)
      .execute();
  },

  async distinctIdsOfPerson(db: Executor, projectId: number, personUuid: string): Promise<string[]> {
    const rows = await db
      .selectFrom('person_distinct_ids')
      .innerJoin('persons', 'persons.id', 'person_distinct_ids.person_id')
      .select('person_distinct_ids.distinct_id')
      .where('persons.project_id', '=', projectId)
      .where('persons.uuid', '=', personUuid)
      .execute();
    return rows.map((r) => r.distinct_id);
  },

  async prices(db: Executor, projectId: number): Promise<string | undefined> {
    return (await db.selectFrom('llm_prices').select('prices').where('project_id', '=', projectId).executeTakeFirst())?.prices;
  },

  async setPrices(db: Executor, projectId: number, prices: string, now: string): Promise<void> {
    await db
      .insertInto('llm_prices')
      .values({ project_id: projectId, prices, updated_at: now })
      .onConflict((c) => c.column('project_id').doUpdateSet({ prices, updated_at: now }))
      .execute();
  },
};
