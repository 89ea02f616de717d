import { Command, InvalidArgumentError } from 'commander';
import { buildApp } from './app';
import { bootstrap } from './bootstrap';
import { loadConfig, type Config } from './config';
import { openDatabase } from './db/database';
import { parseScopes } from './api-keys/service';
import { createServices, type Services } from './services';

async function withServices<T>(config: Config, run: (services: Services) => Promise<T>): Promise<T> {
  const db = await openDatabase(config);
  try {
    return await run(createServices(db));
  } finally {
    await db.close();
  }
}

const print = (value: unknown) => {
  process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
};

function projectId(raw: string): number {
  if (!/^\d+$/.test(raw)) throw new InvalidArgumentError('a project id is a whole number');
  return Number(raw);
}

async function start(config: Config) {
  const db = await openDatabase(config);
  const services = createServices(db);
  if (!(await services.projects.first())) {
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
  const app = await buildApp(config, services);
  const stop = async () => {
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await app.listen({ port: config.port, host: config.host });
  print(`Service listening on http://${config.host}:${config.port} (${db.dialect})`);
}

export function cli(): Command {
  const program = new Command('service').description('Feature flags, early access features and product events.');
  const config = () => loadConfig();

  program.command('start').description('migrate the database and start the service').action(() => start(config()));

  program
    .command('init')
    .description('create the default project if there is none, and a new personal API key with scope *')
    .option('--json', 'print one JSON line')
    .action((opts: { json?: boolean }) =>
      withServices(config(), async (services) => {
        const { createdProject: _, ...result } = await bootstrap(services, 'service init');
        print(opts.json ? result : `project id: ${result.project_id}\nproject token: ${result.project_token}\npersonal API key: ${result.personal_api_key}`);
      }),
    );

  const keys = program.command('keys').description('personal API keys');
  keys
    .command('create')
    .description('create a personal API key; the key is shown once')
    .requiredOption('--scopes <scopes>', 'comma separated, e.g. early_access_feature:read,feature_flag:write or *', parseScopes)
    .option('--project <id...>', 'limit the key to these projects', (value: string, previous: number[] = []) => [...previous, projectId(value)])
    .option('--label <label>', 'what the key is for', 'cli')
    .option('--json', 'print one JSON line')
    .action((opts: { scopes: string[]; project?: number[]; label: string; json?: boolean }) =>
      withServices(config(), async (services) => {
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

  program
    .command('projects')
    .description('projects')
    .command('create <name>')
    .description('create a project with its own project token')
    .option('--json', 'print one JSON line')
    .action((name: string, opts: { json?: boolean }) =>
      withServices(config(), async (services) => {
        const project = await services.projects.create(name);
        print(opts.json ? project : `project id: ${project.id}\nproject token: ${project.api_token}`);
      }),
    );

  program.command('migrate').description('apply database migrations and exit').action(() => withServices(config(), async () => print('migrated')));
  return program;
}

await cli().parseAsync(process.argv);
