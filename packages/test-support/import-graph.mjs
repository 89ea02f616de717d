// The import graph of a package's sources, read with the TypeScript compiler (as `tsc` resolves imports, the
// tsconfig's `paths` included), for the tests that keep it free of circles. Types in import-graph.d.mts.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(c|m)?tsx?$/;

/** The source files under `dir` (no declarations), as absolute paths. */
function sources(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name) && !/\.d\.(c|m)?ts$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/**
 * Each source file under `dir` with the files under `dir` it imports: static, type-only, re-exports and `import()`
 * alike, since each ties one file to another. Paths are relative to `dir`, with `/`.
 */
export function importGraph(dir, tsconfig) {
  const root = resolve(dir);
  const config = ts.readConfigFile(resolve(tsconfig), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(resolve(tsconfig)));
  const name = (file) => relative(root, file).split(sep).join('/');
  const graph = new Map();
  for (const file of sources(root)) {
    const imported = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles;
    const targets = new Set();
    for (const { fileName } of imported) {
      const target = ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule?.resolvedFileName;
      if (target && resolve(target).startsWith(root + sep) && !target.includes(`${sep}node_modules${sep}`)) targets.add(name(resolve(target)));
    }
    graph.set(name(file), [...targets].sort());
  }
  return graph;
}

/** The import circles of a graph: each group of files that reach one another (Tarjan's algorithm), sorted; none when it has none. */
export function importCycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const cycles = [];
  let next = 0;
  const visit = (file) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file), low.get(to)));
      } else if (stack.includes(to)) low.set(file, Math.min(low.get(file), index.get(to)));
    }
    if (low.get(file) !== index.get(file)) return;
    const group = [];
    let member;
    do group.push((member = stack.pop()));
    while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** The source files under `dir` longer than `max` lines, with their lengths. */
export function longFiles(dir, max = 500) {
  const root = resolve(dir);
  return sources(root)
    .map((file) => ({ file: relative(root, file).split(sep).join('/'), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > max);
}
