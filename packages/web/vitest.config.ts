import { defineConfig } from 'vitest/config';

// Component tests: the app's components in jsdom, with the real Mantine, TanStack Query and Router around them.
export default defineConfig({
  test: {
    environment: 'jsdom',
    include: ['test/**/*.test.tsx'],
    setupFiles: ['test/setup.ts'],
    // jsdom renders Mantine slowly on a busy machine (2 cores shared by several suites).
    testTimeout: 20_000,
  },
});
