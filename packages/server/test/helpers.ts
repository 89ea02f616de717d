import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp, type AppConfig } from '../src/app';
import { bootstrap } from '../src/bootstrap';
import { openDatabase } from '../src/db/database';
import type { ServicesConfig } from '../src/module';
import { createServices } from '../src/services';
import { spawnService } from '@service/test-support';

export { freePort, serviceBin } from '@service/test-support';

export const dialect = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

/** Where a test database lives: a fresh SQLite folder, or a fresh PostgreSQL schema. */
export interface TestStorage {
  databaseUrl: string | undefined;
  databaseSchema: string | undefined;
  dataDir: string;
  drop(): Promise<void>;
}

export function testStorage(): TestStorage {
  const databaseUrl = process.env.TEST_DATABASE_URL || undefined;
  const databaseSchema = databaseUrl ? `test_${randomUUID().replaceAll('-', '').slice(0, 20)}` : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'service-test-'));
  return {
    databaseUrl,
    databaseSchema,
    dataDir,
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (!databaseUrl) return;
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${databaseSchema} CASCADE`);
      await client.end();
    },
  };
}

export const testConfig: AppConfig = {
  logLevel: 'silent',
  bodyLimit: 1024 * 1024,
  apiRateLimitPerMinute: 100_000,
  trustProxy: false,
  sdkBodyLimit: 2 * 1024 * 1024,
  publicRateLimitPerMinute: 100_000,
  authFailureLimitPerMinute: 100_000,
  captureBatchBodyLimit: 20 * 1024 * 1024,
  ingestMaxPendingEvents: 100_000,
  sdkMaxConcurrentLargeBodies: 4,
  eventMaxBytes: 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
  connectionTimeoutMs: 60_000,
};

/** A service on a fresh database with a project and a `*` key, reached through app.inject. */
export async function startService(config: Partial<AppConfig & ServicesConfig> = {}, storage = testStorage()) {
  const db = await openDatabase(storage);
  const appConfig = { ...testConfig, ...config };
  const services = createServices(db, appConfig);
  const app = await buildApp(appConfig, services);
  const boot = await bootstrap(services, 'test');
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  return {
    app,
    services,
    storage,
    projectId: boot.project_id,
    token: boot.project_token,
    key: boot.personal_api_key,
    headers: auth(boot.personal_api_key),
    auth,
    /** A key with these scopes, optionally limited to some projects. */
    async keyWith(scopes: string[], projectIds: number[] | null = null) {
      return (await services.keys.create({ label: 'test', scopes, projectIds })).secret;
    },
    async close({ keepData = false } = {}) {
      await app.close();
      await db.close();
      if (!keepData) await storage.drop();
    },
  };
}

export type TestService = Awaited<ReturnType<typeof startService>>;

/** The environment of a service process on the test's database. */
export function serviceEnv(storage: TestStorage, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: storage.dataDir, LOG_LEVEL: 'warn', ...extra };
  delete env.DATABASE_URL;
  delete env.DATABASE_SCHEMA;
  if (storage.databaseUrl) Object.assign(env, { DATABASE_URL: storage.databaseUrl, DATABASE_SCHEMA: storage.databaseSchema });
  return env;
}

/** `service start` in a child process on the test's database; resolves once it listens. */
export const startServiceProcess = (storage: TestStorage) => spawnService(serviceEnv(storage));

/** The uuids among `uuids` with no stored event, read straight from the test's database (a service may be stopped). */
export async function unstoredEvents(storage: TestStorage, uuids: string[]): Promise<string[]> {
  const db = await openDatabase(storage);
  try {
    const stored = new Set<string>();
    for (let i = 0; i < uuids.length; i += 500) {
      const rows = await db.kysely
        .selectFrom('events')
        .select('uuid')
        .where('uuid', 'in', uuids.slice(i, i + 500))
        .execute();
      for (const row of rows) stored.add(row.uuid);
    }
    return uuids.filter((uuid) => !stored.has(uuid));
  } finally {
    await db.close();
  }
}

/** Every route an app serves, as `method /path/{param}` (method in lower case, HEAD and OPTIONS too), read from Fastify's route tree. */
export function servedRoutes(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const path = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of match[3]!.split(', ')) routes.push(`${method.toLowerCase()} ${path}`);
  }
  return routes;
}
