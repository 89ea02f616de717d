import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required } from './columns';

/** webhooks and their delivery outbox. */
export const webhooks = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    void dialect;
    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .$call(projectId)
      .$call(required({ url: 'text', secret: 'text', kinds: 'text', enabled: 'integer', created_at: 'text', updated_at: 'text' }))
      .execute();
    await db.schema.createIndex('webhooks_project').on('webhooks').columns(['project_id', 'created_at', 'id']).execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .$call(projectId)
      .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .$call(required({ kind: 'text', payload: 'text', status: 'text', attempts: 'integer', next_attempt_at: 'text' }))
      .addColumn('locked_until', 'text')
      .addColumn('last_response_code', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('delivered_at', 'text')
      .execute();
    // What the worker claims: pending deliveries that are due.
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    // A webhook's deliveries, newest first.
    await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'created_at', 'id']).execute();
  },
});
