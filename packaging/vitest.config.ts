import { defineConfig } from 'vitest/config';

// One file: packing and installing take a minute or two, once, in beforeAll.
export default defineConfig({
  test: { testTimeout: 30_000, hookTimeout: 300_000 },
});
