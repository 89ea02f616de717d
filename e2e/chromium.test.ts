import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, 'support/chromium.ts');
const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** An empty folder to be the whole PATH: no chromium, no apt-get. */
function emptyFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-path-'));
  folders.push(dir);
  return dir;
}

/** The pretest check (`support/chromium.ts`) with this environment: its exit code and output. */
async function check(env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!('CHROMIUM_PATH' in env)) delete childEnv.CHROMIUM_PATH;
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { env: childEnv, cwd: import.meta.dirname });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe("the browser tests' pretest (README's test command on a fresh machine)", () => {
  it('passes silently when Chromium is there', async () => {
    expect(await check({ CHROMIUM_PATH: process.execPath })).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('stops with one line when CHROMIUM_PATH names nothing', async () => {
    const result = await check({ CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: CHROMIUM_PATH=\/nonexistent\/chromium does not exist; /)]);
  });

  it('stops with one line saying what to install when Chromium is missing and apt-get is not there', async () => {
    const result = await check({ PATH: emptyFolder() });
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: the browser tests need Chromium .*CHROMIUM_PATH/)]);
  });

  it('installs Chromium with apt-get when it is missing and the user may, else says the command to run', async () => {
    const bin = emptyFolder();
    // Stands in for Debian's apt-get: records its arguments; `install` puts a chromium on PATH.
    writeFileSync(
      join(bin, 'apt-get'),
      '#!/bin/sh\necho "$*" >> "${0%/*}/apt-get.log"\n[ "$1" = install ] && echo "#!/bin/sh" > "${0%/*}/chromium"\nexit 0\n',
      { mode: 0o755 },
    );
    const result = await check({ PATH: bin });
    if (process.getuid?.() === 0) {
      expect(result.code, result.stderr).toBe(0);
      expect(readFileSync(join(bin, 'apt-get.log'), 'utf8')).toBe('update\ninstall -y chromium\n');
    } else {
      expect(result.code).toBe(1);
      expect(result.stderr.trimEnd().split('\n')).toEqual([
        'error: the browser tests need Chromium; install it with: sudo apt-get update && sudo apt-get install -y chromium',
      ]);
    }
  });
});
