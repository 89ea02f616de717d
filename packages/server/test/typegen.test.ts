import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restApi, type ServiceProcess } from '@service/test-support';
import { freePort, serviceBin, serviceEnv, startServiceProcess, testStorage, type TestStorage } from './helpers';

const run = promisify(execFile);
const packages = path.resolve(import.meta.dirname, '../..');
const root = path.resolve(packages, '..');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

let storage: TestStorage;
let service: ServiceProcess;
/** An app's folder inside the repository (so that tsc finds the repository's node_modules for React and Node types). */
let app: string;

beforeAll(async () => {
  storage = testStorage();
  service = await startServiceProcess(storage);
  const api = restApi(service.url, service.key);
  const flags = `/api/projects/${service.projectId}/feature_flags/`;
  await api('POST', flags, {
    key: 'new-ui',
    filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: JSON.stringify({ color: 'red', sizes: [1, 2] }) } },
  });
  await api('POST', flags, {
    key: 'checkout-test',
    filters: {
      groups: [{ properties: [], rollout_percentage: 100 }],
      multivariate: {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', rollout_percentage: 50 },
        ],
      },
      payloads: { control: JSON.stringify({ steps: 3 }), test: JSON.stringify({ steps: 1, banner: 'hi' }) },
    },
  });
  await api('POST', flags, { key: 'plain-flag', filters: { groups: [{ properties: [], rollout_percentage: 10 }] } });
  app = fs.mkdtempSync(path.join(packages, 'server', '.test-typegen-'));
  // The app's installed packages, as npm would lay them out (what typegen looks for).
  const link = (name: string, target: string) => {
    fs.mkdirSync(path.dirname(path.join(app, 'node_modules', name)), { recursive: true });
    fs.symlinkSync(target, path.join(app, 'node_modules', name), 'dir');
  };
  link('@flagstation/service-js', path.join(packages, 'js'));
  link('@flagstation/service-node', path.join(packages, 'node'));
  link('@openfeature/core', path.join(root, 'node_modules', '@openfeature', 'core'));
});
afterAll(async () => {
  await service?.stop();
  if (app) fs.rmSync(app, { recursive: true, force: true });
  await storage.drop();
});

/** `service typegen ...` with the given environment (no SERVICE_* from the test's own); never throws. */
function typegen(args: string[], env: Record<string, string>): Promise<Result> {
  return run(process.execPath, [serviceBin, 'typegen', ...args], { env: serviceEnv(storage, env), cwd: app, timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Result) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

/** The app's code: right keys, and typos each under `@ts-expect-error`, for every client. */
const USAGE = `
import { service } from '@flagstation/service-js'
import { useFeatureFlagEnabled, useFeatureFlagPayload, useFeatureFlagVariantKey } from '@flagstation/service-js/react'
import type { Service } from '@flagstation/service-node'
import type { BooleanFlagKey, ObjectFlagKey, StringFlagKey } from '@openfeature/core'

export function browser() {
  const on: boolean | undefined = service.isFeatureEnabled('new-ui')
  // @ts-expect-error a typo'd key
  service.isFeatureEnabled('new-uii')
  const variant: 'control' | 'test' | false | undefined = service.getFeatureFlag('checkout-test')
  // @ts-expect-error a typo'd key
  service.getFeatureFlag('checkout')
  const color: string | undefined = service.getFeatureFlagPayload('new-ui')?.color
  const steps: number | undefined = service.getFeatureFlagPayload('checkout-test')?.steps
  return [on, variant, color, steps]
}

export function hooks() {
  const on: boolean | undefined = useFeatureFlagEnabled('plain-flag')
  // @ts-expect-error a typo'd key
  useFeatureFlagEnabled('plain_flag')
  const variant: 'control' | 'test' | false | undefined = useFeatureFlagVariantKey('checkout-test')
  // @ts-expect-error a typo'd key
  useFeatureFlagVariantKey('typo')
  const sizes: number[] | undefined = useFeatureFlagPayload('new-ui')?.sizes
  const own: { other: string } | undefined = useFeatureFlagPayload<{ other: string }>('plain-flag')
  // @ts-expect-error a typo'd key
  useFeatureFlagPayload('typo')
  return [on, variant, sizes, own]
}

export async function node(client: Service) {
  const on: boolean = await client.isFeatureEnabled('new-ui', 'user-1')
  // @ts-expect-error a typo'd key
  await client.isFeatureEnabled('typo', 'user-1')
  const variant: 'control' | 'test' | false | undefined = await client.getFeatureFlag('checkout-test', 'user-1')
  // @ts-expect-error a typo'd key
  await client.getFeatureFlagPayload('new_ui', 'user-1')
  return [on, variant]
}

export const booleanKey: BooleanFlagKey = 'new-ui'
export const stringKey: StringFlagKey = 'checkout-test'
export const objectKey: ObjectFlagKey = 'checkout-test'
// @ts-expect-error a multivariate flag's value is a string, not a boolean
export const notBoolean: BooleanFlagKey = 'checkout-test'
// @ts-expect-error a typo'd key
export const typo: StringFlagKey = 'checkout_test'
`;
const EXPECTED_ERRORS = USAGE.split('@ts-expect-error').length - 1;

/** tsc over the app's files, the clients' sources standing for their packages; the diagnostics' lines. */
async function compile(files: string[]): Promise<{ code: number; lines: string[] }> {
  const source = (pkg: string, file: string) => [path.join(packages, pkg, 'src', file)];
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      jsx: 'react-jsx',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      useDefineForClassFields: false,
      types: ['node'],
      paths: {
        '@flagstation/service-js': source('js', 'index.ts'),
        'service-js': source('js', 'index.ts'),
        '@flagstation/service-js/react': source('js', 'react/index.ts'),
        '@flagstation/service-node': source('node', 'index.ts'),
      },
    },
    files,
  };
  fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify(tsconfig));
  return run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], { timeout: 240_000 }).then(
    () => ({ code: 0, lines: [] }),
    (error: Result) => ({ code: error.code, lines: error.stdout.trim().split('\n') }),
  );
}

describe('service typegen', { timeout: 300_000 }, () => {
  it("writes the project's flag keys, variants and payload types, augmenting the installed clients and OpenFeature", async () => {
    const result = await typegen(['--out', 'src/flags.d.ts'], { SERVICE_HOST: service.url, SERVICE_PERSONAL_API_KEY: service.key });
    expect(result.code, result.stderr).toBe(0);
    const out = path.join(app, 'src', 'flags.d.ts');
    // The repository's node_modules (above the app) may hold the npm aliases too, as an app's would.
    const aliased = (name: string) => (fs.existsSync(path.join(root, 'node_modules', name)) ? [name] : []);
    const modules = ['@flagstation/service-js', ...aliased('service-js'), '@flagstation/service-node', ...aliased('service-node'), '@openfeature/core'];
    expect(result.stdout.trim()).toBe(`wrote 3 flags of project ${service.projectId} to ${out} (for ${modules.join(', ')})`);
    const written = fs.readFileSync(out, 'utf8');
    expect(written).toContain(
      `  "checkout-test": {\n    variants: "control" | "test";\n    payload: {\n      steps: number;\n    } | {\n      steps: number;\n      banner: string;\n    };\n  };`,
    );
    expect(written).toContain(`  "new-ui": {\n    payload: {\n      color: string;\n      sizes: number[];\n    };\n  };`);
    expect(written).toContain(`  "plain-flag": {\n    payload: never;\n  };`);
    expect(written).toContain(`declare module '@flagstation/service-js' {\n  interface FlagRegistry extends ProjectFlags {}\n}`);
    expect(written).toContain(`declare module '@flagstation/service-node' {`);
    expect(written).toContain(`  export type BooleanFlagKey = "new-ui" | "plain-flag";\n  export type StringFlagKey = "checkout-test";`);
  });

  it('makes a typo in a flag key a compile error in service-js, its React hooks, service-node and OpenFeature, and right keys compile', async () => {
    fs.writeFileSync(path.join(app, 'src', 'usage.ts'), USAGE);
    // Every typo is an error (each @ts-expect-error is used), and nothing else is.
    const typed = await compile(['src/usage.ts', 'src/flags.d.ts']);
    expect(typed.lines).toEqual([]);
    expect(typed.code).toBe(0);
    // Without the declarations the typos compile: every @ts-expect-error is unused.
    const untyped = await compile(['src/usage.ts']);
    expect(untyped.lines.filter((line) => line.includes("error TS2578: Unused '@ts-expect-error' directive."))).toHaveLength(EXPECTED_ERRORS);
  });

  it('says what is missing and exits 1 without a key, against an unreachable host, or with a key the service refuses', async () => {
    const noKey = await typegen(['--out', 'src/x.d.ts', '--host', service.url], {});
    expect(noKey).toMatchObject({ code: 1, stdout: '' });
    expect(noKey.stderr).toBe('error: a personal API key with scope feature_flag:read is needed: --key KEY or SERVICE_PERSONAL_API_KEY\n');

    const port = await freePort();
    const unreachable = await typegen(['--out', 'src/x.d.ts', '--host', `http://127.0.0.1:${port}`, '--key', service.key], {});
    expect(unreachable).toMatchObject({ code: 1, stdout: '' });
    expect(unreachable.stderr).toBe(`error: cannot reach http://127.0.0.1:${port} (ECONNREFUSED); is the service running there? Set --host or SERVICE_HOST.\n`);

    const refused = await typegen(['--out', 'src/x.d.ts', '--project', String(service.projectId)], {
      SERVICE_HOST: service.url,
      SERVICE_PERSONAL_API_KEY: 'phx_wrong',
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: the service refused the key \(401: .+\); it needs scope feature_flag:read\n$/);
    expect(fs.existsSync(path.join(app, 'src', 'x.d.ts'))).toBe(false);
  });
});
