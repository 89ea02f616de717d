import { build } from 'esbuild';

/**
 * Bundles a page's script (`source`, an ES module importing installed packages: service-js, React, the OpenFeature
 * SDKs) with esbuild into one classic script, as an app's bundler would for production.
 */
export async function bundlePage(source: string): Promise<string> {
  const out = await build({
    stdin: { contents: source, resolveDir: import.meta.dirname, loader: 'tsx' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}
