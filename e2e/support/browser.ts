import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach } from 'vitest';
import { chromiumPath } from './chromium';

/**
 * Debian's Chromium (never a downloaded one; `chromiumPath`), headless. Playwright gives it a fresh temporary
 * `--user-data-dir` (deleted on close); each test opens its own context (own storage).
 */
export function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no Chromium: run `npm test -w e2e`, whose pretest installs it or says how');
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    timeout: 30_000,
  });
}

/**
 * One Chromium for a test file, a fresh context (own storage: a new visitor) for each page, closed after
 * each test; after the file, the browser and whatever `cleanup` was given (in reverse order).
 */
export function chromiumPerFile() {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  const cleanups: (() => unknown)[] = [];
  const closeContext = async () => {
    await context?.close();
    context = undefined;
  };
  afterEach(closeContext);
  afterAll(async () => {
    await browser?.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return {
    cleanup(fn: () => unknown) {
      cleanups.push(fn);
    },
    /** A page in a new context (the previous one is closed). */
    async newPage(): Promise<Page> {
      await closeContext();
      browser ??= await launchChromium();
      context = await browser.newContext();
      context.setDefaultTimeout(10_000);
      return context.newPage();
    },
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** A tiny static server: files of `dir`, extra in-memory `pages`, and index.html for other paths (SPA). */
export async function serveStatic(dir: string, pages: Record<string, string> = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (pages[path] != null) {
      res.writeHead(200, { 'Content-Type': TYPES[extname(path) || '.html'] ?? TYPES['.html'], 'Cache-Control': 'no-store' });
      return void res.end(pages[path]);
    }
    let file = normalize(join(dir, path));
    if (!file.startsWith(normalize(dir)) || !existsSync(file) || statSync(file).isDirectory()) file = join(dir, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404);
      return void res.end();
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
