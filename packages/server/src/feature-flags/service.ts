import { ENROLLMENT_PROPERTY_PREFIX, enrollmentProperty, validateFilters } from '@service/flag-engine';
import type { Kysely } from 'kysely';
import { isUniqueViolation, type Dialect } from '../db/database';
import type { Database } from '../db/schema';
import type { Changes } from '../changes';
import { changesBetween, recordActivity } from '../activity/service';
import type { Actor } from '../http/actor';
import { enqueueWebhooks } from '../webhooks/outbox';
import { NotFoundError, ValidationError } from '../errors';
import { flagStore, toFlag, type FeatureFlag, type Filters, type FlagListOptions, type FlagRow, type NewFlag } from './store';

/** The `feature_flag.changed` webhook of a flag changed through the API, in the change's transaction. */
function flagChanged(db: Kysely<Database>, row: FlagRow, change: 'created' | 'updated' | 'deleted') {
  const { id, key, name, active, deleted, version } = toFlag(row);
  return enqueueWebhooks(db, row.project_id, 'feature_flag.changed', { feature_flag: { id, key, name, active, deleted, version }, change });
}

/** The fields of a flag the activity log follows. */
const LOGGED_FIELDS = ['key', 'name', 'filters', 'active', 'deleted', 'ensure_experience_continuity'] as const;

/**
 * Records a flag's creation (`before` undefined) or change in the activity log, in the change's transaction: the fields
 * that changed, with their values before and after. A change to `deleted` is a delete (or an update when undone).
 */
export async function recordFlagActivity(db: Kysely<Database>, actor: Actor, before: FlagRow | undefined, after: FlagRow): Promise<void> {
  const shown = (row: FlagRow) => {
    const flag = toFlag(row);
    return Object.fromEntries(LOGGED_FIELDS.map((field) => [field, flag[field]]));
  };
  const activity = !before ? 'created' : after.deleted === 1 && before.deleted !== 1 ? 'deleted' : 'updated';
  await recordActivity(db, actor, {
    projectId: after.project_id,
    scope: 'FeatureFlag',
    itemId: after.id,
    activity,
    name: after.key,
    changes: changesBetween(before ? shown(before) : null, shown(after), LOGGED_FIELDS),
  });
}

export const KEY_PATTERN = /^[a-zA-Z0-9_-]+$/;

export interface FlagInput {
  key: string;
  name?: string;
  filters?: Filters;
  active?: boolean;
  ensure_experience_continuity?: boolean;
}

export interface FlagPatch extends Partial<FlagInput> {
  deleted?: boolean;
}

const duplicateKey = () => new ValidationError('There is already a feature flag with this key.', 'key', 'unique');

/** Key rules: unique among live flags (checked first), then the allowed characters. */
export async function checkKey(db: Kysely<Database>, projectId: number, key: string, exceptId?: number) {
  if ((await flagStore.liveIdOfKey(db, projectId, key, exceptId)) !== undefined) throw duplicateKey();
  if (!KEY_PATTERN.test(key)) throw new ValidationError('Only letters, numbers, hyphens (-) & underscores (_) are allowed.', 'key', 'invalid_key');
}

/** Inserts a flag; a concurrent insert of the same key loses with the same 400 as the pre-check. */
export async function insertFlag(db: Kysely<Database>, projectId: number, input: Required<FlagInput> & Pick<NewFlag, 'survey_id'>): Promise<FlagRow> {
  try {
    return await flagStore.insert(db, projectId, input);
  } catch (error) {
    if (isUniqueViolation(error, 'key')) throw duplicateKey();
    throw error;
  }
}

/** Groups, property filters and operators, rollouts, variants and payloads; a 400 naming the path. */
export function checkFilters(filters: Filters) {
  const error = validateFilters(filters);
  if (error) throw new ValidationError(error.detail, error.attr, error.code);
}

/** Points enrollment conditions at a renamed flag's new key. */
function renameEnrollment(filters: Filters, key: string): Filters {
  if (!Array.isArray(filters.super_groups)) return filters;
  const superGroups = filters.super_groups.map((group: { properties?: { key?: string }[] }) => ({
    ...group,
    properties: group.properties?.map((p) => (p.key?.startsWith(ENROLLMENT_PROPERTY_PREFIX) ? { ...p, key: enrollmentProperty(key) } : p)),
  }));
  return { ...filters, super_groups: superGroups };
}

/**
 * A rule another domain puts on changes to a flag it uses (early access: a linked flag stays person-based and
 * is not deleted); it throws to refuse the patch. Flags know nothing of the domains that register one.
 */
export type FlagUpdateGuard = (db: Kysely<Database>, flag: FlagRow, patch: FlagPatch) => Promise<void>;

/** Something that uses a flag (an early access feature, an experiment, the survey that made it), as the flag's page links to it. */
export interface FlagUse {
  type: 'early_access_feature' | 'experiment' | 'survey';
  id: string | number;
  name: string;
  /** Its stage or status (`beta`, `draft`, `running`, …). */
  status: string;
}
/** A rule another domain puts on a flag's filters (cohorts: a cohort leaf names a live cohort of the project); it throws to refuse them. */
export type FilterCheck = (db: Kysely<Database>, projectId: number, filters: Filters) => Promise<void>;

/** The uses of a flag another domain knows of (flags know nothing of the domains that register one). */
export type FlagUses = (db: Kysely<Database>, flag: FlagRow) => Promise<FlagUse[]>;

export class FeatureFlagService {
  private readonly guards: FlagUpdateGuard[] = [];
  private readonly uses: FlagUses[] = [];
  private readonly filterChecks: FilterCheck[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly changes: Changes,
    private readonly dialect: Dialect,
  ) {}

  /** Adds a rule every update must pass before it is applied. */
  guardUpdates(guard: FlagUpdateGuard) {
    this.guards.push(guard);
  }

  /** Adds a rule the filters of every created or changed flag must pass. */
  checkFiltersWith(check: FilterCheck) {
    this.filterChecks.push(check);
  }

  async create(projectId: number, input: FlagInput, actor: Actor): Promise<FeatureFlag> {
    await checkKey(this.db, projectId, input.key);
    if (input.filters) {
      checkFilters(input.filters);
      for (const check of this.filterChecks) await check(this.db, projectId, input.filters);
    }
    const row = await this.db.transaction().execute(async (trx) => {
      const inserted = await insertFlag(trx, projectId, {
        key: input.key,
        name: input.name ?? '',
        filters: input.filters ?? { groups: [] },
        active: input.active ?? true,
        ensure_experience_continuity: input.ensure_experience_continuity ?? false,
      });
      await flagChanged(trx, inserted, 'created');
      await recordFlagActivity(trx, actor, undefined, inserted);
      return inserted;
    });
    this.changes.flagsChanged(projectId);
    return toFlag(row);
  }

  /** Adds a domain whose uses of a flag `get` lists. */
  describeUses(uses: FlagUses) {
    this.uses.push(uses);
  }

  /** The flag, and what uses it (`used_by`). */
  async get(projectId: number, id: number): Promise<FeatureFlag & { used_by: FlagUse[] }> {
    const row = await this.row(projectId, id);
    const usedBy = (await Promise.all(this.uses.map((uses) => uses(this.db, row)))).flat();
    return { ...toFlag(row), used_by: usedBy };
  }

  async list(projectId: number, opts: FlagListOptions) {
    const { count, rows } = await flagStore.page(this.db, this.dialect, projectId, opts);
    return { count, results: rows.map(toFlag) };
  }

  /** Applies a patch, and enqueues its `feature_flag.changed` webhooks and records it in the activity log in the same transaction. */
  async update(projectId: number, id: number, patch: FlagPatch, actor: Actor): Promise<FeatureFlag> {
    const updated = await this.db.transaction().execute((trx) => this.updateWithin(trx, projectId, id, patch, actor));
    this.changes.flagsChanged(projectId);
    return toFlag(updated);
  }

  /**
   * `update` inside the caller's transaction `db`, with the same rules, webhooks and activity entry; the caller calls
   * `changes.flagsChanged` once it has committed (the scheduled changes' job does).
   */
  async updateWithin(db: Kysely<Database>, projectId: number, id: number, patch: FlagPatch, actor: Actor): Promise<FlagRow> {
    const row = await this.row(projectId, id, db);
    for (const guard of this.guards) await guard(db, row, patch);
    const stored = JSON.parse(row.filters) as Filters;
    const changes: Parameters<typeof flagStore.update>[2] = {};
    let filters = stored;
    if (patch.filters !== undefined) {
      // Enrollment belongs to the linked early access feature: keep it unless the caller sets it.
      filters = 'super_groups' in patch.filters || !('super_groups' in stored) ? patch.filters : { ...patch.filters, super_groups: stored.super_groups };
    }
    if (patch.key !== undefined && patch.key !== row.key) {
      await checkKey(db, projectId, patch.key, row.id);
      changes.key = patch.key;
      filters = renameEnrollment(filters, patch.key);
    }
    if (patch.filters !== undefined) {
      checkFilters(filters);
      for (const check of this.filterChecks) await check(db, projectId, filters);
    }
    if (filters !== stored) changes.filters = JSON.stringify(filters);
    if (patch.deleted !== undefined) {
      if (!patch.deleted && row.deleted && (await flagStore.liveIdOfKey(db, projectId, changes.key ?? row.key, row.id)) !== undefined) throw duplicateKey();
      changes.deleted = patch.deleted ? 1 : 0;
    }
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.active !== undefined) changes.active = patch.active ? 1 : 0;
    if (patch.ensure_experience_continuity !== undefined) changes.ensure_experience_continuity = patch.ensure_experience_continuity ? 1 : 0;
    try {
      const updated = await flagStore.update(db, row, changes);
      await flagChanged(db, updated, updated.deleted === 1 && row.deleted !== 1 ? 'deleted' : 'updated');
      await recordFlagActivity(db, actor, row, updated);
      return updated;
    } catch (error) {
      if (isUniqueViolation(error, 'key')) throw duplicateKey();
      throw error;
    }
  }

  /** The flag's row (deleted ones too); 404 when the project has none of this id. */
  async row(projectId: number, id: number, db: Kysely<Database> = this.db): Promise<FlagRow> {
    const row = Number.isSafeInteger(id) ? await flagStore.get(db, projectId, id) : undefined;
    if (!row) throw new NotFoundError();
    return row;
  }
}
