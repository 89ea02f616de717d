import { ValidationError } from './errors';

/** The properties of an event, a person or a group: a JSON object. */
export type Properties = Record<string, unknown>;

/** A JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * How deep a JSON body (and each captured event) may nest objects and arrays: `{}` is one level, `{"a": []}` two.
 * Deeper JSON is refused before anything walks it (JSON.stringify overflows the stack near 10,000 levels).
 */
export const MAX_JSON_DEPTH = 100;

/** True when `value` nests objects and arrays more than `max` levels deep. Recurses at most `max + 1` calls deep. */
export function jsonDepthExceeds(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (max <= 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (jsonDepthExceeds(item, max - 1)) return true;
    return false;
  }
  for (const key in value) if (jsonDepthExceeds((value as Record<string, unknown>)[key], max - 1)) return true;
  return false;
}

/**
 * A `max_depth` validation error when `value` nests deeper than MAX_JSON_DEPTH, with `attr` naming the top-level field through
 * which it does (after `prefix`, e.g. `batch__3`), or null when there is none; undefined when it does not.
 */
export function deepJsonError(value: unknown, prefix?: string): ValidationError | undefined {
  if (!jsonDepthExceeds(value, MAX_JSON_DEPTH)) return undefined;
  const field = isObject(value) ? Object.keys(value).find((key) => jsonDepthExceeds(value[key], MAX_JSON_DEPTH - 1)) : undefined;
  const attr = [prefix, field].filter((part) => part !== undefined).join('__');
  return new ValidationError(`JSON may nest at most ${MAX_JSON_DEPTH} levels deep.`, attr || null, 'max_depth');
}
