import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import { personReads, type Properties } from '../persons/store';
import type { FlagDefinitionsCache } from './definitions';
import type { Rendered } from './wire';

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
