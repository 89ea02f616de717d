import { defineConfig } from 'vitest/config';

// Each file starts its own service (from a build of its sources made first), static server and Chromium; files run in
// parallel.
export default defineConfig({
  test: {
    globalSetup: ['@service/test-support/start-from-build'],
    environment: 'node',
    include: ['*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    teardownTimeout: 15_000,
  },
});
