import { Parser, type AnyNode, type Expression, type Function as FunctionNode, type Pattern, type Program } from 'acorn';
import { ancestor } from 'acorn-walk';
import type { Refusal } from './decode';

/**
 * The functions of a minified file, read in the source map worker (pool.ts) when the file is uploaded beside its map,
 * and packed into one ArrayBuffer that is stored with the map and read by binary search: which function encloses a
 * stack frame's position, and where the minifier wrote that function's name. A frame is named by that function (the
 * map gives the name's original at that place), not by the call that reached it: a component called through a
 * variable (`const draw = views[name]; draw(cart)`) is `renderCart`, not `draw`.
 *
 * A function's name is where the code writes it: its own (`function a(…)`), else the variable, property, or
 * assignment it is the value of (`const a = () => …`, `{load() {…}}`, `x.y.z = function () {…}`), a class member's
 * with its class's (`Cart.render`). A function without one (a callback passed as an argument) is anonymous.
 *
 * Layout, after a header of HEADER counts (scopes S, name parts P, text bytes T), in 4-byte words unless said:
 * - scopes: SCOPE_FIELDS Int32 each, `[start line, start column, end line, end column, parent, first name part]`, by
 *   start (an enclosing scope before those it holds), positions 0-based in UTF-16 units as stack frames and maps
 *   count them, the end excluded; parent -1 for a scope no other holds;
 * - parts: 2 Int32 each, the generated line and column of a name part (`Cart`, `render`);
 * - partStarts (P + 1): the byte offsets in `text` of each part's generated text, then the end;
 * - text (T bytes): the parts' generated text, UTF-8.
 */

const HEADER = 3;
const SCOPE_FIELDS = 6;
/** Name parts kept of a long chain (`a.b.c.d.e = function () {}` keeps the last ones). */
const MAX_PARTS = 4;

/** A name part as the generated code writes it: its offset and text. */
interface Part {
  at: number;
  text: string;
}

/** What the walk finds: a function's range (offsets, the end excluded) and its name parts. */
interface Found {
  start: number;
  end: number;
  parts: Part[];
}

/** Where and what a name part is in the generated file: 0-based line and column, and its text. */
export interface NamePart {
  line: number;
  column: number;
  text: string;
}

/** The text of a property key written as a name (`a`, `"a"`, `1`, `#a`); undefined for a computed one. */
function keyPart(key: AnyNode, computed: boolean): Part | undefined {
  if (computed) return undefined;
  if (key.type === 'Identifier') return { at: key.start, text: key.name };
  if (key.type === 'PrivateIdentifier') return { at: key.start, text: `#${key.name}` };
  if (key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number')) return { at: key.start, text: String(key.value) };
  return undefined;
}

/** The names of an assignment's target (`a.b.c` → a, b, c; `this.x` → x); [] when it is not a chain of names. */
function targetParts(target: Pattern | Expression): Part[] {
  const parts: Part[] = [];
  let node: AnyNode = target;
  while (parts.length < MAX_PARTS) {
    if (node.type === 'Identifier') {
      parts.unshift({ at: node.start, text: node.name });
      break;
    }
    if (node.type !== 'MemberExpression') break;
    const part = keyPart(node.property, node.computed);
    if (!part) return parts;
    parts.unshift(part);
    node = node.object;
  }
  return parts;
}

/**
 * The name parts of a function or class `node`, whose ancestors (outermost first, `node` last) are `path`: its own
 * name, else the name it is given where it is written.
 */
function partsOf(node: AnyNode, path: readonly AnyNode[], at: number): Part[] {
  if ('id' in node && node.id?.type === 'Identifier') return [{ at: node.id.start, text: node.id.name }];
  const parent = path[at - 1];
  if (!parent) return [];
  switch (parent.type) {
    case 'VariableDeclarator':
      return parent.init === node && parent.id.type === 'Identifier' ? [{ at: parent.id.start, text: parent.id.name }] : [];
    case 'AssignmentExpression':
      return parent.right === node ? targetParts(parent.left) : [];
    case 'AssignmentPattern':
      return parent.right === node && parent.left.type === 'Identifier' ? [{ at: parent.left.start, text: parent.left.name }] : [];
    case 'Property': {
      const part = parent.value === node ? keyPart(parent.key, parent.computed) : undefined;
      return part ? [part] : [];
    }
    case 'MethodDefinition':
    case 'PropertyDefinition': {
      const part = parent.value === node ? keyPart(parent.key, parent.computed) : undefined;
      if (!part) return [];
      // The member's path: …, the class, its ClassBody, the member, `node`.
      const owner = path[at - 3];
      const classParts = owner?.type === 'ClassDeclaration' || owner?.type === 'ClassExpression' ? partsOf(owner, path, at - 3) : [];
      return [...classParts, part].slice(-MAX_PARTS);
    }
    default:
      return [];
  }
}

/** Parses a script or module: as a module first (import, export, strict), else as a script; the error of the one that read further. */
function parse(source: string): Program {
  const options = { ecmaVersion: 'latest', allowHashBang: true } as const;
  try {
    return Parser.parse(source, { ...options, sourceType: 'module' });
  } catch (asModule) {
    try {
      return Parser.parse(source, { ...options, sourceType: 'script', allowReturnOutsideFunction: true });
    } catch (asScript) {
      const pos = (error: unknown) => (error as { pos?: number }).pos ?? -1;
      throw pos(asScript) >= pos(asModule) ? asScript : asModule;
    }
  }
}

/** The offsets where each line starts, lines ending as JavaScript ends them (`\n`, `\r\n`, `\r`, U+2028, U+2029). */
function lineStartsOf(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x0a || c === 0x2028 || c === 0x2029 || (c === 0x0d && source.charCodeAt(i + 1) !== 0x0a)) starts.push(i + 1);
  }
  return starts;
}

/** Reads the functions of a minified file (its text) and packs them (see the layout); why not, when it does not parse. */
export function readFunctionScopes(source: string): { packed: ArrayBuffer } | Refusal {
  let program: Program;
  try {
    program = parse(source);
  } catch (error) {
    if (error instanceof RangeError) return { invalid: 'it nests too deeply to read', tooLarge: true };
    return { invalid: (error as Error).message, tooLarge: false };
  }
  const found: Found[] = [];
  try {
    ancestor(program, {
      Function(node: FunctionNode, _state: unknown, path: AnyNode[]) {
        found.push({ start: node.start, end: node.end, parts: partsOf(node as AnyNode, path, path.length - 1) });
      },
    });
  } catch (error) {
    if (error instanceof RangeError) return { invalid: 'it nests too deeply to read', tooLarge: true };
    throw error;
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  return { packed: pack(found, lineStartsOf(source)) };
}

function pack(found: Found[], lineStarts: number[]): ArrayBuffer {
  const texts = found.flatMap((f) => f.parts.map((p) => p.text));
  const textBytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
  const words = HEADER + SCOPE_FIELDS * found.length + 2 * texts.length + texts.length + 1;
  const buffer = new ArrayBuffer(words * 4 + textBytes);
  new Uint32Array(buffer, 0, HEADER).set([found.length, texts.length, textBytes]);
  const view = new FunctionScopes(buffer);
  const positionOf = (offset: number): [number, number] => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return [low, offset - lineStarts[low]!];
  };
  const open: number[] = [];
  const text = Buffer.from(buffer, words * 4, textBytes);
  let part = 0;
  let at = 0;
  found.forEach((f, i) => {
    while (open.length && found[open[open.length - 1]!]!.end <= f.start) open.pop();
    const [startLine, startColumn] = positionOf(f.start);
    const [endLine, endColumn] = positionOf(f.end);
    view.scopes.set([startLine, startColumn, endLine, endColumn, open.length ? open[open.length - 1]! : -1, part], SCOPE_FIELDS * i);
    for (const p of f.parts) {
      const [partLine, partColumn] = positionOf(p.at);
      view.parts.set([partLine, partColumn], 2 * part);
      view.partStarts[part++] = at;
      at += text.write(p.text, at);
    }
    open.push(i);
  });
  view.partStarts[part] = at;
  return buffer;
}

/** Reads the functions packed by `readFunctionScopes`. */
export class FunctionScopes {
  readonly scopes: Int32Array;
  readonly parts: Int32Array;
  readonly partStarts: Uint32Array;
  private readonly text: Buffer;

  /** Throws a RangeError when `buffer` is not laid out as its header says. */
  constructor(readonly buffer: ArrayBuffer) {
    const [scopes, parts, textBytes] = new Uint32Array(buffer, 0, HEADER) as unknown as number[];
    let at = HEADER * 4;
    const take = (words: number) => ((at += words * 4), at - words * 4);
    this.scopes = new Int32Array(buffer, take(SCOPE_FIELDS * scopes!), SCOPE_FIELDS * scopes!);
    this.parts = new Int32Array(buffer, take(2 * parts!), 2 * parts!);
    this.partStarts = new Uint32Array(buffer, take(parts! + 1), parts! + 1);
    this.text = Buffer.from(buffer, at, textBytes);
    if (at + textBytes! !== buffer.byteLength) throw new RangeError('the scopes are not laid out as their header says');
  }

  /** Bytes the scopes take in memory. */
  get bytes(): number {
    return this.buffer.byteLength;
  }

  get count(): number {
    return this.scopes.length / SCOPE_FIELDS;
  }

  /**
   * The name parts of the innermost function enclosing a generated position (0-based line and column): [] for an
   * anonymous function; undefined when no function encloses it (code run at the top of the file).
   */
  enclosing(line: number, column: number): NamePart[] | undefined {
    const s = this.scopes;
    const before = (i: number, l: number, c: number) => s[i]! < l || (s[i] === l && s[i + 1]! <= c);
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if (before(SCOPE_FIELDS * mid, line, column)) low = mid + 1;
      else high = mid - 1;
    }
    // The last scope that starts at or before the position, or one of those holding it.
    for (let i = high, steps = 0; i >= 0 && steps <= this.count; i = s[SCOPE_FIELDS * i + 4]!, steps++) {
      const f = SCOPE_FIELDS * i;
      if (s[f + 2]! > line || (s[f + 2] === line && s[f + 3]! > column)) return this.namePartsOf(i);
    }
    return undefined;
  }

  private namePartsOf(scope: number): NamePart[] {
    const first = this.scopes[SCOPE_FIELDS * scope + 5]!;
    const end = scope + 1 < this.count ? this.scopes[SCOPE_FIELDS * (scope + 1) + 5]! : this.partStarts.length - 1;
    const parts: NamePart[] = [];
    for (let p = first; p < end; p++) {
      parts.push({
        line: this.parts[2 * p]!,
        column: this.parts[2 * p + 1]!,
        text: this.text.toString('utf8', this.partStarts[p]!, this.partStarts[p + 1]!),
      });
    }
    return parts;
  }
}
