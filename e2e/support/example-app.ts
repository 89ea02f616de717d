import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { root } from './service';

/**
 * Builds examples/react-app with its own Vite (`vite build`), configured like a user would through
 * APP_PUBLIC_SERVICE_KEY / APP_PUBLIC_SERVICE_HOST, into a temporary folder; returns that folder.
 * It bundles the built `service-js` package (dist/), as an installed package would be. APP_PUBLIC_RELEASE, when
 * given, is the build's release id (sent as `$release`); the build writes hidden source maps (`*.js.map`) beside the
 * scripts.
 */
export async function buildExampleApp(env: { APP_PUBLIC_SERVICE_KEY: string; APP_PUBLIC_SERVICE_HOST: string; APP_PUBLIC_RELEASE?: string }): Promise<string> {
  const appDir = join(root, 'examples', 'react-app');
  const outDir = mkdtempSync(join(tmpdir(), 'example-react-app-'));
  const vite = join(dirname(createRequire(join(appDir, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  let out = '';
  const child = spawn(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: appDir,
    // A production build, as `npm run build` makes it: not with the NODE_ENV=test vitest sets (React's development build).
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  if (code !== 0) throw new Error(`vite build of examples/react-app failed (${code}):\n${out}`);
  return outDir;
}
