import { storable } from '../db/text';
import { ValidationError } from '../errors';
import { deepJsonError, isObject, type Properties } from '../json';
import type { FlagsRequest } from './service';

/** An absent object field (never handed out: callers get a fresh `{}`). */
const NONE: Record<string, unknown> = Object.freeze({});

/** The first of a field's values (its name's, then its alias's) that is not null or undefined, as an object; 400 if not one. */
function objectField(name: string, value: unknown, alias: unknown): Record<string, unknown> {
  const given = value !== undefined && value !== null ? value : alias;
  if (given === undefined || given === null) return NONE;
  if (!isObject(given)) throw new ValidationError(`${name} must be an object.`, name);
  return given;
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);

/**
 * Reads a decoded `/flags` body, accepting PostHog's aliases; a bad body is a 400 naming the field. Distinct ids, group
 * types and group keys are read as capture stores them (NUL replaced, cut to 200 characters).
 */
export function parseFlagsRequest(body: Record<string, unknown>): FlagsRequest {
  const tooDeep = deepJsonError(body);
  if (tooDeep) throw tooDeep;
  const distinctId = str(body.distinct_id ?? body.$distinct_id);
  if (distinctId === undefined || distinctId === '') throw new ValidationError('distinct_id is required.', 'distinct_id', 'required');
  const personProperties = objectField('person_properties', body.person_properties, body.$properties);
  const groups: Record<string, string> = {};
  const groupKeys = objectField('groups', body.groups, body.$groups);
  if (groupKeys !== NONE) {
    for (const [type, key] of Object.entries(groupKeys)) {
      const value = str(key);
      if (value !== undefined) groups[storable(type)] = storable(value);
    }
  }
  const groupProperties: Record<string, Properties> = {};
  const groupProps = objectField('group_properties', body.group_properties, body.$group_properties);
  if (groupProps !== NONE) {
    for (const [type, props] of Object.entries(groupProps)) {
      if (!isObject(props)) throw new ValidationError('group_properties must map group types to objects.', 'group_properties');
      groupProperties[storable(type)] = props;
    }
  }
  const keys = body.flag_keys_to_evaluate ?? body.flag_keys;
  if (keys !== undefined && keys !== null && !(Array.isArray(keys) && keys.every((k) => typeof k === 'string'))) {
    throw new ValidationError('flag_keys_to_evaluate must be a list of flag keys.', 'flag_keys_to_evaluate');
  }
  return {
    distinctId: storable(distinctId),
    personProperties: personProperties === NONE ? {} : personProperties,
    groups,
    groupProperties,
    anonDistinctId: str(body.$anon_distinct_id ?? body.anon_distinct_id),
    deviceId: str(body.$device_id ?? body.device_id ?? personProperties.$device_id),
    flagKeys: (keys as string[] | null | undefined) ?? undefined,
    disableFlags: body.disable_flags === true,
  };
}
