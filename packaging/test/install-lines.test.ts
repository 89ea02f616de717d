// The packages are not on npm yet (CONTRIBUTING.md#releasing): a command that installs them from the registry answers
// 404. Until they are, no documented command does; the README's "Install" gives the way that works (tarball.test.ts
// runs it), and the web app's Settings → Install says the same.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** `npm install @flagstation/…`, `npm i -g @flagstation/…`, `npx @flagstation/…`, or an npm alias to one. */
const FROM_REGISTRY = /npm:@flagstation\/|\bnpx (?:-y |--yes )?@flagstation\/|\bnpm (?:install|i|add)\b(?: (?:-[gDE]|--\S+))* @flagstation\//;

/** The files of `dir` (recursively) whose names pass `keep`. */
const filesIn = (dir: string, keep: (name: string) => boolean): string[] =>
  fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => keep(name) && !name.includes('node_modules'))
    .map((name) => path.join(dir, name));

/** What users read: the READMEs, docs/, and the web app's pages. */
const documents = [
  'README.md',
  'CONTRIBUTING.md',
  ...filesIn('docs', (name) => name.endsWith('.md')),
  ...['packages/js', 'packages/node', 'packages/server', 'examples/react-app'].map((dir) => `${dir}/README.md`),
  ...filesIn('packages/web/src', (name) => name.endsWith('.tsx')),
];

describe('install commands in the documents and the web app', () => {
  it('none installs a package from the registry, where it is not yet', () => {
    expect(documents.length).toBeGreaterThan(10);
    const lines = documents.flatMap((file) =>
      fs
        .readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (FROM_REGISTRY.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(lines).toEqual([]);
  });

  it('the pattern finds each form of such a command', () => {
    for (const line of [
      'npm install service-js@npm:@flagstation/service-js',
      'npm install -g @flagstation/server',
      'npm i @flagstation/service-node',
      'npx @flagstation/server start',
    ])
      expect(FROM_REGISTRY.test(line), line).toBe(true);
    for (const line of [
      'npm install service-js@file:$HOME/flagstation-packages/flagstation-service-js-0.1.0.tgz',
      'npm install ~/flagstation-packages/flagstation-server-0.1.0.tgz',
      "import { Service } from '@flagstation/service-node'",
    ])
      expect(FROM_REGISTRY.test(line), line).toBe(false);
  });
});
