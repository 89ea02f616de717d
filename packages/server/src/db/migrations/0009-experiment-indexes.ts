import type { Kysely } from 'kysely';

/**
 * Experiment results read one event name over a time range: the exposures (`$feature_flag_called`) and
 * each metric's event. Without this index they scan every event of the project in the range.
 */
export const experimentIndexes = () => ({
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('events_project_event_time').on('events').columns(['project_id', 'event', 'timestamp']).execute();
  },
});
