import { ValidationError } from '../errors';
import { parseFlagsRequest } from '../flag-evaluation/request';
import type { FlagsRequest } from '../flag-evaluation/service';
import { isObject } from '../json';

/**
 * Most attributes an evaluation context may carry (its own and its groups' properties together). Flag conditions read
 * a handful; a context past this is refused (INVALID_CONTEXT) before anything is copied or evaluated.
 */
export const MAX_CONTEXT_ATTRIBUTES = 1000;

/** The error codes of OFREP's 400 answers. */
export type OfrepRequestErrorCode = 'PARSE_ERROR' | 'TARGETING_KEY_MISSING' | 'INVALID_CONTEXT';

const invalid = (detail: string, code: OfrepRequestErrorCode, attr: string | null = 'context') => new ValidationError(detail, attr, code);

/** Counts an object's own keys, stopping once past `max`. */
function keysPast(object: Record<string, unknown>, max: number): boolean {
  let count = 0;
  for (const key in object) if (Object.hasOwn(object, key) && ++count > max) return true;
  return false;
}

/**
 * Reads an OFREP body, `{context: {targetingKey, groups?, groupProperties?, ...attributes}}`, as a `/flags` request:
 * `targetingKey` is the distinct id, `groups` (group type → key) and `groupProperties` (group type → properties) are
 * PostHog's (the reserved keys of PostHog's OpenFeature providers), every other attribute is a person property.
 * Errors carry OFREP's error codes as their `code`.
 */
export function flagsRequestOf(body: unknown): FlagsRequest {
  if (!isObject(body)) throw invalid('The body must be a JSON object: {"context": {"targetingKey": "..."}}.', 'PARSE_ERROR', null);
  const context = body.context;
  if (!isObject(context)) throw invalid('context is required and must be an object.', 'INVALID_CONTEXT');
  const { targetingKey, groups, groupProperties } = context;
  if (targetingKey === undefined || targetingKey === null || targetingKey === '') {
    throw invalid('context.targetingKey is required: the distinct id of whom the flags are evaluated for.', 'TARGETING_KEY_MISSING', 'context__targetingKey');
  }
  if (typeof targetingKey !== 'string') throw invalid('context.targetingKey must be a string.', 'INVALID_CONTEXT', 'context__targetingKey');
  let budget = MAX_CONTEXT_ATTRIBUTES;
  const tooMany = () => invalid(`The context has more than ${MAX_CONTEXT_ATTRIBUTES} attributes.`, 'INVALID_CONTEXT');
  if (keysPast(context, budget + 3)) throw tooMany();
  if (isObject(groupProperties)) {
    for (const type in groupProperties) {
      const props = groupProperties[type];
      if (isObject(props)) {
        if (keysPast(props, budget)) throw tooMany();
        budget -= Object.keys(props).length;
      }
    }
  }
  const attributes: Record<string, unknown> = {};
  for (const key in context) {
    if (key !== 'targetingKey' && key !== 'groups' && key !== 'groupProperties' && Object.hasOwn(context, key)) attributes[key] = context[key];
  }
  if (Object.keys(attributes).length > budget) throw tooMany();
  try {
    return parseFlagsRequest({ distinct_id: targetingKey, person_properties: attributes, groups, group_properties: groupProperties });
  } catch (error) {
    if (error instanceof ValidationError) throw invalid(`Invalid context: ${error.detail}`, 'INVALID_CONTEXT');
    throw error;
  }
}
