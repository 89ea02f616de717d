import { defineConfig } from 'tsup';
import { bundledEngine } from '../flag-engine/bundling';

// service-node as installed from npm: ESM and CJS with their types, the private flag engine bundled in. The LLM
// SDKs the `ai` entry wraps are peers, never bundled: it only touches the client objects it is given.
export default defineConfig({
  entry: { index: 'src/index.ts', ai: 'src/ai/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  noExternal: bundledEngine(new URL('./package.json', import.meta.url)),
});
