import { randomUUID } from 'node:crypto';
import type { FlagResult, Inconclusive } from '@service/flag-engine';
import type { Kysely } from 'kysely';
import { applyFacts, dayOf, firstDayOf, needsLookup } from '../cohorts/evaluation';
import { cohortStore, type EventCount } from '../cohorts/store';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import type { Properties } from '../json';
import { personReads } from '../persons/store';
import type { FlagDefinitionsCache, ProjectFlags } from './definitions';
import type { Rendered } from './wire';

/** True when an object has an own enumerable key (without listing them). */
function hasKeys(object: object): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return true;
  return false;
}

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
  /** `only_evaluate_survey_feature_flags=true` (posthog-js `advanced_only_evaluate_survey_feature_flags`): the surveys' flags alone. */
  onlySurveyFlags?: boolean;
}

/** Remote evaluation: stored person and group properties under the request's (the request wins), then the engine. */
export class FlagsService {
  private readonly db: Kysely<Database>;
  /** The hot read of every request: a person's stored properties. */
  private readonly personProperties: (projectId: number, distinctId: string) => Promise<{ properties: string }[]>;
  /** The read of a person's static cohorts and behavioral counts, for projects whose flags reach such cohorts. */
  private readonly personFacts: (...params: unknown[]) => Promise<EventCount[]>;

  constructor(
    db: Db,
    readonly definitions: FlagDefinitionsCache,
  ) {
    this.db = db.kysely;
    this.personProperties = db.preparedRead(personReads.propertiesQuery(db.kysely));
    this.personFacts = db.preparedRead(cohortStore.personFactsQuery(db.kysely));
  }

  async evaluate(projectId: number, request: FlagsRequest): Promise<Rendered> {
    const rendered: Rendered = { fragments: [], keys: [], requestId: randomUUID(), evaluatedAt: Date.now() };
    if (request.disableFlags) return rendered;
    const project = await this.definitions.get(projectId);
    for (const result of await this.results(projectId, project, request)) {
      rendered.keys.push(result.key);
      rendered.fragments.push(project.wire.of(result.key, result));
    }
    return rendered;
  }

  /** The engine's results for a request over a project's compiled flags (`/flags` renders them; OFREP maps them). */
  async results(projectId: number, project: ProjectFlags, request: FlagsRequest): Promise<Array<FlagResult | Inconclusive>> {
    if (!project.compiled.keys.length) return [];
    let keys = request.flagKeys;
    if (request.onlySurveyFlags) {
      keys = keys ? keys.filter((key) => project.surveyKeys.includes(key)) : project.surveyKeys;
      if (!keys.length) return [];
    }
    const lookups = project.cohortLookups;
    const today = dayOf(Date.now());
    const [[person], facts] = await Promise.all([
      this.personProperties(projectId, request.distinctId),
      needsLookup(lookups)
        ? this.personFacts(projectId, request.distinctId, projectId, request.distinctId, firstDayOf(today, lookups.longestWindow))
        : undefined,
    ]);
    const stored = person ? (JSON.parse(person.properties) as Properties) : undefined;
    // Most requests send no properties: then the stored ones (a fresh object) are used as they are.
    const personProperties = !stored ? request.personProperties : hasKeys(request.personProperties) ? { ...stored, ...request.personProperties } : stored;
    if (facts) applyFacts(personProperties, lookups, facts, today);
    const groupProperties = hasKeys(request.groups) ? await this.groupProperties(projectId, request) : request.groupProperties;
    return project.compiled.evaluateList(
      {
        distinctId: request.distinctId,
        personProperties,
        groups: request.groups,
        groupProperties,
        anonDistinctId: request.anonDistinctId,
        deviceId: request.deviceId,
      },
      keys,
    );
  }

  /** Stored properties of the request's groups, overlaid by the request's own. */
  private async groupProperties(projectId: number, request: FlagsRequest): Promise<Record<string, Properties>> {
    const merged = await personReads.groupProperties(this.db, projectId, request.groups);
    for (const [type, props] of Object.entries(request.groupProperties)) merged[type] = { ...merged[type], ...props };
    return merged;
  }
}
