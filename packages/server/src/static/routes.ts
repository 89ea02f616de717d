import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { NotFoundError } from '../errors';

/** A file this route serves: `<name>.<version>.js`, so never a path (no slash, no leading dot). */
const FILE = /^[a-z][a-z0-9-]*\.[\w.-]+\.js$/;

/** Cached for a year and never revalidated: a file's name changes with its content (the version is in it). */
const HEADERS = {
  'content-type': 'text/javascript; charset=utf-8',
  'cache-control': 'public, max-age=31536000, immutable',
  // Loaded by `<script>` tags on the sites that use service-js, so readable from any origin.
  'cross-origin-resource-policy': 'cross-origin',
  'access-control-allow-origin': '*',
};

/** dist/static/ of the installed service-js package: the lazy extensions of its script-tag build. */
export function serviceJsStaticDir(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('@flagstation/service-js/package.json');
    return path.join(path.dirname(manifest), 'dist', 'static');
  } catch {
    return undefined;
  }
}

/**
 * `GET /static/<name>.<version>.js`: the lazily loaded extensions of service-js's script-tag build (for
 * example `exceptions.0.1.0.js`), which it fetches from `<api_host>/static/`. Read from `dir` (by default
 * the installed service-js package); any other name is a 404.
 */
export const staticRoutes: FastifyPluginAsync<{ dir?: string }> = async (app, { dir = serviceJsStaticDir() }) => {
  app.get<{ Params: { file: string } }>('/static/:file', { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params;
    const script = dir && FILE.test(file) ? await readFile(path.join(dir, file)).catch(() => undefined) : undefined;
    if (!script) throw new NotFoundError('No such file.');
    return reply.headers(HEADERS).send(script);
  });
};
