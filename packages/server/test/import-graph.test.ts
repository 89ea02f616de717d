import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The shape of the server's code, read from its imports: layers that import only downwards, domains that do not import
// each other in a circle, and files a person can read whole.

const SRC = path.resolve(import.meta.dirname, '../src');

/**
 * The layers, lowest first. A file's layer is the first whose prefix its path (from src/) starts with; a file may import
 * its own layer and those below. Everything not named is a domain: a folder of src/ with its module in `index.ts`.
 */
const COMMON = [
  'errors.ts',
  'config.ts',
  'version.ts',
  'uuid.ts',
  'json.ts',
  'turns.ts',
  'cluster.ts',
  'changes.ts',
  'startup-error.ts',
  'module.ts',
  'db/',
  'http/',
];
const COMPOSITION = ['modules.ts', 'services.ts', 'app.ts', 'bootstrap.ts', 'main.ts'];
const LAYERS = ['common', 'domains', 'composition'] as const;
/** Imports that may run from a lower layer to a higher one: none today, and never more than this. */
const MAX_UPWARD = 5;
/** The migrations' registry: the database imports each migration, and each migration the database's types. */
const MIGRATIONS_REGISTRY = /^db\/(database\.ts|migrations\/)/;
const MAX_LINES = 500;

const layerOf = (file: string) => (COMMON.some((prefix) => file.startsWith(prefix)) ? 0 : COMPOSITION.some((prefix) => file.startsWith(prefix)) ? 2 : 1);
/** The domain of a file: its folder under src/ (undefined for the common and composition layers). */
const domainOf = (file: string) => (layerOf(file) === 1 ? file.split('/')[0] : undefined);

function sourceFiles(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full, base);
    return entry.name.endsWith('.ts') ? [path.relative(base, full).split(path.sep).join('/')] : [];
  });
}

const files = sourceFiles(SRC);

/** The files of src/ each file imports (relative imports, types included), read with the TypeScript compiler's own pre-processor. */
const imports = new Map(
  files.map((file) => {
    const info = ts.preProcessFile(fs.readFileSync(path.join(SRC, file), 'utf8'), true, true);
    const targets = info.importedFiles
      .map(({ fileName }) => fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(file, name))
      .filter((target): target is string => target !== undefined);
    return [file, [...new Set(targets)]];
  }),
);

function resolve(from: string, specifier: string): string | undefined {
  const bare = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.js$/, '');
  return [`${bare}.ts`, `${bare}/index.ts`, bare].find((candidate) => files.includes(candidate));
}

/** Strongly connected groups of more than one node (or a node importing itself): the circles of a graph (Tarjan). */
function circles(nodes: string[], edges: (node: string) => string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of edges(node)) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do group.push((member = stack.pop()!));
      while (member !== node);
      if (group.length > 1 || edges(node).includes(node)) found.push(group.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

describe("the server's import graph", () => {
  it('reads every source file and its imports', () => {
    expect(files).toContain('app.ts');
    expect(imports.get('app.ts')).toContain('modules.ts');
    expect(imports.get('capture/index.ts')).toEqual(expect.arrayContaining(['capture/ingest.ts', 'module.ts']));
  });

  it(`has at most ${MAX_UPWARD} imports running from a lower layer (${LAYERS.join(' < ')}) to a higher one`, () => {
    const upward = [...imports].flatMap(([file, targets]) =>
      targets.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${file} -> ${target}`),
    );
    expect(upward.length, upward.join('\n')).toBeLessThanOrEqual(MAX_UPWARD);
  });

  it("has no import circle but the migrations' registry", () => {
    const found = circles(files, (file) => imports.get(file) ?? []).filter((group) => !group.every((file) => MIGRATIONS_REGISTRY.test(file)));
    expect(found).toEqual([]);
  });

  it('has no circle between domains: their folders import each other one way', () => {
    const domainImports = new Map<string, Set<string>>();
    for (const [file, targets] of imports) {
      const from = domainOf(file);
      if (from === undefined) continue;
      for (const target of targets) {
        const to = domainOf(target);
        if (to !== undefined && to !== from) domainImports.set(from, (domainImports.get(from) ?? new Set()).add(to));
      }
    }
    expect(domainImports.size).toBeGreaterThan(5);
    expect(circles([...domainImports.keys()], (domain) => [...(domainImports.get(domain) ?? [])])).toEqual([]);
  });

  it('has ingestion (capture/) import no other domain: domains add their steps to its pipeline', () => {
    const crossing = [...imports]
      .filter(([file]) => domainOf(file) === 'capture')
      .flatMap(([file, targets]) => targets.filter((target) => domainOf(target) !== undefined && domainOf(target) !== 'capture').map((t) => `${file} -> ${t}`));
    expect(crossing).toEqual([]);
  });

  it('has every domain folder export its module from index.ts', () => {
    const domains = new Set(files.map(domainOf).filter((domain): domain is string => domain !== undefined));
    expect([...domains].filter((domain) => !files.includes(`${domain}/index.ts`))).toEqual([]);
    const registered = new Set((imports.get('modules.ts') ?? []).map(domainOf));
    expect([...domains].filter((domain) => !registered.has(domain))).toEqual([]);
  });
});

describe("the server's source files", () => {
  it(`are at most ${MAX_LINES} lines each`, () => {
    const long = files
      .map((file) => [file, fs.readFileSync(path.join(SRC, file), 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > MAX_LINES)
      .map(([file, lines]) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
