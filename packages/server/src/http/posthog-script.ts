import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../errors';

/** One of posthog-js's own bundles as served: its name in `dist/`, bytes, the posthog-js version and its SRI hash (`sha384-…`). */
export interface PosthogScript {
  name: string;
  bytes: Buffer;
  version: string;
  integrity: string;
}

const loaded = new Map<string, PosthogScript>();

/** The installed posthog-js package's folder. */
function posthogPackage(): string {
  return path.dirname(createRequire(import.meta.url).resolve('posthog-js/package.json'));
}

/**
 * posthog-js's own `dist/<name>`, from the posthog-js package the service depends on (pinned to one version), read
 * once. Its hash is the one posthog-js publishes in `dist/integrity.json`, checked against the bytes: a file that does
 * not match stops the start rather than serving what no page could load with the published hash.
 */
export function posthogScript(name: string, dir = posthogPackage()): PosthogScript {
  const file = path.join(dir, 'dist', name);
  const known = loaded.get(file);
  if (known) return known;
  const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
  const bytes = readFileSync(file);
  const integrity = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
  const published = publishedIntegrity(dir, name);
  if (published !== undefined && published !== integrity) {
    throw new Error(`posthog-js ${version}'s dist/${name} does not match its dist/integrity.json (${published}; the file is ${integrity}).`);
  }
  const script = { name, bytes, version, integrity };
  loaded.set(file, script);
  return script;
}

function publishedIntegrity(dir: string, name: string): string | undefined {
  try {
    const { files } = JSON.parse(readFileSync(path.join(dir, 'dist', 'integrity.json'), 'utf8')) as { files?: Record<string, string> };
    return files?.[name];
  } catch {
    return undefined;
  }
}

/** True when an `If-None-Match` header names this ETag (or is `*`); weak forms count, as for a GET. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

/**
 * Serves a posthog-js bundle where posthog-js loads it from its `api_host`: `/static/<name>?v=<its version>`, and with
 * `strict_script_versioning` `/static/<version>/<name>` (only the version the service pins: another is a 404).
 */
export function servePosthogScript(app: FastifyInstance, script: PosthogScript) {
  const etag = `"${script.integrity}"`;
  const serve = (immutable: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.headers({
      'content-type': 'text/javascript; charset=utf-8',
      // A version's file never changes; the unversioned name may, when the service's pinned posthog-js is upgraded.
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=86400',
      'cross-origin-resource-policy': 'cross-origin',
      'access-control-allow-origin': '*',
      etag,
      // The hash for `<script integrity>` (posthog-js's `prepare_external_dependency_script` can set it).
      'x-integrity': script.integrity,
    });
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.send(script.bytes);
  };
  app.get<{ Querystring: { v?: string } }>(`/static/${script.name}`, { schema: { hide: true } }, (request, reply) =>
    serve(request.query.v === script.version)(request, reply),
  );
  // The parameter shares its name with the static files' route (`/static/:file`), whose path segment it is too.
  app.get<{ Params: { file: string } }>(`/static/:file/${script.name}`, { schema: { hide: true } }, async (request, reply) => {
    if (request.params.file !== script.version) throw new NotFoundError(`This service serves the ${script.name} of posthog-js ${script.version}.`);
    return serve(true)(request, reply);
  });
}
