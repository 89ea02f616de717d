// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importCycles, importGraph, longFiles } from '@service/test-support/import-graph'

const src = fileURLToPath(new URL('../src', import.meta.url))
const graph = importGraph(src, fileURLToPath(new URL('../tsconfig.json', import.meta.url)))

describe('source layout', () => {
  it('finds an import circle where there is one', () => {
    const circle = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ])
    expect(importCycles(circle)).toEqual([['a.ts', 'b.ts', 'c.ts']])
  })

  it('has no import circles, type-only imports included', () => {
    expect(graph.get('service.ts')).toEqual(expect.arrayContaining(['core/client.ts', 'flags/feature.ts', 'extensions/load.ts']))
    expect(importCycles(graph)).toEqual([])
  })

  it('keeps the core free of features: core/ imports core/ and the flag types only', () => {
    for (const [file, imports] of graph) {
      if (!file.startsWith('core/')) continue
      for (const imported of imports) expect([file, imported]).toEqual([file, expect.stringMatching(/^(core\/|flags\/types\.ts$|version\.ts$)/)])
    }
  })

  it('has one React hook per file, named as its file (use-feature-flag-enabled.ts: useFeatureFlagEnabled)', () => {
    const dir = `${src}/react`
    for (const file of readdirSync(dir)) {
      const hooks = [...readFileSync(`${dir}/${file}`, 'utf8').matchAll(/export (?:function|const) (use[A-Z]\w*)/g)].map((m) => m[1])
      const named = file.replace(/\.tsx?$/, '').replace(/-(\w)/g, (_, c: string) => c.toUpperCase())
      expect([file, hooks]).toEqual([file, file.startsWith('use-') ? [named] : []])
    }
  })

  it('has no source file over 500 lines', () => {
    expect(longFiles(src)).toEqual([])
  })
})
