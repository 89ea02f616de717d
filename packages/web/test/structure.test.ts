// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, longFiles } from '@service/test-support/import-graph';

const src = fileURLToPath(new URL('../src', import.meta.url));
const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));

describe('source layout', () => {
  it('has no import circles, type-only imports included', () => {
    const graph = importGraph(src, tsconfig);
    // features reach the shared kit and the API client, never the other way
    expect(graph.get('features/flags/api.ts')).toEqual(expect.arrayContaining(['api/client.ts']));
    expect(importCycles(graph)).toEqual([]);
  });

  it('has no source file over 500 lines but the generated API types', () => {
    expect(longFiles(src).filter((f) => f.file !== 'api/schema.gen.ts')).toEqual([]);
  });
});
