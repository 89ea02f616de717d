import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** Options of `service sourcemaps upload` (flags, or SERVICE_HOST, SERVICE_PROJECT_ID, SERVICE_API_KEY). */
export interface UploadOptions {
  release: string;
  dir: string;
  /** Where DIR is served: an absolute URL, or `~/` for any origin. */
  urlPrefix: string;
  host: string;
  project?: string;
  apiKey?: string;
}

/** What the command prints: progress on `out`, problems on `err` (each a line). */
export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

const MAP_FILE = /\.[cm]?js\.map$/;
/** Uploads under way at once. */
const CONCURRENCY = 4;
/** Attempts of one upload the service answers 429 or 503 (it says when to retry). */
const ATTEMPTS = 4;
const TIMEOUT_MS = 120_000;

const gzip = promisify(zlib.gzip);

/** Errors of a service that cannot be reached at all. */
const NO_SERVICE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** The service could not be reached at all: no point trying the other files. */
class Unreachable extends Error {}

/** The `*.js.map` files under `dir` (also `.mjs.map`, `.cjs.map`), as paths relative to it with `/`, sorted. */
function mapFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && MAP_FILE.test(entry.name))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * The minified file a map at `file` was written for (`app.js` beside `app.js.map`), uploaded with it: its functions
 * name the frames. Undefined when there is none.
 */
async function minifiedFile(file: string): Promise<string | undefined> {
  try {
    return await fs.promises.readFile(file.replace(/\.map$/, ''), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The minified file's URL for a map at `relative`: the prefix, then the `.js` file's path. */
export function fileUrl(urlPrefix: string, relative: string): string {
  const prefix = urlPrefix.endsWith('/') ? urlPrefix : `${urlPrefix}/`;
  return prefix + encodeURI(relative.replace(/\.map$/, ''));
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** A REST call with a personal API key: the status and the parsed JSON answer (or undefined). */
async function call(host: string, apiKey: string, method: string, route: string, body?: { data: Buffer; gzip: boolean }) {
  const url = new URL(route, host.endsWith('/') ? host : `${host}/`);
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${apiKey}`,
          ...(body ? { 'content-type': 'application/json', ...(body.gzip ? { 'content-encoding': 'gzip' } : {}) } : {}),
        },
        body: body?.data,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const code = cause?.code ?? cause?.message ?? (error as Error).message;
      if (!body || NO_SERVICE.has(code))
        throw new Unreachable(`cannot reach ${url.origin} (${code}); is the service running there? Set --host or SERVICE_HOST.`);
      // A body over the limit may be cut off while it is still being sent.
      throw new Error(`the connection broke while sending (${code}); are the map and its minified file larger than the service's SOURCEMAP_MAX_BYTES?`);
    }
    const json = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    const retryAfter = Number(response.headers.get('retry-after'));
    if ((response.status === 429 || response.status === 503) && attempt < ATTEMPTS) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(Number.isFinite(retryAfter) ? retryAfter : 1, 30) * 1000));
      continue;
    }
    return { status: response.status, json };
  }
}

/** The service's error as one phrase: status, field and detail. */
function problem(status: number, json: Record<string, unknown> | undefined): string {
  const attr = typeof json?.attr === 'string' ? ` (${json.attr})` : '';
  return `${status}${attr}: ${typeof json?.detail === 'string' ? json.detail : 'the service refused it'}`;
}

/** The project to upload to: the one given, else the only project the key sees. */
async function projectOf(opts: UploadOptions & { apiKey: string }): Promise<string> {
  if (opts.project) {
    if (!/^\d+$/.test(opts.project)) throw new Error(`--project must be a project id (a whole number), got "${opts.project}"`);
    return opts.project;
  }
  const { status, json } = await call(opts.host, opts.apiKey, 'GET', 'api/projects/');
  const projects = status === 200 && Array.isArray(json?.results) ? (json.results as { id: number }[]) : [];
  if (projects.length !== 1) throw new Error('say which project the maps are for: --project ID or SERVICE_PROJECT_ID');
  return String(projects[0]!.id);
}

/**
 * `service sourcemaps upload`: every `*.js.map` under `dir` is uploaded (gzipped) for the release with the minified
 * `.js` file beside it, under the URL `<url-prefix><path of the .js relative to dir>`, through the REST API with a
 * personal API key (scope `error_tracking:write`). A map whose minified file the service refuses is uploaded alone.
 * Prints a line per file and a summary; the exit code is 1 when anything failed.
 */
export async function uploadSourceMaps(opts: UploadOptions, output: Output): Promise<number> {
  const fail = (message: string) => {
    output.err(`error: ${message}`);
    return 1;
  };
  const apiKey = opts.apiKey;
  if (!apiKey) return fail('a personal API key with scope error_tracking:write is needed: --api-key KEY or SERVICE_API_KEY');
  if (!URL.canParse(opts.host) || !/^https?:$/.test(new URL(opts.host).protocol)) return fail(`--host must be an http(s) URL, got "${opts.host}"`);
  if (!opts.urlPrefix.startsWith('~/') && !URL.canParse(opts.urlPrefix))
    return fail(`--url-prefix must be an absolute URL or start with ~/, got "${opts.urlPrefix}"`);
  let files: string[];
  try {
    files = mapFiles(opts.dir);
  } catch (error) {
    return fail(`cannot read the folder ${opts.dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!files.length) return fail(`no *.js.map files under ${opts.dir}; build with source maps on (e.g. Vite's build.sourcemap: true)`);

  let project: string;
  try {
    project = await projectOf({ ...opts, apiKey });
  } catch (error) {
    return fail((error as Error).message);
  }
  const route = `api/projects/${project}/error_tracking/sourcemaps/`;
  let failed = 0;
  let unreachable: string | undefined;
  const queue = [...files];
  const send = async (body: { release: string; url: string; map: string; source?: string }) =>
    call(opts.host, apiKey, 'POST', route, { data: await gzip(JSON.stringify(body)), gzip: true });
  const upload = async (relative: string) => {
    const url = fileUrl(opts.urlPrefix, relative);
    try {
      const file = path.join(opts.dir, relative);
      const map = await fs.promises.readFile(file, 'utf8');
      const source = await minifiedFile(file);
      let { status, json } = await send({ release: opts.release, url, map, source });
      let sent = source === undefined ? 'no minified file beside the map' : 'with the minified file';
      // A minified file the service does not take (too large, alone or with its map, or not JavaScript it reads): the
      // map alone still maps frames.
      if (source !== undefined && (status === 413 || (status === 400 && json?.attr === 'source'))) {
        sent = `without the minified file: ${problem(status, json)}`;
        ({ status, json } = await send({ release: opts.release, url, map }));
      }
      if (status === 201) output.out(`uploaded  ${url}  (${kb(Number(json?.size ?? map.length))}, ${sent})`);
      else {
        failed++;
        output.err(`failed    ${url}  ${problem(status, json)}`);
      }
    } catch (error) {
      if (error instanceof Unreachable) unreachable = error.message;
      else {
        failed++;
        output.err(`failed    ${url}  ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, files.length) }, async () => {
      for (let next = queue.shift(); next !== undefined && !unreachable; next = queue.shift()) await upload(next);
    }),
  );
  if (unreachable) return fail(unreachable);
  const uploaded = files.length - failed;
  if (failed) return fail(`${failed} of ${files.length} source maps failed to upload (release ${opts.release}); ${uploaded} uploaded`);
  output.out(`${uploaded} source map${uploaded === 1 ? '' : 's'} uploaded for release ${opts.release} to project ${project}`);
  return 0;
}
