import { defineConfig } from 'tsup';
import { bundledEngine } from '../flag-engine/bundling';

// service-node as installed from npm: ESM and CJS with their types, the private flag engine bundled in.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  noExternal: bundledEngine(new URL('./package.json', import.meta.url)),
});
