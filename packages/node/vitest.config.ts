import { defineConfig } from 'vitest/config';

// The tests start the service in child processes (see test/service.ts).
export default defineConfig({
  test: { testTimeout: 30_000, hookTimeout: 30_000 },
});
