import { defineConfig } from 'vitest/config';
import { alias } from './vite.config';

// The app's own logic: pure functions (`*.test.ts`) and components in jsdom with the real Mantine, TanStack Query and
// Router around them (`*.test.tsx`); its pages are driven in Chromium by the browser tests (e2e/).
export default defineConfig({
  resolve: { alias },
  test: {
    environment: 'jsdom',
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    setupFiles: ['test/setup.ts'],
    // jsdom renders Mantine slowly on a busy machine (2 cores shared by several suites).
    testTimeout: 20_000,
  },
});
