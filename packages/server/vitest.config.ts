import { defineConfig } from 'vitest/config';

// The suite runs on SQLite, and again on PostgreSQL when TEST_DATABASE_URL is set. Service processes start from a
// build of the sources made first (see @service/test-support/start-from-build). On SQLite the files of a worker share
// its loaded modules (isolate: false): loading the server's modules anew for each file was about half the suite's CPU
// time, and each file makes its own services and database anyway.
const postgres = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    globalSetup: ['@service/test-support/start-from-build'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true as const, test: { name: 'sqlite', isolate: false, env: { TEST_DATABASE_URL: '' } } },
      ...(postgres ? [{ extends: true as const, test: { name: 'postgres', env: { TEST_DATABASE_URL: postgres } } }] : []),
    ],
  },
});
