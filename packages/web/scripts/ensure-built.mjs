// Builds the web app when packages/server/web-dist is missing or older than the app's sources (run by the root
// `npm start`, so `npm install && npm start` serves a current app). Quick when nothing changed: it only compares times.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = fileURLToPath(new URL('..', import.meta.url));
const built = path.join(web, '..', 'server', 'web-dist', 'index.html');

function newest(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

const sources = Math.max(...['src', 'index.html', 'vite.config.ts', 'package.json'].map((name) => newest(path.join(web, name))));
const output = fs.statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;
// A build made under NODE_ENV=development or test (say, by a test runner) ships React's development build: some
// 60 KB more gzip and slower; it is rebuilt too.
const development = output > 0 && fs.readFileSync(built, 'utf8').includes('jsx-dev-runtime');
if (output >= sources && !development) process.exit(0);

console.log(output ? 'The web app changed: building it…' : 'Building the web app (once)…');
const started = Date.now();
const result = spawnSync(
  process.execPath,
  [path.join(path.dirname(fileURLToPath(import.meta.resolve('vite/package.json'))), 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
  {
    cwd: web,
    stdio: 'inherit',
    // Always the production build, whatever NODE_ENV the caller runs under (vitest sets `test`).
    // eslint-disable-next-line no-restricted-syntax -- the child's environment, not configuration of the service
    env: { ...process.env, NODE_ENV: 'production' },
  },
);
if (result.status !== 0) {
  console.error('Building the web app failed; the service starts without it (the API works).');
  process.exit(0);
}
console.log(`Built the web app in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
