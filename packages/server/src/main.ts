import cluster from 'node:cluster';
import net from 'node:net';
import { Command, InvalidArgumentError, Option } from 'commander';
import { buildApp } from './app';
import { bootstrap, projectFields } from './bootstrap';
import { startWorkers } from './cluster';
import { loadConfig, type Config } from './config';
import { openDatabase, type Db } from './db/database';
import { parseScopes } from './http/scopes';
import { createServices, type Services } from './services';
import { DomainError } from './errors';
import { uploadSourceMaps, type UploadOptions } from './error-tracking/sourcemaps/upload-command';
import { typegen, type TypegenOptions } from './feature-flags/typegen-command';
import { startupError } from './startup-error';
import { ROLES } from './http/roles';
import { MIN_PASSWORD_LENGTH, generatePassword } from './users/passwords';
import { serverVersion } from './version';

let loaded: Config | undefined;
/** The configuration, read once: the start-up error message needs it too. */
const config = () => (loaded ??= loadConfig());

/** Says which database is used, or that it was just created. */
const databaseLine = (db: Db) => (db.created ? `Created a new database: ${db.location}` : `Using ${db.location}`);

async function withServices<T>(config: Config, run: (services: Services) => Promise<T>): Promise<T> {
  const db = await openDatabase(config);
  // On stderr, so that what the command prints on stdout (--json) stays the same.
  if (db.created) process.stderr.write(`${databaseLine(db)}\n`);
  try {
    return await run(createServices(db, config));
  } finally {
    await db.close();
  }
}

const print = (value: unknown) => {
  process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
};

/** The fields as `label: value` lines (what the commands print without --json). */
const labelled = (fields: object) =>
  Object.entries(fields)
    .map(([field, value]) => `${field.replaceAll('_', ' ').replace('api key', 'API key')}: ${value}`)
    .join('\n');

/** Gives `command` a --json option and an action that prints what `run` returns: labelled lines, or one JSON line. */
function printingFields(command: Command, run: (services: Services, ...args: string[]) => Promise<object>): Command {
  return command.option('--json', 'print one JSON line').action((...args: unknown[]) =>
    // Commander passes the command's arguments, then its options and the command itself.
    withServices(config(), async (services) => {
      const fields = await run(services, ...(args.slice(0, -2) as string[]));
      print(command.opts<{ json?: boolean }>().json ? fields : labelled(fields));
    }),
  );
}

function role(raw: string): string {
  if (!(ROLES as readonly string[]).includes(raw)) throw new InvalidArgumentError(`a role is one of ${ROLES.join(', ')}`);
  return raw;
}

function projectId(raw: string): number {
  if (!/^\d+$/.test(raw)) throw new InvalidArgumentError('a project id is a whole number');
  return Number(raw);
}

/** A rule's refusal as the command line reports it: the option at fault, then the reason. */
function argumentError(error: unknown): never {
  throw error instanceof DomainError ? new InvalidArgumentError(`${error.attr ? `--${error.attr}: ` : ''}${error.detail}`) : error;
}

/** Scopes of `--scopes`, a mistake reported as a plain message. */
function scopes(raw: string): string[] {
  try {
    return parseScopes(raw);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/**
 * `service start`: migrates, creates the default project on an empty database, and serves. With `WORKERS` above 1
 * this process is the primary: it does the start-up work once, forks the workers (each runs `serve`) and prints
 * the start-up lines once all of them listen.
 */
async function start(config: Config) {
  if (cluster.isWorker) return serve(config);
  const db = await openDatabase(config);
  print(databaseLine(db));
  const services = createServices(db, config);
  await firstStart(services);
  if (config.workers === 1) return serve(config, { db, services });
  const needsFirstAccount = await services.users.needsFirstAccount();
  const { dialect } = db;
  await db.close();
  // The one mistake every worker would make, reported once.
  await portFree(config);
  let workers: Awaited<ReturnType<typeof startWorkers>>;
  try {
    workers = await startWorkers({ count: config.workers, jobsInOneWorker: dialect === 'sqlite', log: (line) => process.stderr.write(`${line}\n`) });
  } catch {
    process.exit(1); // the worker said why on stderr
  }
  const stop = async () => {
    await workers.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  printListening(config, dialect, needsFirstAccount, ` (${config.workers} workers)`);
}

async function firstStart(services: Services) {
  if (await services.projects.first()) return;
  const created = await bootstrap(services, 'created at first start');
  print(
    [
      'Created a default project and a personal API key (shown once; only its hash is stored):',
      `  project id:        ${created.project_id}`,
      `  project token:     ${created.project_token}`,
      `  personal API key:  ${created.personal_api_key}`,
    ].join('\n'),
  );
}

/** Serves on the configured port until SIGINT or SIGTERM, then drains: open requests finish and accepted events are committed. */
async function serve(config: Config, opened?: { db: Db; services: Services }) {
  const db = opened?.db ?? (await openDatabase(config));
  const services = opened?.services ?? createServices(db, config);
  const app = await buildApp(config, services);
  let stopping = false;
  const stop = async () => {
    // A worker hears both a terminal's SIGINT and the primary's SIGTERM.
    if (stopping) return;
    stopping = true;
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const needsFirstAccount = await services.users.needsFirstAccount();
  await app.listen({ port: config.port, host: config.host });
  if (!cluster.isWorker) printListening(config, db.dialect, needsFirstAccount);
}

function printListening(config: Config, dialect: string, needsFirstAccount: boolean, processes = '') {
  print(`Service listening on http://${config.host}:${config.port} (${dialect})${processes}`);
  const url = `http://${browsable(config.host)}:${config.port}/`;
  print(
    needsFirstAccount
      ? `Open ${url} to use the web app: there is no account yet, and the first visit creates the owner's account.`
      : `Open ${url} to use the web app.`,
  );
}

/** Resolves when the port can be listened on; else rejects with the error of `listen` (`startupError` explains it). */
async function portFree({ port, host }: Config) {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(port, host, resolve));
  await new Promise((resolve) => probe.close(resolve));
}

/** A host a browser can open: `localhost` for the wildcard and loopback addresses, IPv6 in brackets. */
function browsable(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '127.0.0.1' || host === '::1') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function cli(): Command {
  const program = new Command('service').description('Feature flags, early access features and product events.').version(serverVersion);

  program
    .command('start')
    .description('migrate the database and start the service')
    .action(() => start(config()));

  printingFields(
    program.command('init').description('create the default project if there is none, and a new personal API key with scope *'),
    async (services) => {
      const { createdProject: _, ...result } = await bootstrap(services, 'service init');
      return result;
    },
  );

  const keys = program.command('keys').description('personal API keys');
  keys
    .command('create')
    .description('create a personal API key; the key is shown once')
    .requiredOption('--scopes <scopes>', 'comma separated, e.g. early_access_feature:read,feature_flag:write or *', scopes)
    .option(
      '--project <id...>',
      'limit the key to these projects (it then has no organization-level access: members, invites, new projects)',
      (value: string, previous: number[] = []) => [...previous, projectId(value)],
    )
    .option('--label <label>', 'what the key is for', 'cli')
    .option('--json', 'print one JSON line')
    .action((opts: { scopes: string[]; project?: number[]; label: string; json?: boolean }) =>
      withServices(config(), async (services) => {
        for (const id of opts.project ?? []) {
          if (!(await services.projects.get(id))) throw new InvalidArgumentError(`no project with id ${id}; the projects are listed by: service projects list`);
        }
        const { key, secret } = await services.keys.create({ label: opts.label, scopes: opts.scopes, projectIds: opts.project ?? null });
        print(opts.json ? { ...key, personal_api_key: secret } : `${secret}\n(id ${key.id}; scopes ${key.scopes.join(',')})`);
      }),
    );
  keys
    .command('list')
    .description('list keys (never the secrets)')
    .action(() => withServices(config(), async (services) => print((await services.keys.list()).map((k) => JSON.stringify(k)).join('\n'))));
  keys
    .command('revoke <id>')
    .description('revoke a key; requests with it get 401')
    .action((id: string) =>
      withServices(config(), async (services) => {
        if (!(await services.keys.revoke(id))) program.error(`no live key with id ${id}`);
        print(`revoked ${id}`);
      }),
    );

  const users = program.command('users').description('accounts of the web app');
  users
    .command('create')
    .description('create a user (the first one is an owner unless --role says otherwise; later ones are members)')
    .requiredOption('--email <email>', 'the login')
    .requiredOption('--password <password>', `at least ${MIN_PASSWORD_LENGTH} characters, not one of the most common passwords`)
    .option('--name <name>', 'the name shown (default: the part of the email before @)')
    .option('--role <role>', `one of ${ROLES.join(', ')}`, role)
    .option('--json', 'print one JSON line')
    .action((opts: { email: string; password: string; name?: string; role?: string; json?: boolean }) =>
      withServices(config(), async (services) => {
        const user = await services.users.create(opts).catch(argumentError);
        print(opts.json ? user : labelled({ id: user.id, email: user.email, name: user.name, role: user.role }));
      }),
    );
  users
    .command('list')
    .description('list users, one a line: id, email, role, name')
    .option('--json', 'print one JSON line per user')
    .action((opts: { json?: boolean }) =>
      withServices(config(), async (services) => {
        const all = await services.users.members();
        if (all.length) print(all.map((u) => (opts.json ? JSON.stringify(u) : `${u.id}  ${u.email}  ${u.role}  ${u.name}`)).join('\n'));
      }),
    );
  users
    .command('set-password')
    .description("set a user's password (a forgotten one, say); every session of the user ends")
    .requiredOption('--email <email>', 'the login of the account (service users list shows them)')
    .addOption(
      new Option('--password <password>', `the new password: at least ${MIN_PASSWORD_LENGTH} characters, not one of the most common passwords`).conflicts(
        'generate',
      ),
    )
    .addOption(new Option('--generate', 'generate a strong password and print it (shown once: only its hash is stored)'))
    .option('--json', 'print one JSON line')
    .action((opts: { email: string; password?: string; generate?: boolean; json?: boolean }) => {
      if (opts.password === undefined && !opts.generate) throw new InvalidArgumentError('give the new password with --password P, or --generate one');
      const password = opts.password ?? generatePassword();
      return withServices(config(), async (services) => {
        const { user, sessionsEnded } = await services.passwords.set(opts.email, password).catch(argumentError);
        const generated = opts.generate ? { password } : {};
        if (opts.json) return print({ id: user.id, email: user.email, ...generated, sessions_ended: sessionsEnded });
        const sessions = `${sessionsEnded} session${sessionsEnded === 1 ? '' : 's'} ended`;
        print(`Set the password of ${user.email} (id ${user.id}); ${sessions}.`);
        if (opts.generate) print(`New password (shown once): ${password}`);
      });
    });

  const projects = program.command('projects').description('projects');
  printingFields(projects.command('create <name>').description('create a project with its own project token'), async (services, name) =>
    projectFields(await services.projects.create(name!)),
  );
  projects
    .command('list')
    .description('list projects, one a line: id, project token, name')
    .option('--json', 'print one JSON line per project')
    .action((opts: { json?: boolean }) =>
      withServices(config(), async (services) => {
        const all = (await services.projects.all()).map(projectFields);
        if (all.length) print(all.map((p) => (opts.json ? JSON.stringify(p) : `${p.project_id}  ${p.project_token}  ${p.project_name}`)).join('\n'));
      }),
    );

  program
    .command('migrate')
    .description('apply database migrations and exit')
    .action(() => withServices(config(), async () => print('migrated')));

  // Talks to a running service over HTTP (no database of its own), as CI does after a build.
  const sourcemaps = program.command('sourcemaps').description('source maps, for readable stack traces of minified browser code');
  sourcemaps
    .command('upload')
    .description('upload every *.js.map under a folder for a release, through the API of a running service')
    .requiredOption('--release <release>', 'the release the build is (what the app sends as $release)')
    .requiredOption('--dir <dir>', 'the build output folder')
    .option('--url-prefix <prefix>', 'where the folder is served: an absolute URL, or ~/ for any origin', '~/')
    .addOption(new Option('--host <url>', 'the service').env('SERVICE_HOST').default('http://localhost:8000'))
    .addOption(new Option('--project <id>', 'the project (default: the only one the key sees)').env('SERVICE_PROJECT_ID'))
    .addOption(new Option('--api-key <key>', 'a personal API key with scope error_tracking:write').env('SERVICE_API_KEY'))
    .action(async (opts: UploadOptions) => {
      process.exitCode = await uploadSourceMaps(opts, { out: print, err: (line) => process.stderr.write(`${line}\n`) });
    });
  program
    .command('typegen')
    .description("write TypeScript declarations of a project's flag keys, variants and payloads, read through the API of a running service")
    .addOption(new Option('--host <url>', 'the service').env('SERVICE_HOST').default('http://localhost:8000'))
    .addOption(new Option('--key <key>', 'a personal API key with scope feature_flag:read').env('SERVICE_PERSONAL_API_KEY'))
    .addOption(new Option('--project <id>', 'the project (default: the only one the key sees)').env('SERVICE_PROJECT_ID'))
    .option('--out <file>', 'the declaration file to write, inside the app', 'src/service-flags.d.ts')
    .action(async (opts: TypegenOptions) => {
      process.exitCode = await typegen(opts, { out: print, err: (line) => process.stderr.write(`${line}\n`) });
    });
  return program;
}

try {
  await cli().parseAsync(process.argv);
} catch (error) {
  const message = startupError(error, loaded);
  if (message === undefined) throw error;
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}
