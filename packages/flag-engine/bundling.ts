import { readFileSync } from 'node:fs';

type Manifest = { dependencies?: Record<string, string> };
const manifest = (url: URL): Manifest => JSON.parse(readFileSync(url, 'utf8'));

/**
 * For the tsup config of a published package that bundles this private engine (`noExternal`): the engine's
 * own runtime dependencies must be dependencies of that package, so they stay external and get installed.
 */
export function bundledEngine(packageJson: URL): string[] {
  const deps = manifest(packageJson).dependencies ?? {};
  const missing = Object.keys(manifest(new URL('./package.json', import.meta.url)).dependencies ?? {}).filter((dep) => !(dep in deps));
  if (missing.length) throw new Error(`${packageJson.pathname}: add the flag engine's dependencies: ${missing.join(', ')}`);
  return ['@service/flag-engine'];
}
