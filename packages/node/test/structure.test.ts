import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, longFiles } from '@service/test-support/import-graph';

const src = fileURLToPath(new URL('../src', import.meta.url));
const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));

describe('source layout', () => {
  it('has no import circles, type-only imports included', () => {
    const graph = importGraph(src, tsconfig);
    // the client is a facade over the capture queue, the flag evaluator and the exception capture, none of which reach back
    expect(graph.get('client.ts')).toEqual(expect.arrayContaining(['events.ts', 'flags/evaluator.ts', 'exceptions/capture.ts']));
    expect(importCycles(graph)).toEqual([]);
  });

  it('has no source file over 500 lines', () => {
    expect(longFiles(src)).toEqual([]);
  });
});
