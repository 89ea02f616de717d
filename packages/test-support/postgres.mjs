// A fresh PostgreSQL schema for service processes of a test (several instances on one database). Types in postgres.d.mts.
import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * A schema name of its own on the database at `databaseUrl` (the service creates it as it starts): `env` is what a
 * `service start` on it takes, `drop()` removes the schema and all it holds.
 */
export function postgresSchema(databaseUrl) {
  const schema = `test_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  return {
    schema,
    env: { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema },
    async drop() {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
