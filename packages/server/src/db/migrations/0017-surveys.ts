import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required, serialId } from './columns';

/**
 * Surveys: their definitions (questions, appearance and conditions as JSON text, in the shape posthog-js reads),
 * the two flags the service makes for each (marked on the flag by `survey_id`, so the flags list can leave them
 * out), every survey event stored (shown, dismissed, sent, abandoned: what the counts are made of) and one response
 * per submission, partial answers merged. Events and responses name their survey by id without a foreign key, as
 * event rows do: a response to an unknown or deleted survey is kept.
 */
export const surveys = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('surveys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .$call(projectId)
      .$call(required({ name: 'text', description: 'text', type: 'text', questions: 'text', schedule: 'text' }))
      .addColumn('appearance', 'text')
      .addColumn('conditions', 'text')
      .addColumn('linked_flag_key', 'text')
      .addColumn('targeting_flag_id', 'integer', (c) => c.references('feature_flags.id'))
      .addColumn('internal_targeting_flag_id', 'integer', (c) => c.references('feature_flags.id'))
      .addColumn('linked_early_access_feature_id', 'text', (c) => c.references('early_access_features.id').onDelete('set null'))
      .addColumn('start_date', 'text')
      .addColumn('end_date', 'text')
      .addColumn('responses_limit', 'integer')
      .addColumn('iteration_count', 'integer')
      .addColumn('iteration_frequency_days', 'integer')
      .addColumn('current_iteration', 'integer')
      .addColumn('current_iteration_start_date', 'text')
      .$call(required({ enable_partial_responses: 'integer', archived: 'integer' }))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .$call(required({ created_at: 'text', updated_at: 'text' }))
      .execute();
    await db.schema.createIndex('surveys_project').on('surveys').columns(['project_id', 'created_at', 'id']).execute();
    await db.schema.alterTable('feature_flags').addColumn('survey_id', 'text').execute();

    await db.schema
      .createTable('survey_events')
      .$call(serialId(dialect, 'bigserial'))
      .$call(projectId)
      // shown | dismissed | sent | abandoned
      .$call(required({ survey_id: 'text', kind: 'text', event_uuid: 'text', distinct_id: 'text', timestamp: 'text' }))
      .addColumn('person_id', 'integer')
      .addColumn('submission_id', 'text')
      .addColumn('iteration', 'integer')
      // JSON object of the event's flag values ($feature/<key> → value), for results by variant.
      .addColumn('flags', 'text')
      .execute();
    await db.schema.createIndex('survey_events_survey').on('survey_events').columns(['project_id', 'survey_id', 'timestamp']).execute();

    await db.schema
      .createTable('survey_responses')
      .$call(serialId(dialect, 'bigserial'))
      .$call(projectId)
      .$call(required({ survey_id: 'text', submission_id: 'text', distinct_id: 'text' }))
      .addColumn('person_id', 'integer')
      .addColumn('iteration', 'integer')
      // JSON object: question id → the latest answer of this submission.
      .$call(required({ answers: 'text', completed: 'integer', late: 'integer', first_at: 'text', last_at: 'text' }))
      .addColumn('flags', 'text')
      .execute();
    await db.schema.createIndex('survey_responses_submission').on('survey_responses').columns(['project_id', 'survey_id', 'submission_id']).unique().execute();
    await db.schema.createIndex('survey_responses_survey').on('survey_responses').columns(['project_id', 'survey_id', 'last_at']).execute();
  },
});
