import { encode, type SourceMapSegment } from '@jridgewell/sourcemap-codec';
import { FlattenMap, traceSegment, TraceMap, type SectionedSourceMapInput } from '@jridgewell/trace-mapping';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSourceMap } from '../src/error-tracking/sourcemaps/decode';
import { PackedMap } from '../src/error-tracking/sourcemaps/packed-map';

const LIMITS = { maxSegments: 1_000_000, maxLines: 1_000_000 };

const decoded = (text: string) => {
  const result = decodeSourceMap(text, LIMITS);
  if (!('packed' in result)) throw new Error(result.invalid);
  return new PackedMap(result.packed);
};

/** A plain map with up to 3 sources and names, whose lines have segments in any column order (as some tools write). */
const plainMap = fc
  .record({ sources: fc.integer({ min: 1, max: 3 }), names: fc.integer({ min: 0, max: 3 }), root: fc.constantFrom(undefined, '', 'webpack:///', 'app') })
  .chain(({ sources, names, root }) =>
    fc.record({
      version: fc.constant(3 as const),
      sourceRoot: fc.constant(root),
      sources: fc.constant(Array.from({ length: sources }, (_, i) => [`./src/a${i}.ts`, `../lib/b${i}.js`, `c${i}.ts`][i % 3]!)),
      names: fc.constant(Array.from({ length: names }, (_, i) => `name${i}`)),
      sourcesContent: fc.constant(Array.from({ length: sources }, (_, i) => (i === 1 ? null : `line 0 of ${i}\r\nline 1\nline 2\rline 3 é ✓ 𝄞\n`))),
      mappings: fc
        .array(
          fc.array(
            fc.oneof(
              fc.tuple(fc.integer({ min: 0, max: 40 })),
              fc.tuple(
                fc.integer({ min: 0, max: 40 }),
                fc.integer({ min: 0, max: sources - 1 }),
                fc.integer({ min: 0, max: 9 }),
                fc.integer({ min: 0, max: 40 }),
              ),
              ...(names
                ? [
                    fc.tuple(
                      fc.integer({ min: 0, max: 40 }),
                      fc.integer({ min: 0, max: sources - 1 }),
                      fc.integer({ min: 0, max: 9 }),
                      fc.integer({ min: 0, max: 40 }),
                      fc.integer({ min: 0, max: names - 1 }),
                    ),
                  ]
                : []),
            ),
            { maxLength: 6 },
          ),
          { maxLength: 5 },
        )
        .map((lines) => encode(lines as SourceMapSegment[][])),
    }),
  );

/** What trace-mapping finds at every position of the first lines, in the packed map's terms. */
function positions(lookup: (line: number, column: number) => ReturnType<PackedMap['mappingAt']>, lines: number) {
  const found = [];
  for (let line = 0; line < lines; line++) for (let column = 0; column < 90; column++) found.push(lookup(line, column));
  return found;
}

function traced(map: TraceMap) {
  return (line: number, column: number) => {
    const segment = traceSegment(map, line, column);
    if (!segment || segment.length === 1) return undefined;
    return { source: segment[1], line: segment[2], column: segment[3], name: segment.length === 5 ? segment[4] : -1 };
  };
}

describe('decoding source maps into packed maps', () => {
  it('finds at every position what trace-mapping finds, with its sources, names and content lines', () => {
    fc.assert(
      fc.property(plainMap, (map) => {
        const text = JSON.stringify(map);
        const packed = decoded(text);
        const reference = new TraceMap(text);
        expect(positions((l, c) => packed.mappingAt(l, c), 7)).toEqual(positions(traced(reference), 7));
        expect(Array.from({ length: packed.sourceCount }, (_, i) => packed.source(i))).toEqual(reference.resolvedSources);
        expect(map.names.map((_, i) => packed.name(i))).toEqual(map.names);
        map.sourcesContent.forEach((content, i) => {
          const lines = content?.split(/\r\n|\r|\n/);
          expect(packed.contentLines(i)).toBe(lines?.length);
          if (lines) expect(lines.map((_, l) => packed.contentLine(i, l, 1024))).toEqual(lines);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('flattens sections as trace-mapping does, each cut where the next begins', () => {
    const sectioned = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 30 }), plainMap), { minLength: 1, maxLength: 3 })
      .map((parts) => {
        let line = 0;
        let column = 0;
        const sections = parts.map(([lineStep, columnStep, map]) => {
          line += lineStep;
          column = lineStep ? columnStep : column + columnStep;
          return { offset: { line, column }, map };
        });
        return { version: 3 as const, sections };
      });
    fc.assert(
      fc.property(sectioned, (map) => {
        const text = JSON.stringify(map);
        const packed = decoded(text);
        const reference = new FlattenMap(map as unknown as SectionedSourceMapInput);
        expect(positions((l, c) => packed.mappingAt(l, c), 12)).toEqual(positions(traced(reference), 12));
        expect(Array.from({ length: packed.sourceCount }, (_, i) => packed.source(i))).toEqual(reference.resolvedSources);
      }),
      { numRuns: 200 },
    );
  });

  it('takes as many bytes as its segments, lines and strings need, and no more', () => {
    const map = { version: 3, sources: ['a.js'], names: ['n'], mappings: `AAAAA,${'CAAA,'.repeat(999)}CAAA;;`, sourcesContent: ['x\ny'] };
    const packed = decoded(JSON.stringify(map));
    // 6 header words; 1,001 segments of 5 words; 4 line starts; 3 string starts; 2 content indexes; 3 content starts; 8 bytes of text.
    expect(packed.bytes).toBe(4 * (6 + 5 * 1001 + 4 + 3 + 2 + 3) + 8);
  });

  it('cuts a long line of content to the characters asked for, a multibyte one whole', () => {
    const line = '✓'.repeat(3000);
    const packed = decoded(JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings: 'AAAA', sourcesContent: [line] }));
    expect(packed.contentLine(0, 0, 1024)).toBe('✓'.repeat(1024));
  });
});
