import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required, serialId } from './columns';

/**
 * LLM prompts, as `@posthog/ai`'s `Prompts` reads them: a prompt is a name in a project; each edit is a new numbered
 * version (never changed once stored, so a version a client pinned stays what it was); labels such as `production`
 * name one version each and move between versions, which is how a prompt change ships.
 */
export const llmPrompts = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('llm_prompts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .$call(projectId)
      .$call(required({ name: 'text', latest_version: 'integer' }))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .$call(required({ created_at: 'text', updated_at: 'text' }))
      .execute();
    await db.schema.createIndex('llm_prompts_name').on('llm_prompts').columns(['project_id', 'name']).unique().execute();

    await db.schema
      .createTable('llm_prompt_versions')
      .$call(serialId(dialect, 'serial'))
      .$call(projectId)
      .addColumn('prompt_id', 'text', (c) => c.notNull().references('llm_prompts.id').onDelete('cascade'))
      .$call(required({ version: 'integer', prompt: 'text' }))
      // JSON object (model, temperature, …) or null.
      .addColumn('config', 'text')
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .$call(required({ created_at: 'text' }))
      .execute();
    await db.schema.createIndex('llm_prompt_versions_version').on('llm_prompt_versions').columns(['prompt_id', 'version']).unique().execute();

    await db.schema
      .createTable('llm_prompt_labels')
      .addColumn('prompt_id', 'text', (c) => c.notNull().references('llm_prompts.id').onDelete('cascade'))
      .$call(required({ label: 'text', version: 'integer', updated_at: 'text' }))
      .addPrimaryKeyConstraint('llm_prompt_labels_pk', ['prompt_id', 'label'])
      .execute();
  },
});
