import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startService, type Service } from './service';

/** The second instance: where the browser goes (the project, its token and the API are `a`'s). */
export type Instance = Pick<Service, 'url' | 'output'>;

/**
 * Two instances of the service on one database, as a deployment behind a load balancer runs them: on PostgreSQL
 * (`TEST_DATABASE_URL`, a fresh schema dropped by `stop`), started one after the other (the first migrates and prints
 * the project's token and key); without PostgreSQL, one instance on SQLite plays both (`b` is `a`).
 */
export async function startInstances(): Promise<{ a: Service; b: Instance; database: 'postgres' | 'sqlite'; stop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const a = await startService();
    return { a, b: a, database: 'sqlite', stop: () => a.stop() };
  }
  const schema = `e2e_${randomBytes(6).toString('hex')}`;
  const env = { DATABASE_URL: url, DATABASE_SCHEMA: schema };
  const a = await startService(env);
  const b = await startService(env).catch(async (e) => {
    await a.stop();
    throw e;
  });
  return {
    a,
    b,
    database: 'postgres',
    async stop() {
      await Promise.all([a.stop(), b.stop()]);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}
