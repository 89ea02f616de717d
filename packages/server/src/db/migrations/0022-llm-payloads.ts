import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required } from './columns';

/**
 * LLM inputs and outputs stored once: a large value of an LLM event's `$ai_input`, `$ai_output_choices`, `$ai_output`,
 * `$ai_input_state`, `$ai_output_state` or `$ai_tools` (or a large message of one of those lists: a system prompt, a
 * tool list, the history an agent sends again with every call) is kept once per project and distinct JSON, by its
 * hash, in `llm_payloads`. The event's properties hold the hash in its place; `llm_payloads` on the event names the
 * places (`[property, index in its list or null, hash]`, JSON) and `llm_payload_bytes` what they add when put back.
 * Events stored before keep their values inside their properties (both columns null): both read back alike
 * (`events/store.ts`). On PostgreSQL the table has no foreign key, as the other rows every event writes (0014).
 */
export const llmPayloads = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('llm_payloads')
      .$call((table) => (dialect === 'postgres' ? table.addColumn('project_id', 'integer', (c) => c.notNull()) : projectId(table)))
      .$call(required({ hash: 'text', payload: 'text', created_at: 'text' }))
      .addPrimaryKeyConstraint('llm_payloads_pk', ['project_id', 'hash'])
      .execute();
    await db.schema.alterTable('events').addColumn('llm_payloads', 'text').execute();
    await db.schema.alterTable('events').addColumn('llm_payload_bytes', 'bigint').execute();
  },
});
