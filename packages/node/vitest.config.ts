import { defineConfig } from 'vitest/config';

// The tests start the service in child processes (see test/service.ts), from a build of its sources made first.
export default defineConfig({
  test: { globalSetup: ['@service/test-support/start-from-build'], testTimeout: 30_000, hookTimeout: 30_000 },
});
