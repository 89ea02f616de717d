import { defineConfig } from 'tsup';
import { bundledEngine } from '../flag-engine/bundling';

// The service as installed from npm: one ES module run by bin/service.js, with the private flag engine and
// the migrations bundled in; the runtime dependencies (fastify, kysely, better-sqlite3, pg ...) stay imports.
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  clean: true,
  target: 'node20',
  platform: 'node',
  noExternal: bundledEngine(new URL('./package.json', import.meta.url)),
});
