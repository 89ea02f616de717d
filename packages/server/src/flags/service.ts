import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import { validationError } from '../http/errors';
import { personReads, type Properties } from '../persons/store';
import type { FlagDefinitionsCache } from './definitions';
import type { Rendered } from './wire';
import { isObject } from '../json';

/** What an SDK sends to `/flags` (PostHog's field names and aliases), after decoding. */
export interface FlagsRequest {
  distinctId: string;
  personProperties: Properties;
  groups: Record<string, string>;
  groupProperties: Record<string, Properties>;
  anonDistinctId?: string;
  deviceId?: string;
  flagKeys?: string[];
  disableFlags: boolean;
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);

/** Reads a decoded `/flags` body, accepting PostHog's aliases; a bad body is a 400 naming the field. */
export function parseFlagsRequest(body: Record<string, unknown>): FlagsRequest {
  const distinctId = str(body.distinct_id ?? body.$distinct_id);
  if (distinctId === undefined || distinctId === '') throw validationError('distinct_id is required.', 'distinct_id', 'required');
  const objectField = (name: string, ...aliases: string[]): Record<string, unknown> => {
    const value = [name, ...aliases].map((k) => body[k]).find((v) => v !== undefined && v !== null);
    if (value === undefined) return {};
    if (!isObject(value)) throw validationError(`${name} must be an object.`, name);
    return value;
  };
  const personProperties = objectField('person_properties', '$properties');
  const groups: Record<string, string> = {};
  for (const [type, key] of Object.entries(objectField('groups', '$groups'))) {
    const value = str(key);
    if (value !== undefined) groups[type] = value;
  }
  const groupProperties: Record<string, Properties> = {};
  for (const [type, props] of Object.entries(objectField('group_properties', '$group_properties'))) {
    if (!isObject(props)) throw validationError('group_properties must map group types to objects.', 'group_properties');
    groupProperties[type] = props;
  }
  const keys = body.flag_keys_to_evaluate ?? body.flag_keys;
  if (keys !== undefined && keys !== null && !(Array.isArray(keys) && keys.every((k) => typeof k === 'string'))) {
    throw validationError('flag_keys_to_evaluate must be a list of flag keys.', 'flag_keys_to_evaluate');
  }
  return {
    distinctId: distinctId.slice(0, 200),
    personProperties,
    groups,
    groupProperties,
    anonDistinctId: str(body.$anon_distinct_id ?? body.anon_distinct_id),
    deviceId: str(body.$device_id ?? body.device_id ?? personProperties.$device_id),
    flagKeys: (keys as string[] | null | undefined) ?? undefined,
    disableFlags: body.disable_flags === true,
  };
}

/** Remote evaluation: stored person and group properties under the request's (the request wins), then the engine. */
export class FlagsService {
  private readonly db: Kysely<Database>;
  /** The hot read of every request: a person's stored properties. */
  private readonly personProperties: (projectId: number, distinctId: string) => Promise<{ properties: string }[]>;

  constructor(
    db: Db,
    readonly definitions: FlagDefinitionsCache,
  ) {
    this.db = db.kysely;
    this.personProperties = db.preparedRead(personReads.propertiesQuery(db.kysely));
  }

  async evaluate(projectId: number, request: FlagsRequest): Promise<Rendered> {
    const rendered: Rendered = { fragments: [], keys: [], requestId: randomUUID(), evaluatedAt: Date.now() };
    if (request.disableFlags) return rendered;
    const project = await this.definitions.get(projectId);
    if (!project.compiled.keys.length) return rendered;
    const [person] = await this.personProperties(projectId, request.distinctId);
    const personProperties = person ? { ...(JSON.parse(person.properties) as Properties), ...request.personProperties } : request.personProperties;
    const groupProperties = Object.keys(request.groups).length ? await this.groupProperties(projectId, request) : request.groupProperties;
    const results = project.compiled.evaluateAll(
      {
        distinctId: request.distinctId,
        personProperties,
        groups: request.groups,
        groupProperties,
        anonDistinctId: request.anonDistinctId,
        deviceId: request.deviceId,
      },
      request.flagKeys,
    );
    for (const key in results) {
      rendered.keys.push(key);
      rendered.fragments.push(project.wire.of(key, results[key]!));
    }
    return rendered;
  }

  /** Stored properties of the request's groups, overlaid by the request's own. */
  private async groupProperties(projectId: number, request: FlagsRequest): Promise<Record<string, Properties>> {
    const merged = await personReads.groupProperties(this.db, projectId, request.groups);
    for (const [type, props] of Object.entries(request.groupProperties)) merged[type] = { ...merged[type], ...props };
    return merged;
  }
}
