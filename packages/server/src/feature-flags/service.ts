import { ENROLLMENT_PROPERTY_PREFIX, enrollmentProperty, validateFilters } from '@service/flag-engine';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/database';
import type { Database } from '../db/schema';
import type { Changes } from '../changes';
import { NotFoundError, ValidationError } from '../errors';
import { flagStore, toFlag, type FeatureFlag, type Filters, type FlagRow } from './store';

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
  if (await flagStore.liveKeyExists(db, projectId, key, exceptId)) throw duplicateKey();
  if (!KEY_PATTERN.test(key)) throw new ValidationError('Only letters, numbers, hyphens (-) & underscores (_) are allowed.', 'key', 'invalid_key');
}

/** Inserts a flag; a concurrent insert of the same key loses with the same 400 as the pre-check. */
export async function insertFlag(db: Kysely<Database>, projectId: number, input: Required<FlagInput>): Promise<FlagRow> {
  try {
    return await flagStore.insert(db, projectId, input);
  } catch (error) {
    if (isUniqueViolation(error, 'key')) throw duplicateKey();
    throw error;
  }
}

/** Groups, property filters and operators, rollouts, variants and payloads; a 400 naming the path. */
function checkFilters(filters: Filters) {
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

export class FeatureFlagService {
  private readonly guards: FlagUpdateGuard[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly changes: Changes,
  ) {}

  /** Adds a rule every update must pass before it is applied. */
  guardUpdates(guard: FlagUpdateGuard) {
    this.guards.push(guard);
  }

  async create(projectId: number, input: FlagInput): Promise<FeatureFlag> {
    await checkKey(this.db, projectId, input.key);
    if (input.filters) checkFilters(input.filters);
    const row = await insertFlag(this.db, projectId, {
      key: input.key,
      name: input.name ?? '',
      filters: input.filters ?? { groups: [] },
      active: input.active ?? true,
      ensure_experience_continuity: input.ensure_experience_continuity ?? false,
    });
    this.changes.flagsChanged(projectId);
    return toFlag(row);
  }

  async get(projectId: number, id: number): Promise<FeatureFlag> {
    return toFlag(await this.row(projectId, id));
  }

  async list(projectId: number, opts: { limit: number; offset: number; search?: string; active?: boolean }) {
    const { count, rows } = await flagStore.page(this.db, projectId, opts);
    return { count, results: rows.map(toFlag) };
  }

  async update(projectId: number, id: number, patch: FlagPatch): Promise<FeatureFlag> {
    const row = await this.row(projectId, id);
    for (const guard of this.guards) await guard(this.db, row, patch);
    const stored = JSON.parse(row.filters) as Filters;
    const changes: Parameters<typeof flagStore.update>[2] = {};
    let filters = stored;
    if (patch.filters !== undefined) {
      // Enrollment belongs to the linked early access feature: keep it unless the caller sets it.
      filters = 'super_groups' in patch.filters || !('super_groups' in stored) ? patch.filters : { ...patch.filters, super_groups: stored.super_groups };
    }
    if (patch.key !== undefined && patch.key !== row.key) {
      await checkKey(this.db, projectId, patch.key, row.id);
      changes.key = patch.key;
      filters = renameEnrollment(filters, patch.key);
    }
    if (patch.filters !== undefined) checkFilters(filters);
    if (filters !== stored) changes.filters = JSON.stringify(filters);
    if (patch.deleted !== undefined) {
      if (!patch.deleted && row.deleted && (await flagStore.liveKeyExists(this.db, projectId, changes.key ?? row.key, row.id))) throw duplicateKey();
      changes.deleted = patch.deleted ? 1 : 0;
    }
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.active !== undefined) changes.active = patch.active ? 1 : 0;
    if (patch.ensure_experience_continuity !== undefined) changes.ensure_experience_continuity = patch.ensure_experience_continuity ? 1 : 0;
    try {
      const updated = await flagStore.update(this.db, row, changes);
      this.changes.flagsChanged(projectId);
      return toFlag(updated);
    } catch (error) {
      if (isUniqueViolation(error, 'key')) throw duplicateKey();
      throw error;
    }
  }

  private async row(projectId: number, id: number): Promise<FlagRow> {
    const row = Number.isSafeInteger(id) ? await flagStore.get(this.db, projectId, id) : undefined;
    if (!row) throw new NotFoundError();
    return row;
  }
}
