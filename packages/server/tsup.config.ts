import { defineConfig } from 'tsup';
import { bundledEngine } from '../flag-engine/bundling';

// The service as installed from npm: the ES module run by bin/service.js, with the private flag engine and
// the migrations bundled in; the runtime dependencies (fastify, kysely, better-sqlite3, pg ...) stay imports. The
// source map worker thread's module is an entry of its own beside it (src/error-tracking/sourcemaps/pool.ts loads it).
export default defineConfig({
  entry: { main: 'src/main.ts', 'sourcemap-worker': 'src/error-tracking/sourcemaps/worker.ts' },
  format: ['esm'],
  clean: true,
  target: 'node20',
  platform: 'node',
  noExternal: bundledEngine(new URL('./package.json', import.meta.url)),
  // Only the sources bundle the worker with esbuild (src/error-tracking/sourcemaps/pool.ts); the build never loads it.
  external: ['esbuild'],
});
