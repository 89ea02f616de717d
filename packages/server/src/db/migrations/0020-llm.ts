import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required } from './columns';

/**
 * LLM observability. One row per `$ai_generation`, `$ai_embedding`, `$ai_span` and `$ai_trace` event, written by the
 * ingestion step in the event's transaction: what the generations list, a trace's tree and the usage figures read,
 * without parsing the events' properties (the event row keeps the inputs and outputs). Tokens and costs are null when
 * unknown, never 0 in their place. A project's price overrides (USD per million tokens, by provider and model) are one
 * JSON document per project.
 */
export const llm = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const real = dialect === 'postgres' ? 'double precision' : 'real';
    await db.schema
      .createTable('llm_events')
      .$call(projectId)
      .$call(required({ uuid: 'text', kind: 'text', trace_id: 'text' }))
      .addColumn('span_id', 'text')
      .addColumn('parent_id', 'text')
      .addColumn('name', 'text')
      .addColumn('model', 'text')
      .addColumn('provider', 'text')
      .addColumn('input_tokens', 'bigint')
      .addColumn('output_tokens', 'bigint')
      .addColumn('cache_read_tokens', 'bigint')
      .addColumn('cache_creation_tokens', 'bigint')
      .addColumn('reasoning_tokens', 'bigint')
      .addColumn('input_cost_usd', real)
      .addColumn('output_cost_usd', real)
      .addColumn('total_cost_usd', real)
      // Seconds, as the SDKs send them.
      .addColumn('latency', real)
      .addColumn('time_to_first_token', real)
      .addColumn('http_status', 'integer')
      .$call(required({ is_error: 'integer' }))
      .addColumn('error', 'text')
      .$call(required({ distinct_id: 'text' }))
      .addColumn('person_uuid', 'text')
      .addColumn('session_id', 'text')
      // JSON object of the event's `$feature/<flag>` properties (flag key → variant), null when it had none.
      .addColumn('flags', 'text')
      .$call(required({ timestamp: 'text', created_at: 'text' }))
      .addPrimaryKeyConstraint('llm_events_pk', ['project_id', 'uuid'])
      .execute();
    await db.schema.createIndex('llm_events_time').on('llm_events').columns(['project_id', 'timestamp']).execute();
    await db.schema.createIndex('llm_events_trace').on('llm_events').columns(['project_id', 'trace_id']).execute();

    await db.schema
      .createTable('llm_prices')
      .addColumn('project_id', 'integer', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
      // JSON list of `{provider, model, input, output, cache_read, cache_write}` (USD per million tokens).
      .$call(required({ prices: 'text', updated_at: 'text' }))
      .execute();
  },
});
