import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required } from './columns';

/**
 * Session replay. A project's recording settings (off until turned on); one row per recorded session, its metadata
 * kept current at ingest (what the recordings list filters on); the URLs each visited; the session's rrweb events as
 * compressed blocks, each a batch as it arrived, whose bytes live in a blob store (`replay_blobs` in the database by
 * default, or files in REPLAY_STORAGE_DIR) under `blob_key`; and the ids of the batches stored, so a batch sent
 * twice is kept once. Events name their session (`events.session_id`, from `$session_id`) so a replay's timeline
 * reads them by index. Sessions, blocks and URLs name no person by foreign key, as event rows do.
 */
export const sessionReplay = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const blob = dialect === 'postgres' ? 'bytea' : 'blob';
    await db.schema
      .createTable('replay_settings')
      .addColumn('project_id', 'integer', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
      // `enabled` 0/1; `config`: the JSON of the settings (sample rate, minimum duration, linked flag, masking, …).
      .$call(required({ enabled: 'integer', config: 'text', updated_at: 'text' }))
      .execute();

    await db.schema
      .createTable('replay_sessions')
      .$call(projectId)
      .$call(required({ session_id: 'text', distinct_id: 'text' }))
      .addColumn('person_id', 'bigint')
      // Times as ISO 8601 UTC; null until the first snapshot arrives (an exception may name the session first).
      .addColumn('start_time', 'text')
      .addColumn('end_time', 'text')
      .addColumn('start_url', 'text')
      .$call(
        required({
          active_ms: 'bigint',
          click_count: 'integer',
          keypress_count: 'integer',
          console_log_count: 'integer',
          console_warn_count: 'integer',
          console_error_count: 'integer',
          exception_count: 'integer',
          event_count: 'bigint',
          // Events whose per-event compressed field could not be decoded: skipped, counted.
          skipped_count: 'integer',
          block_count: 'integer',
          size_bytes: 'bigint',
          created_at: 'text',
          updated_at: 'text',
        }),
      )
      .addPrimaryKeyConstraint('replay_sessions_pk', ['project_id', 'session_id'])
      .execute();
    await db.schema.createIndex('replay_sessions_start').on('replay_sessions').columns(['project_id', 'start_time']).execute();
    await db.schema.createIndex('replay_sessions_person').on('replay_sessions').columns(['project_id', 'person_id']).execute();
    await db.schema.createIndex('replay_sessions_end').on('replay_sessions').columns(['end_time']).execute();

    await db.schema
      .createTable('replay_session_urls')
      .$call(projectId)
      .$call(required({ session_id: 'text', url: 'text' }))
      .addPrimaryKeyConstraint('replay_session_urls_pk', ['project_id', 'session_id', 'url'])
      .execute();

    await db.schema
      .createTable('replay_blocks')
      .$call(projectId)
      .$call(required({ session_id: 'text', seq: 'integer', window_id: 'text' }))
      // The block's first and last rrweb event times, in milliseconds since the epoch.
      .$call(required({ first_ts: 'bigint', last_ts: 'bigint', event_count: 'integer', size_bytes: 'integer', blob_key: 'text', created_at: 'text' }))
      .addPrimaryKeyConstraint('replay_blocks_pk', ['project_id', 'session_id', 'seq'])
      .execute();
    await db.schema.createIndex('replay_blocks_order').on('replay_blocks').columns(['project_id', 'session_id', 'first_ts']).execute();

    await db.schema
      .createTable('replay_batches')
      .$call(projectId)
      .$call(required({ session_id: 'text', batch_id: 'text', created_at: 'text' }))
      .addPrimaryKeyConstraint('replay_batches_pk', ['project_id', 'session_id', 'batch_id'])
      .execute();

    await db.schema
      .createTable('replay_blobs')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('bytes', blob, (c) => c.notNull())
      .$call(required({ created_at: 'text' }))
      .execute();

    await db.schema.alterTable('events').addColumn('session_id', 'text').execute();
    await db.schema.createIndex('events_session').on('events').columns(['project_id', 'session_id', 'timestamp']).where('session_id', 'is not', null).execute();
  },
});
