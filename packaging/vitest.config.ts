import { defineConfig } from 'vitest/config';

// Packing and installing take a minute or two, once, in beforeAll of tarball.test.ts (several on a busy machine).
export default defineConfig({
  test: { testTimeout: 30_000, hookTimeout: 600_000 },
});
