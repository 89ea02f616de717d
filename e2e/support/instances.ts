import { postgresSchema } from '@service/test-support';
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
  const { env, drop } = postgresSchema(url);
  const a = await startService(env);
  const b = await startService(env).catch(async (e) => {
    await a.stop();
    await drop();
    throw e;
  });
  return {
    a,
    b,
    database: 'postgres',
    async stop() {
      await Promise.all([a.stop(), b.stop()]);
      await drop();
    },
  };
}
