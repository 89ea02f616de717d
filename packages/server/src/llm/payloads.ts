import { createHash } from 'node:crypto';
import type { StoredProperties } from '../capture/pipeline';
import type { PayloadPlace, StoredPayloads } from '../capture/store';
import type { Properties } from '../json';

/** The properties of an LLM event that carry its inputs and outputs: what may be stored apart. */
export const PAYLOAD_PROPERTIES = ['$ai_input', '$ai_output_choices', '$ai_output', '$ai_input_state', '$ai_output_state', '$ai_tools'] as const;

/**
 * A value (or a message of a list) whose JSON is longer than this is stored apart, once per project and distinct JSON:
 * smaller ones cost more as a row and a lookup than they take in their event's row.
 */
export const PAYLOAD_APART_MIN_CHARS = 1024;

/** SHA-256 of the JSON, 128 bits of it in base64url: no two values of a project alike by chance. */
const hashOf = (json: string) => createHash('sha256').update(json).digest('base64url').slice(0, 22);

/**
 * An LLM event's properties as stored (the step's `serialize`, at the door, before the event is measured): a value of
 * `PAYLOAD_PROPERTIES` over `PAYLOAD_APART_MIN_CHARS` of JSON is kept apart, with its hash in its place; in a list
 * (`$ai_input`'s messages, `$ai_tools`' tools) each message over it is, and the rest of the list stays, so that the
 * system prompt, the tool list and the history an agent sends again with every call are stored once, whatever the new
 * message. A list of small messages larger in all than the threshold is kept apart whole.
 */
export function storedLlmProperties(properties: Properties): StoredProperties {
  let stored: Properties | undefined;
  const places: PayloadPlace[] = [];
  const values: StoredPayloads['values'] = [];
  let bytes = 0;
  const apart = (property: string, index: number | null, json: string) => {
    const hash = hashOf(json);
    places.push([property, index, hash]);
    values.push({ hash, json });
    // The value's JSON in place of its hash's (`"` + 22 characters + `"`).
    bytes += Buffer.byteLength(json) - hash.length - 2;
    return hash;
  };
  for (const property of PAYLOAD_PROPERTIES) {
    if (!Object.hasOwn(properties, property)) continue;
    const value = properties[property];
    if (value === null || (typeof value !== 'object' && typeof value !== 'string')) continue;
    if (typeof value === 'string' && value.length <= PAYLOAD_APART_MIN_CHARS / 6) continue;
    let kept: unknown = value;
    if (Array.isArray(value)) {
      const jsons = value.map((item) => JSON.stringify(item) ?? 'null');
      if (jsons.some((json) => json.length > PAYLOAD_APART_MIN_CHARS)) {
        kept = jsons.map((json, i) => (json.length > PAYLOAD_APART_MIN_CHARS ? apart(property, i, json) : value[i]));
      } else if (jsons.reduce((sum, json) => sum + json.length + 1, 1) > PAYLOAD_APART_MIN_CHARS) {
        kept = apart(property, null, `[${jsons.join(',')}]`);
      }
    } else {
      const json = JSON.stringify(value);
      if (json.length > PAYLOAD_APART_MIN_CHARS) kept = apart(property, null, json);
    }
    // A copy made by spreading keeps the order of the keys; the values stored apart are their hashes in it.
    if (kept !== value) (stored ??= { ...properties })[property] = kept;
  }
  if (!stored) return { properties, json: JSON.stringify(properties), stacks: undefined };
  return { properties, json: JSON.stringify(stored), stacks: undefined, payloads: { places: JSON.stringify(places), values, bytes } };
}
