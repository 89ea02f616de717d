import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import { NotFoundError } from '../errors';

/**
 * The paths of the web app's pages (its client routes): each answers index.html, and the app's router takes it from there.
 * Everything else (`/api/`, the SDK routes, `/static/`, `/_health`) stays the API's; an unknown path is the API's 404.
 */
export const WEB_APP_PAGES = [
  '/',
  '/login',
  '/signup',
  '/invite/:token',
  '/reset-password/:token',
  '/project/:project_id',
  '/project/:project_id/:page',
  '/project/:project_id/:page/:item',
  '/project/:project_id/:page/:item/:tab',
] as const;

/** A hashed build file: `<name>-<hash>.<ext>`, never a path (no slash, no leading dot). */
const ASSET = /^[\w-]+(?:\.[\w-]+)*\.(js|css|svg|png|woff2|ico|json)$/;

/** Types the build also writes gzipped (`<file>.gz`). */
const GZIPPED = new Set(['js', 'css', 'svg', 'json']);

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
  ico: 'image/x-icon',
  json: 'application/json; charset=utf-8',
};

/**
 * Content-Security-Policy of the app's pages: scripts only from the service's own files (no inline script, no eval),
 * requests to the service only. Styles allow `'unsafe-inline'` because the component library writes its theme
 * variables into a `<style>` element at run time; nothing a user types is ever written as a style.
 */
export const WEB_APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // Replays draw customers' pages in an iframe that inherits this policy: their images and fonts live on their hosts.
  "img-src 'self' data: blob: https:",
  "font-src 'self' data: https:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** True for a route (as `servedRoutes` in the tests prints it, `get /path`) that belongs to the web app, not the API. */
export function isWebAppRoute(route: string): boolean {
  const [method, url] = route.split(' ') as [string, string];
  if (method !== 'get' && method !== 'head') return false;
  return url === '/assets/{file}' || WEB_APP_PAGES.some((page) => page.replace(/:(\w+)/g, '{$1}') === url);
}

/**
 * The folder of the built web app (`index.html` and `assets/`): `web-dist/` of the server package, where the web
 * workspace's `vite build` writes it. From the sources that is two folders up from this file; from the bundled
 * `dist/main.js` of the installed package, one.
 */
export function webAppDir(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return [path.resolve(here, '../../web-dist'), path.resolve(here, '../web-dist')].find((dir) => fs.existsSync(path.join(dir, 'index.html')));
}

/**
 * The web app: its pages answer index.html (never cached, so a new release is picked up at once, with the app's
 * CSP), and `/assets/<hashed name>` its build files, cached for a year (a file's name changes with its content).
 * Without a build the pages answer 404 with a hint; the API is the same either way.
 */
export const webRoutes: FastifyPluginAsync<{ dir?: string }> = async (app, { dir = webAppDir() }) => {
  for (const url of WEB_APP_PAGES) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) => {
      const html = dir ? await readFile(path.join(dir, 'index.html')).catch(() => undefined) : undefined;
      if (!html) throw new NotFoundError('The web app is not built: run `npm run build -w @service/web`.');
      return reply
        .headers({
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-cache',
          'content-security-policy': WEB_APP_CSP,
        })
        .send(html);
    });
  }

  app.get<{ Params: { file: string } }>('/assets/:file', { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params;
    const type = ASSET.exec(file)?.[1];
    if (!dir || !type) throw new NotFoundError('No such file.');
    const headers = { 'content-type': TYPES[type]!, 'cache-control': 'public, max-age=31536000, immutable', vary: 'accept-encoding' };
    // The build writes a gzipped twin of each script and style sheet; a client that takes gzip gets it.
    if (GZIPPED.has(type) && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
      const gzipped = await readFile(path.join(dir, 'assets', `${file}.gz`)).catch(() => undefined);
      if (gzipped) return reply.headers({ ...headers, 'content-encoding': 'gzip' }).send(gzipped);
    }
    const body = await readFile(path.join(dir, 'assets', file)).catch(() => undefined);
    if (!body) throw new NotFoundError('No such file.');
    return reply.headers(headers).send(body);
  });
};
