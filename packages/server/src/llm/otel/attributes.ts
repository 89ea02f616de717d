import { SpanError, type Attributes, type AttrValue } from './spans';

/**
 * A span's attributes read by the types the GenAI conventions give them: a value of another type refuses the span
 * (`SpanError`), an absent or empty one is undefined. Texts that hold JSON (messages, tool lists) are parsed, and kept as
 * text when they are not JSON.
 */
export class Attrs {
  constructor(readonly values: Attributes) {}

  private get(key: string): Exclude<AttrValue, null> | undefined {
    const value = this.values[key];
    return value === null || value === '' ? undefined : value;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  str(key: string): string | undefined {
    const value = this.get(key);
    if (value === undefined || typeof value === 'string') return value;
    throw new SpanError(`its attribute ${key} is not a string`);
  }

  /** An id: a string, or an integer as sent by code that counts its users. */
  id(key: string): string | undefined {
    const value = this.get(key);
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    return this.str(key);
  }

  /** A token count: an integer, 0 or more. */
  count(key: string): number | undefined {
    const value = this.get(key);
    if (value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)) return value;
    throw new SpanError(`its attribute ${key} is not a count (an integer, 0 or more)`);
  }

  num(key: string): number | undefined {
    const value = this.get(key);
    if (value === undefined || (typeof value === 'number' && Number.isFinite(value))) return value;
    throw new SpanError(`its attribute ${key} is not a number`);
  }

  /** A list of strings; a single string is a list of one. */
  strs(key: string): string[] | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    if (typeof value === 'string') return [value];
    if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string')) return value;
    throw new SpanError(`its attribute ${key} is not a list of strings`);
  }

  /** JSON sent as text (the usual way: attribute values are flat), or as a structured value. */
  json(key: string): unknown {
    const value = this.get(key);
    return typeof value === 'string' ? parsedOrText(value) : value;
  }

  /** A list whose items are JSON texts (`ai.prompt.tools`, `ai.values`). */
  jsonList(key: string): unknown[] | undefined {
    return this.strs(key)?.map(parsedOrText);
  }

  /** Whether a key starts with one of `prefixes`. */
  anyStartsWith(prefixes: readonly string[]): boolean {
    for (const key in this.values) if (prefixes.some((p) => key.startsWith(p))) return true;
    return false;
  }
}

/** JSON text as its value; any other text (or JSON nested past what the parser takes) as itself. */
export function parsedOrText(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[' && first !== '"') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
