import fs from 'node:fs';
import path from 'node:path';
import { TYPED_MODULES, flagDeclarations, type TypedModule, type TypegenFlag } from './typegen';

/** Options of `service typegen` (flags, or SERVICE_HOST, SERVICE_PERSONAL_API_KEY, SERVICE_PROJECT_ID). */
export interface TypegenOptions {
  host: string;
  key?: string;
  project?: string;
  out: string;
}

/** What the command prints: what it wrote on `out`, problems on `err` (each a line). */
export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

const TIMEOUT_MS = 30_000;
/** Pages of flags read at most (1000 flags a page). */
const MAX_PAGES = 100;

/** A GET of the REST API with a personal API key: the parsed JSON answer; a refusal or no answer throws a message. */
async function get(url: URL, key: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const code = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new Error(`cannot reach ${url.origin} (${code}); is the service running there? Set --host or SERVICE_HOST.`);
  }
  const json = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (response.status === 200 && json) return json;
  const detail = typeof json?.detail === 'string' ? json.detail : 'not an answer of the service';
  if (response.status === 401 || response.status === 403)
    throw new Error(`the service refused the key (${response.status}: ${detail}); it needs scope feature_flag:read`);
  throw new Error(`${url.pathname} answered ${response.status}: ${detail}`);
}

/** The project to read: the one given, else the only project the key sees. */
async function projectOf(host: URL, key: string, project: string | undefined): Promise<string> {
  if (project !== undefined) {
    if (!/^\d+$/.test(project)) throw new Error(`--project must be a project id (a whole number), got "${project}"`);
    return project;
  }
  const listed = await get(new URL('api/projects/', host), key);
  const projects = Array.isArray(listed.results) ? (listed.results as { id: number }[]) : [];
  if (projects.length !== 1) throw new Error(`the key sees ${projects.length} projects: say which one with --project ID or SERVICE_PROJECT_ID`);
  return String(projects[0]!.id);
}

/** Every live flag of the project, page after page. */
async function flagsOf(host: URL, key: string, project: string): Promise<TypegenFlag[]> {
  const flags: TypegenFlag[] = [];
  let next: string | null = new URL(`api/projects/${project}/feature_flags/?limit=1000`, host).href;
  for (let page = 0; next && page < MAX_PAGES; page++) {
    const answer = await get(new URL(next, host), key);
    flags.push(...((answer.results ?? []) as TypegenFlag[]));
    next = typeof answer.next === 'string' ? answer.next : null;
  }
  return flags;
}

/**
 * The modules the app in `dir` has installed (found in `node_modules` folders from `dir` up): the generated file
 * augments only those, since TypeScript refuses to augment a module it cannot find. An unscoped name counts when it
 * is our package under an npm alias.
 */
export function installedModules(dir: string): TypedModule[] {
  const found = new Set<TypedModule>();
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    for (const name of Object.keys(TYPED_MODULES) as TypedModule[]) {
      try {
        const manifest = JSON.parse(fs.readFileSync(path.join(at, 'node_modules', name, 'package.json'), 'utf8')) as { name?: string };
        if (manifest.name === name || manifest.name === `@flagstation/${name}`) found.add(name);
      } catch {
        // not installed here
      }
    }
    if (path.dirname(at) === at) break;
  }
  return Object.keys(TYPED_MODULES).filter((name) => found.has(name as TypedModule)) as TypedModule[];
}

/**
 * `service typegen`: reads the project's flags through the REST API (a personal API key with `feature_flag:read`)
 * and writes a declaration file: their keys, variants and payload types, put by module augmentation into the
 * clients (`FlagRegistry` of service-js, its React hooks and service-node) and OpenFeature's key types, for those
 * the app has installed. Returns the exit code: 1 when anything went wrong, with the reason on `err`.
 */
export async function typegen(opts: TypegenOptions, output: Output): Promise<number> {
  const fail = (message: string) => {
    output.err(`error: ${message}`);
    return 1;
  };
  if (!opts.key) return fail('a personal API key with scope feature_flag:read is needed: --key KEY or SERVICE_PERSONAL_API_KEY');
  if (!URL.canParse(opts.host) || !/^https?:$/.test(new URL(opts.host).protocol)) return fail(`--host must be an http(s) URL, got "${opts.host}"`);
  const host = new URL(opts.host.endsWith('/') ? opts.host : `${opts.host}/`);
  const out = path.resolve(opts.out);
  const modules = installedModules(path.dirname(out));
  if (!modules.length)
    return fail(`none of ${Object.keys(TYPED_MODULES).join(', ')} is installed for ${path.dirname(out)}; write the file (--out) inside the app that uses them`);
  let project: string;
  let flags: TypegenFlag[];
  try {
    project = await projectOf(host, opts.key, opts.project);
    flags = await flagsOf(host, opts.key, project);
  } catch (error) {
    return fail((error as Error).message);
  }
  try {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, flagDeclarations(flags, modules, `project ${project} of ${host.origin}`));
  } catch (error) {
    return fail(`cannot write ${out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  output.out(`wrote ${flags.length} flag${flags.length === 1 ? '' : 's'} of project ${project} to ${out} (for ${modules.join(', ')})`);
  return 0;
}
