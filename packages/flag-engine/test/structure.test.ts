import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, longFiles } from '@service/test-support/import-graph';

const src = fileURLToPath(new URL('../src', import.meta.url));
const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));

describe('source layout', () => {
  it('has no import circles, type-only imports included (the compiled form lives in types.ts, which compile.ts and evaluate.ts share)', () => {
    const graph = importGraph(src, tsconfig);
    expect(graph.get('evaluate.ts')).toContain('types.ts');
    expect(importCycles(graph)).toEqual([]);
  });

  it('has no source file over 500 lines', () => {
    expect(longFiles(src)).toEqual([]);
  });
});
