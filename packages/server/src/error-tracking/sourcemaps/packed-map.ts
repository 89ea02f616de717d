/**
 * A decoded source map in one ArrayBuffer: what the decoding worker (`decode.ts`) sends back to the event loop, by
 * transfer rather than copy, and what the resolver caches. Its size in memory is its `byteLength` and nothing more
 * (arrays of arrays, as libraries decode maps, cost tens of bytes a segment and leave the garbage collector millions of
 * small objects to trace); lookups are binary searches on typed arrays.
 *
 * Layout, after a header of HEADER counts (segments S, generated lines L, names N, sources R, content entries E, text
 * bytes T), in 4-byte words unless said:
 * - segments: 5 Int32 each, `[generated column, source, original line, original column, name]`, -1 where absent, by
 *   generated line, each line's by column;
 * - lineStarts (L + 1): the index of each generated line's first segment, then S;
 * - stringStarts (N + R + 1): the byte offsets in `text` of the names, then of the sources, then the end;
 * - contentIndex (R + 1): where each source's entries start in `contentStarts` (none: no content);
 * - contentStarts (E): per source with content, the byte offset in `text` of each of its lines, then of its end;
 * - text (T bytes): names, sources and contents, UTF-8.
 */

const HEADER = 6;
const FIELDS = 5;
const LF = 0x0a;
const CR = 0x0d;

/** What `packMap` is given: the segments and line starts as decoded, and the strings. */
export interface MapParts {
  /** `FIELDS` numbers a segment (see the layout); may be longer than the segments it holds. */
  segments: Int32Array;
  segmentCount: number;
  lineStarts: Uint32Array;
  names: readonly string[];
  sources: readonly string[];
  contents: readonly (string | null)[];
}

/** The line breaks of `text` (`\r\n`, `\r` or `\n`), as JavaScript's split counts them: its number of lines less one. */
export function lineBreaks(text: string): number {
  let breaks = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) breaks++;
  }
  return breaks;
}

/** Packs a decoded map into one ArrayBuffer (see the layout). */
export function packMap(parts: MapParts): ArrayBuffer {
  const { segmentCount, lineStarts, names, sources, contents } = parts;
  const strings = [...names, ...sources];
  const stringBytes = strings.map((s) => Buffer.byteLength(s));
  const contentBytes = contents.map((c) => (c === null ? 0 : Buffer.byteLength(c)));
  const contentEntries = contents.reduce((sum, c) => sum + (c === null ? 0 : lineBreaks(c) + 2), 0);
  const textBytes = [...stringBytes, ...contentBytes].reduce((a, b) => a + b, 0);
  const words = HEADER + FIELDS * segmentCount + lineStarts.length + strings.length + 1 + sources.length + 1 + contentEntries;
  const buffer = new ArrayBuffer(words * 4 + textBytes);
  const header = new Uint32Array(buffer, 0, HEADER);
  header.set([segmentCount, lineStarts.length - 1, names.length, sources.length, contentEntries, textBytes]);
  const view = new PackedMap(buffer);
  view.segments.set(parts.segments.subarray(0, FIELDS * segmentCount));
  view.lineStarts.set(lineStarts);
  const text = Buffer.from(buffer, words * 4, textBytes);
  let at = 0;
  strings.forEach((s, i) => {
    view.stringStarts[i] = at;
    at += text.write(s, at);
  });
  view.stringStarts[strings.length] = at;
  let entry = 0;
  contents.forEach((content, s) => {
    view.contentIndex[s] = entry;
    if (content === null) return;
    const start = at;
    at += text.write(content, at);
    view.contentStarts[entry++] = start;
    for (let i = start; i < at; i++) {
      const b = text[i];
      if (b === LF || (b === CR && text[i + 1] !== LF)) view.contentStarts[entry++] = i + 1;
    }
    view.contentStarts[entry++] = at;
  });
  view.contentIndex[sources.length] = entry;
  return buffer;
}

/** Where a generated position maps to: indexes into the map's sources and names (-1: no name), 0-based line and column. */
export interface Mapping {
  source: number;
  line: number;
  column: number;
  name: number;
}

/** Reads a map packed by `packMap`. */
export class PackedMap {
  readonly segments: Int32Array;
  readonly lineStarts: Uint32Array;
  readonly stringStarts: Uint32Array;
  readonly contentIndex: Uint32Array;
  readonly contentStarts: Uint32Array;
  private readonly text: Buffer;
  private readonly nameCount: number;

  constructor(readonly buffer: ArrayBuffer) {
    const [segments, lines, names, sources, entries, textBytes] = new Uint32Array(buffer, 0, HEADER) as unknown as number[];
    let at = HEADER * 4;
    const take = (words: number) => ((at += words * 4), at - words * 4);
    this.segments = new Int32Array(buffer, take(FIELDS * segments!), FIELDS * segments!);
    this.lineStarts = new Uint32Array(buffer, take(lines! + 1), lines! + 1);
    this.stringStarts = new Uint32Array(buffer, take(names! + sources! + 1), names! + sources! + 1);
    this.contentIndex = new Uint32Array(buffer, take(sources! + 1), sources! + 1);
    this.contentStarts = new Uint32Array(buffer, take(entries!), entries!);
    this.text = Buffer.from(buffer, at, textBytes);
    this.nameCount = names!;
  }

  /** Bytes the map takes in memory. */
  get bytes(): number {
    return this.buffer.byteLength;
  }

  get sourceCount(): number {
    return this.contentIndex.length - 1;
  }

  /**
   * The mapping of the segment at a generated position (0-based), found as `@jridgewell/trace-mapping`'s `traceSegment`
   * finds it: the last segment of the line at or before the column (of several at one column, the first); undefined
   * when there is none, or it maps to no source.
   */
  mappingAt(line: number, column: number): Mapping | undefined {
    if (line >= this.lineStarts.length - 1) return undefined;
    const first = this.lineStarts[line]!;
    let low = first;
    let high = this.lineStarts[line + 1]! - 1;
    const columnOf = (i: number) => this.segments[i * FIELDS]!;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if (columnOf(mid) <= column) low = mid + 1;
      else high = mid - 1;
    }
    let index = high;
    if (index < first) return undefined;
    if (columnOf(index) === column) while (index > first && columnOf(index - 1) === column) index--;
    const s = this.segments.subarray(index * FIELDS, index * FIELDS + FIELDS);
    return s[1]! < 0 ? undefined : { source: s[1]!, line: s[2]!, column: s[3]!, name: s[4]! };
  }

  /** The name of a segment that starts exactly at a generated position (0-based): what the minifier renamed there. */
  nameAt(line: number, column: number): string | undefined {
    if (line >= this.lineStarts.length - 1) return undefined;
    let low = this.lineStarts[line]!;
    let high = this.lineStarts[line + 1]! - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if (this.segments[mid * FIELDS]! < column) low = mid + 1;
      else high = mid - 1;
    }
    for (let i = low; i < this.lineStarts[line + 1]! && this.segments[i * FIELDS] === column; i++) {
      const name = this.name(this.segments[i * FIELDS + 4]!);
      if (name !== undefined) return name;
    }
    return undefined;
  }

  name(index: number): string | undefined {
    return index >= 0 && index < this.nameCount ? this.string(index) : undefined;
  }

  /** The source's name as the map resolves it (its `sourceRoot` and path). */
  source(index: number): string {
    return this.string(this.nameCount + index);
  }

  /** The number of lines of a source's content; undefined when the map has none. */
  contentLines(source: number): number | undefined {
    const entries = this.contentIndex[source + 1]! - this.contentIndex[source]!;
    return entries ? entries - 1 : undefined;
  }

  /** A line (0-based) of a source's content, without its line break, cut to `maxChars`. */
  contentLine(source: number, line: number, maxChars: number): string {
    const entry = this.contentIndex[source]! + line;
    let end = this.contentStarts[entry + 1]!;
    const start = this.contentStarts[entry]!;
    if (end > start && this.text[end - 1] === LF) end--;
    if (end > start && this.text[end - 1] === CR) end--;
    // A UTF-16 unit takes at most 3 bytes: 3 more than 3 * maxChars bytes hold the first maxChars units whole.
    const text = this.text.toString('utf8', start, Math.min(end, start + 3 * maxChars + 3));
    return text.length > maxChars ? text.slice(0, maxChars) : text;
  }

  private string(index: number): string {
    return this.text.toString('utf8', this.stringStarts[index]!, this.stringStarts[index + 1]!);
  }
}
