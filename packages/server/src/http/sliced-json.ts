import { Slices } from '../turns';

/** Members of a container are parsed together until their text reaches this many bytes. */
const SLICE_BYTES = 64 * 1024;
/**
 * UTF-8 JSON past this many bytes is parsed in slices by `parseJsonBytes`. V8 keeps a string past 128 KB in its
 * large-object space, in memory mapped afresh for each one, which can be slow to touch, so that parsing such a body
 * whole costs more than parsing it in slices; below 128 KB slicing costs more than it saves (`npm run bench -- json-parse`,
 * figures in bench/RESULTS.md).
 */
const WHOLE_PARSE_BYTES = 128 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_AND_NEXT = Buffer.from('},');

const invalid = () => new SyntaxError('Invalid JSON');

function skipSpace(bytes: Buffer, i: number): number {
  for (let b = bytes[i]; b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09; b = bytes[++i]);
  return i;
}

/** The index after the string whose opening quote is at `i`. */
function stringEnd(bytes: Buffer, i: number): number {
  for (i++; i < bytes.length; i++) {
    if (bytes[i] === QUOTE) return i + 1;
    if (bytes[i] === BACKSLASH) i++;
  }
  throw invalid();
}

/** The index of the comma or closing bracket that ends the member starting at `i` (strings skipped, brackets counted). */
function memberEnd(bytes: Buffer, i: number): number {
  let depth = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b === QUOTE) {
      i = stringEnd(bytes, i);
      continue;
    }
    if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
    else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      if (depth-- === 0) return i;
    } else if (b === COMMA && depth === 0) return i;
    i++;
  }
  throw invalid();
}

/** Sets an own property as JSON.parse does (`__proto__` included). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown) {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/**
 * A run of an array's elements from `i` (an element's start) found without scanning every byte, when the element is an
 * object: up to the first `},` followed by the element's own opening (`{"uuid":`, say: the elements of a batch begin
 * alike) some 64 KB on (within another 64 KB, so that a run stays short), or the last one when there is none; the run
 * is parsed and its elements pushed onto `items`. Returns the index of the next element, or -1 when no such run is
 * there. The guess is right exactly when the run parses: cut inside a string or a nested value, it would end in an
 * open string or bracket, which JSON.parse refuses (its grammar reads the same bytes the same way in the run as in the
 * whole text), and the caller then scans those bytes.
 */
async function guessedRun(bytes: Buffer, i: number, items: unknown[], slices: Slices): Promise<number> {
  if (bytes[i] !== OPEN_OBJECT || bytes[i + 1] !== QUOTE) return -1;
  const opening = bytes.subarray(i, stringEnd(bytes, i + 1) + 1);
  const apart = Buffer.concat([CLOSE_AND_NEXT, opening]);
  let cut = bytes.indexOf(apart, i + SLICE_BYTES);
  // Less than a run left: up to the last element (the rest of the text ends the array, or the guess fails).
  if (cut < 0) cut = bytes.lastIndexOf(apart);
  if (cut <= i || cut > i + 2 * SLICE_BYTES) return -1;
  let run: unknown[];
  try {
    run = JSON.parse(`[${bytes.toString('utf8', i, cut + 1)}]`) as unknown[];
  } catch {
    return -1;
  }
  for (const item of run) items.push(item);
  if (slices.over) await slices.next();
  return cut + 2;
}

/**
 * The array or object whose bracket is at `start`, and the index after it. Runs of members are parsed by JSON.parse
 * (which checks them); when `splitValues` (objects only), a member whose value is an array or object is parsed, in runs,
 * on its own.
 */
async function container(bytes: Buffer, start: number, splitValues: boolean, slices: Slices): Promise<[unknown, number]> {
  const isArray = bytes[start] === OPEN_ARRAY;
  const close = isArray ? CLOSE_ARRAY : CLOSE_OBJECT;
  const items: unknown[] = [];
  const fields: Record<string, unknown> = {};
  let runStart = -1;
  let runEnd = -1;
  const parseRun = async () => {
    if (runStart < 0) return;
    const text = bytes.toString('utf8', runStart, runEnd);
    runStart = -1;
    if (isArray) for (const item of JSON.parse(`[${text}]`) as unknown[]) items.push(item);
    else {
      const part = JSON.parse(`{${text}}`) as Record<string, unknown>;
      for (const key of Object.keys(part)) setOwn(fields, key, part[key]);
    }
    if (slices.over) await slices.next();
  };
  let i = skipSpace(bytes, start + 1);
  if (bytes[i] === close) return [isArray ? items : fields, i + 1];
  let guessing = isArray;
  for (;;) {
    if (guessing && runStart < 0) {
      const after = await guessedRun(bytes, i, items, slices);
      if (after > 0) {
        i = after;
        continue;
      }
      guessing = false;
    }
    let key = '';
    let valueStart = i;
    if (splitValues) {
      if (bytes[i] !== QUOTE) throw invalid();
      const keyEnd = stringEnd(bytes, i);
      key = JSON.parse(bytes.toString('utf8', i, keyEnd)) as string;
      const colon = skipSpace(bytes, keyEnd);
      if (bytes[colon] !== COLON) throw invalid();
      valueStart = skipSpace(bytes, colon + 1);
    }
    let end: number;
    if (splitValues && (bytes[valueStart] === OPEN_OBJECT || bytes[valueStart] === OPEN_ARRAY)) {
      await parseRun();
      const [value, after] = await container(bytes, valueStart, false, slices);
      if (isArray) items.push(value);
      else setOwn(fields, key, value);
      end = skipSpace(bytes, after);
    } else {
      end = memberEnd(bytes, i);
      if (end === i) throw invalid();
      if (runStart < 0) runStart = i;
      runEnd = end;
      if (runEnd - runStart >= SLICE_BYTES) await parseRun();
    }
    if (bytes[end] === close) {
      await parseRun();
      return [isArray ? items : fields, end + 1];
    }
    if (bytes[end] !== COMMA) throw invalid();
    i = skipSpace(bytes, end + 1);
  }
}

/**
 * The value of the JSON text in `bytes` (UTF-8), the same as JSON.parse gives, parsed in slices with turns of the event
 * loop between them, so that a body of many MB does not block it: a top-level array's elements, or a top-level object's
 * members and the elements of its array and object values, are parsed some 64 KB at a time. SyntaxError when invalid.
 */
export async function parseJsonInSlices(bytes: Buffer): Promise<unknown> {
  const slices = new Slices();
  await slices.begin();
  const start = skipSpace(bytes, 0);
  if (bytes[start] !== OPEN_OBJECT && bytes[start] !== OPEN_ARRAY) return JSON.parse(bytes.toString('utf8'));
  const [value, end] = await container(bytes, start, bytes[start] === OPEN_OBJECT, slices);
  if (skipSpace(bytes, end) !== bytes.length) throw invalid();
  return value;
}

/** The value of the JSON text in `bytes` (UTF-8): JSON.parse of it whole when small, else `parseJsonInSlices`. */
export const parseJsonBytes = (bytes: Buffer): unknown => (bytes.length > WHOLE_PARSE_BYTES ? parseJsonInSlices(bytes) : JSON.parse(bytes.toString('utf8')));
