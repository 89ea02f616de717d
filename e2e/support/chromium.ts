// The Chromium the browser tests drive (Debian's, never a downloaded one). Run as a script (`npm test`'s pretest)
// it makes sure Chromium is there before any test starts.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The first `command` on PATH, if any. */
const onPath = (command: string) =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, command))
    .find((file) => existsSync(file));

/** CHROMIUM_PATH when set, else `chromium` on PATH (Debian's `/usr/bin/chromium`); undefined when there is none. */
export const chromiumPath = (): string | undefined => process.env.CHROMIUM_PATH || onPath('chromium');

function fail(line: string): never {
  console.error(`error: ${line}`);
  process.exit(1);
}

/**
 * Installs Debian's Chromium when it is missing and this user may (root, with apt-get, no CHROMIUM_PATH given);
 * otherwise, when it is missing, stops with exit code 1 and one line saying what to run.
 */
function ensureChromium() {
  const path = chromiumPath();
  if (path && existsSync(path)) return;
  if (process.env.CHROMIUM_PATH)
    fail(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist; point it at a Chromium binary, or unset it to use chromium on PATH.`);
  const aptGet = onPath('apt-get');
  if (!aptGet) fail('the browser tests need Chromium and there is no chromium on PATH; install it, or set CHROMIUM_PATH to a Chromium binary.');
  if (process.getuid?.() !== 0) fail('the browser tests need Chromium; install it with: sudo apt-get update && sudo apt-get install -y chromium');
  console.log('The browser tests need Chromium: apt-get install -y chromium');
  try {
    execFileSync(aptGet, ['update'], { stdio: 'inherit' });
    execFileSync(aptGet, ['install', '-y', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } catch {
    fail('installing Chromium failed (see above); run: apt-get update && apt-get install -y chromium');
  }
  if (!chromiumPath()) fail('apt-get installed no chromium on PATH; install Chromium, or set CHROMIUM_PATH to a Chromium binary.');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) ensureChromium();
