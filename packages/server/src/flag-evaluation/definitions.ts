import { createHash } from 'node:crypto';
import { compileFlags, foldEnrollment, type CompiledFlags, type FlagDefinition, type FlagFilters } from '@service/flag-engine';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Changes } from '../changes';
import { projectCohorts, type CohortLookups } from '../cohorts/evaluation';
import { cohortStore } from '../cohorts/store';
import { DEFAULT_FLAG_CACHE_PROJECTS } from '../config';
import type { Database } from '../db/schema';
import { flagStore, type FlagRow } from '../feature-flags/store';
import { personReads } from '../persons/store';
import { WireFragments } from './wire';

/** A project's flags, compiled for evaluation and serialized for SDKs, built once per change. */
export interface ProjectFlags {
  compiled: CompiledFlags;
  /** The definitions compiled, by key (what OFREP reads to type and explain an answer). */
  definitions: ReadonlyMap<string, FlagDefinition>;
  /** JSON of each flag outcome, built on first use. */
  wire: WireFragments;
  groupTypeMapping: Record<string, string>;
  /** The static cohorts and behavioral leaves the flags reach, looked up for the person of each request. */
  cohortLookups: CohortLookups;
  /** The body of `/flags/definitions` (enrollment folded into `groups`, see `foldEnrollment`), and its ETag. */
  definitionsBody: string;
  etag: string;
  /** The keys `/flags?only_evaluate_survey_feature_flags=true` evaluates: the surveys' flags, and any whose key says it is one. */
  surveyKeys: string[];
}

/** The key prefix of the flags surveys make, which PostHog's flags service treats as survey flags (not billed, evaluated alone on request). */
export const SURVEY_FLAG_PREFIX = 'survey-targeting-';

/** Entries older than this are rebuilt even without a notification (a bound on a lost one). */
const TTL_MS = 60_000;

export function toDefinition(row: FlagRow): FlagDefinition {
  return {
    id: row.id,
    name: row.name,
    key: row.key,
    active: row.active === 1,
    deleted: false,
    ensure_experience_continuity: row.ensure_experience_continuity === 1,
    version: row.version,
    filters: JSON.parse(row.filters) as FlagFilters,
  };
}

/**
 * Compiled flag definitions per project, in memory; invalidated by every flag or early access write. At most
 * `maxProjects` are kept: past that the least recently used is dropped (and compiled again when asked for).
 */
export class FlagDefinitionsCache {
  private readonly entries: LRUCache<number, Promise<ProjectFlags>>;

  constructor(
    private readonly db: Kysely<Database>,
    changes: Changes,
    maxProjects = DEFAULT_FLAG_CACHE_PROJECTS,
  ) {
    this.entries = new LRUCache({ max: maxProjects, ttl: TTL_MS });
    changes.on('flags', (projectId) => this.entries.delete(projectId));
    changes.on('gap', () => this.entries.clear());
  }

  get(projectId: number): Promise<ProjectFlags> {
    const cached = this.entries.get(projectId);
    if (cached) return cached;
    const value = this.load(projectId);
    this.entries.set(projectId, value);
    // A failed load is not cached; the next request tries again.
    value.catch(() => this.entries.peek(projectId) === value && this.entries.delete(projectId));
    return value;
  }

  private async load(projectId: number): Promise<ProjectFlags> {
    const [rows, groupTypeMapping, cohortRows] = await Promise.all([
      flagStore.live(this.db, projectId),
      personReads.groupTypeMapping(this.db, projectId),
      cohortStore.live(this.db, projectId),
    ]);
    const definitions = rows.map(toDefinition);
    const cohorts = projectCohorts(cohortRows, definitions);
    // SDKs that evaluate locally may ignore `super_groups` (posthog-node 5.x does): they get the early access
    // enrollment folded into `groups`, which gives the same answers. A survey's flags are for the browser's surveys
    // only: server SDKs do not get them (as PostHog leaves them out of local evaluation). Only person property cohorts
    // are sent: a flag on a static or behavioral cohort is inconclusive locally, and the SDK asks `/flags`.
    const served = definitions.filter((_, i) => rows[i]!.survey_id === null).map(foldEnrollment);
    const definitionsBody = JSON.stringify({ flags: served, group_type_mapping: groupTypeMapping, cohorts: cohorts.local });
    return {
      compiled: compileFlags(definitions, { groupTypeMapping, cohorts: cohorts.server, mode: 'server' }),
      definitions: new Map(definitions.map((definition) => [definition.key, definition])),
      wire: new WireFragments(new Map(rows.map((row) => [row.key, row]))),
      groupTypeMapping,
      cohortLookups: cohorts.lookups,
      definitionsBody,
      etag: `"${createHash('sha1').update(definitionsBody).digest('hex')}"`,
      surveyKeys: rows.filter((row) => row.survey_id !== null || row.key.startsWith(SURVEY_FLAG_PREFIX)).map((row) => row.key),
    };
  }
}
