import resolveUri from '@jridgewell/resolve-uri';
import { lineBreaks, packMap } from './packed-map';

/**
 * Reading a source map's JSON text into a `PackedMap` (packed-map.ts), in the decoding worker (pool.ts): checked field
 * by field, its `mappings` decoded and checked in one pass straight into typed arrays. Libraries that decode mappings
 * (`@jridgewell/sourcemap-codec`) make an array per segment and take any character as a digit; this refuses what is not
 * base64, a number left unfinished, a segment that points outside `sources` or `names`, and counts segments and lines
 * against the limits before it allocates anything. Nothing here recurses: sections may not nest (the spec allows none).
 */

/** Limits on what a map decodes to (`SOURCEMAP_MAX_SEGMENTS`, `SOURCEMAP_MAX_LINES`). */
export interface SourceMapLimits {
  /** Segments of `mappings`. */
  maxSegments: number;
  /** Lines of the generated file (`mappings`) and of the sources' content together. */
  maxLines: number;
}

/** Why a text is not a map the service takes (`tooLarge`: past a limit). */
export type Refusal = { invalid: string; tooLarge: boolean };
/** A decoded map (see packed-map.ts), or its refusal. */
export type Decoded = { packed: ArrayBuffer } | Refusal;

class Refused extends Error {
  constructor(
    readonly detail: string,
    readonly tooLarge = false,
  ) {
    super(detail);
  }
}

/** A map without sections, its fields checked. */
interface PlainMap {
  mappings: string;
  sources: (string | null)[];
  names: string[];
  sourcesContent?: (string | null)[];
  sourceRoot?: string | null;
}

/** A plain map placed at a generated line and column (a whole map: one at 0, 0). */
interface Section {
  line: number;
  column: number;
  map: PlainMap;
  path: string;
}

const FIELDS = 5;
const COMMA = 0x2c;
const SEMICOLON = 0x3b;
const CONTINUES = 0x20;
const MAX_INT32 = 2 ** 31 - 1;
/** The weight of a VLQ's seventh digit: 7 digits carry a sign and 34 bits, more than an Int32 needs. */
const MAX_SCALE = 32 ** 6;
const BASE64 = new Int8Array(128).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) BASE64[c.charCodeAt(0)] = i;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringOrNull = (value: unknown) => value === null || typeof value === 'string';
const isPosition = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_INT32;

/** Checks the fields of a map without sections; `path` names where it is (`sections[2].map.`). */
function plainMap(m: Record<string, unknown>, path: string): PlainMap {
  const field = (name: string) => `"${path}${name}"`;
  if (m.version !== 3) throw new Refused(`${field('version')} is not 3`);
  if (typeof m.mappings !== 'string') throw new Refused(`${field('mappings')} is not a string`);
  if (!Array.isArray(m.sources) || !m.sources.every(isStringOrNull)) throw new Refused(`${field('sources')} is not a list of strings`);
  if (m.names !== undefined && !(Array.isArray(m.names) && m.names.every((n) => typeof n === 'string')))
    throw new Refused(`${field('names')} is not a list of strings`);
  if (m.sourcesContent !== undefined && m.sourcesContent !== null && !(Array.isArray(m.sourcesContent) && m.sourcesContent.every(isStringOrNull))) {
    throw new Refused(`${field('sourcesContent')} is not a list of strings`);
  }
  if (m.sourceRoot !== undefined && m.sourceRoot !== null && typeof m.sourceRoot !== 'string') throw new Refused(`${field('sourceRoot')} is not a string`);
  return { ...(m as unknown as PlainMap), names: (m.names as string[] | undefined) ?? [] };
}

/** The plain maps a map is made of, in order: itself, or its sections (whose maps may not have sections). */
function sectionsOf(json: unknown): Section[] {
  if (!isObject(json)) throw new Refused('not a JSON object');
  if (json.sections === undefined) return [{ line: 0, column: 0, map: plainMap(json, ''), path: '' }];
  if (json.version !== 3) throw new Refused('"version" is not 3');
  if (!Array.isArray(json.sections)) throw new Refused('"sections" is not a list');
  const sections = json.sections.map((section: unknown, i): Section => {
    const path = `sections[${i}]`;
    if (!isObject(section)) throw new Refused(`"${path}" is not an object`);
    const { offset, map } = section;
    if (!isObject(offset) || !isPosition(offset.line) || !isPosition(offset.column)) throw new Refused(`"${path}.offset" is not a line and a column`);
    if (!isObject(map)) throw new Refused(`"${path}.map" is not a JSON object`);
    if (map.sections !== undefined) throw new Refused(`"${path}.map" has sections: sections may not nest`);
    return { line: offset.line, column: offset.column, map: plainMap(map, `${path}.map.`), path: `${path}.map.` };
  });
  sections.forEach((s, i) => {
    const before = sections[i - 1];
    if (before && (s.line < before.line || (s.line === before.line && s.column < before.column)))
      throw new Refused(`"sections[${i}].offset" comes before the section above it`);
  });
  return sections;
}

/** The segments and lines of `mappings`, counted before anything is decoded (an empty segment, `,,`, is none). */
function countOf(mappings: string): { segments: number; lines: number } {
  let segments = 0;
  let lines = 1;
  let inSegment = false;
  for (let i = 0; i < mappings.length; i++) {
    const c = mappings.charCodeAt(i);
    if (c === SEMICOLON) lines++;
    if (c === SEMICOLON || c === COMMA) inSegment = false;
    else if (!inSegment) {
      segments++;
      inSegment = true;
    }
  }
  return { segments, lines };
}

/** Segments written by generated line; a run of one input line whose columns go back is sorted once it ends. */
class Segments {
  readonly segments: Int32Array;
  readonly lineStarts: Uint32Array;
  count = 0;
  private line = 0;
  private runStart = 0;
  private sorted = true;

  constructor(maxSegments: number, lines: number) {
    this.segments = new Int32Array(FIELDS * maxSegments);
    this.lineStarts = new Uint32Array(lines + 1);
  }

  add(line: number, column: number, source: number, sourceLine: number, sourceColumn: number, name: number) {
    if (line !== this.line) {
      this.endRun();
      this.lineStarts.fill(this.count, this.line + 1, line + 1);
      this.line = line;
    }
    const s = this.segments;
    const at = FIELDS * this.count;
    if (this.count > this.runStart && s[at - FIELDS]! > column) this.sorted = false;
    s[at] = column;
    s[at + 1] = source;
    s[at + 2] = sourceLine;
    s[at + 3] = sourceColumn;
    s[at + 4] = name;
    this.count++;
  }

  /** Ends the run of segments of one input line (`@jridgewell/sourcemap-codec` sorts each line the same way, stably). */
  endRun() {
    if (!this.sorted) {
      const run = this.segments.slice(FIELDS * this.runStart, FIELDS * this.count);
      const order = Array.from({ length: this.count - this.runStart }, (_, i) => i).sort((a, b) => run[FIELDS * a]! - run[FIELDS * b]! || a - b);
      order.forEach((from, to) => this.segments.set(run.subarray(FIELDS * from, FIELDS * from + FIELDS), FIELDS * (this.runStart + to)));
    }
    this.runStart = this.count;
    this.sorted = true;
  }

  finish() {
    this.endRun();
    this.lineStarts.fill(this.count, this.line + 1);
  }
}

/**
 * Decodes a section's `mappings` into `out`, its sources and names numbered after `sourceBase` and `nameBase`; segments
 * at or past `stop` (the next section's offset) are checked but left out, as `FlattenMap` of trace-mapping does.
 */
function decodeSection(out: Segments, section: Section, sourceBase: number, nameBase: number, stop: { line: number; column: number }) {
  const { mappings, sources, names } = section.map;
  const refuse = (what: string) => new Refused(`"${section.path}mappings" ${what}`);
  const inRange = (n: number) => n >= 0 && n <= MAX_INT32;
  const fields = new Float64Array(FIELDS);
  let fieldCount = 0;
  let value = 0;
  let scale = 1;
  let line = 0;
  let column = 0;
  let source = 0;
  let sourceLine = 0;
  let sourceColumn = 0;
  let name = 0;
  for (let i = 0; i <= mappings.length; i++) {
    const c = i < mappings.length ? mappings.charCodeAt(i) : SEMICOLON;
    if (c === COMMA || c === SEMICOLON) {
      if (scale !== 1) throw refuse(`ends a number unfinished at ${i} (its last base64 digit says more follow)`);
      if (fieldCount) {
        if (fieldCount !== 1 && fieldCount !== 4 && fieldCount !== 5) throw refuse(`has a segment of ${fieldCount} numbers before ${i} (1, 4 or 5)`);
        column += fields[0]!;
        const outLine = section.line + line;
        const outColumn = column + (line === 0 ? section.column : 0);
        if (!inRange(column) || !inRange(outColumn)) throw refuse(`has a column out of range before ${i}`);
        let mappedSource = -1;
        let mappedName = -1;
        if (fieldCount >= 4) {
          source += fields[1]!;
          sourceLine += fields[2]!;
          sourceColumn += fields[3]!;
          if (!(source >= 0 && source < sources.length)) throw refuse(`points to a source that is not in "sources" before ${i}`);
          if (!inRange(sourceLine) || !inRange(sourceColumn)) throw refuse(`has an original line or column out of range before ${i}`);
          mappedSource = sourceBase + source;
        }
        if (fieldCount === 5) {
          name += fields[4]!;
          if (!(name >= 0 && name < names.length)) throw refuse(`points to a name that is not in "names" before ${i}`);
          mappedName = nameBase + name;
        }
        if (outLine < stop.line || (outLine === stop.line && outColumn < stop.column)) {
          out.add(outLine, outColumn, mappedSource, mappedSource < 0 ? -1 : sourceLine, mappedSource < 0 ? -1 : sourceColumn, mappedName);
        }
        fieldCount = 0;
      }
      if (c === SEMICOLON) {
        out.endRun();
        line++;
        column = 0;
      }
      continue;
    }
    const digit = c < 128 ? BASE64[c]! : -1;
    if (digit < 0) throw refuse(`has ${JSON.stringify(String.fromCharCode(c))} at ${i}, which is not a base64 digit, "," or ";"`);
    value += (digit & 31) * scale;
    if (digit & CONTINUES) {
      scale *= 32;
      if (scale > MAX_SCALE) throw refuse(`has a number out of range at ${i}`);
      continue;
    }
    if (fieldCount === FIELDS) throw refuse(`has a segment of more than 5 numbers at ${i}`);
    fields[fieldCount++] = value % 2 ? -(value - 1) / 2 : value / 2;
    value = 0;
    scale = 1;
  }
}

/** A source's name as trace-mapping resolves it: `sourceRoot` and the path, normalized. */
const resolver = (sourceRoot: string | null | undefined) => {
  const prefix = sourceRoot ? `${sourceRoot}/` : '';
  return (source: string | null) => resolveUri(prefix + (source ?? ''), '');
};

/** Parses, checks and decodes a source map's JSON text (see the top of this file). */
export function decodeSourceMap(text: string, limits: SourceMapLimits): Decoded {
  try {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Refused('not JSON');
    }
    const sections = sectionsOf(json);
    let segmentCount = 0;
    let lines = 0;
    for (const section of sections) {
      const count = countOf(section.map.mappings);
      segmentCount += count.segments;
      lines = Math.max(lines, section.line + count.lines);
    }
    const contents = sections.flatMap(({ map }) => map.sources.map((_, i) => map.sourcesContent?.[i] ?? null));
    const contentLines = contents.reduce((sum, c) => sum + (c === null ? 0 : lineBreaks(c) + 1), 0);
    if (segmentCount > limits.maxSegments) throw new Refused(`"mappings" has ${segmentCount} segments, over the limit of ${limits.maxSegments}`, true);
    if (lines + contentLines > limits.maxLines) {
      throw new Refused(`its generated file and sources have ${lines + contentLines} lines, over the limit of ${limits.maxLines}`, true);
    }
    const out = new Segments(segmentCount, lines);
    let sourceBase = 0;
    let nameBase = 0;
    sections.forEach((section, i) => {
      const next = sections[i + 1] ?? { line: Infinity, column: 0 };
      decodeSection(out, section, sourceBase, nameBase, next);
      out.endRun();
      sourceBase += section.map.sources.length;
      nameBase += section.map.names.length;
    });
    out.finish();
    const packed = packMap({
      segments: out.segments,
      segmentCount: out.count,
      lineStarts: out.lineStarts,
      names: sections.flatMap(({ map }) => map.names),
      sources: sections.flatMap(({ map }) => map.sources.map(resolver(map.sourceRoot))),
      contents,
    });
    return { packed };
  } catch (error) {
    if (error instanceof Refused) return { invalid: error.detail, tooLarge: error.tooLarge };
    throw error;
  }
}
