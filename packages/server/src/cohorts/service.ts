import type { Kysely } from 'kysely';
import { changesBetween, recordActivity } from '../activity/service';
import type { Changes } from '../changes';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import { ConflictError, NotFoundError, TooLargeError, ValidationError } from '../errors';
import type { Filters } from '../feature-flags/store';
import type { Actor } from '../http/actor';
import { Slices } from '../turns';
import { checkCohortFilters, flagVariantFilters, referencedCohorts, type CohortFilters } from './filters';
import { backfillCounts } from './ingest';
import { scanDynamic, type CohortMember } from './membership';
import { cohortStore, type CohortRow } from './store';

/** The activity log's kind for cohorts. */
export const COHORT_ACTIVITY = 'Cohort';
/** The most distinct ids a static cohort holds (and one request adds). */
export const MAX_COHORT_IDS = 1_000_000;
/** The longest distinct id a static cohort stores. */
export const MAX_DISTINCT_ID_LENGTH = 400;

/** A cohort as the API shows it (PostHog's fields). */
export interface Cohort {
  id: number;
  name: string;
  description: string;
  is_static: boolean;
  filters: CohortFilters;
  /** How many people are in it: static members, or stored persons matching a dynamic cohort now. */
  count: number;
  deleted: boolean;
  created_at: string;
  updated_at: string;
}

export interface CohortInput {
  name: string;
  description?: string;
  is_static?: boolean;
  filters?: unknown;
  distinct_ids?: string[];
  /** Instead of filters: the people who got a variant of a flag (`flagVariantFilters`). */
  flag_variant?: { flag_key: string; variant: string; days?: number };
}
export interface CohortPatch {
  name?: string;
  description?: string;
  filters?: unknown;
  deleted?: boolean;
}

/** Something that uses a cohort: a flag or another cohort. */
interface CohortUse {
  type: 'feature_flag' | 'cohort';
  id: number;
  name: string;
}

const LOGGED_FIELDS = ['name', 'description', 'filters', 'deleted'] as const;
const logged = (row: CohortRow) => ({ name: row.name, description: row.description, filters: JSON.parse(row.filters) as unknown, deleted: row.deleted === 1 });

/** Refuses ids that are not non-empty strings of at most MAX_DISTINCT_ID_LENGTH characters without NUL; checks in slices. */
export async function checkDistinctIds(ids: readonly unknown[], attr = 'distinct_ids'): Promise<string[]> {
  if (ids.length > MAX_COHORT_IDS)
    throw new TooLargeError('too_many_ids', `A static cohort holds at most ${MAX_COHORT_IDS.toLocaleString('en')} distinct ids.`, attr);
  const slices = new Slices();
  await slices.begin();
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (typeof id !== 'string' || id === '' || id.length > MAX_DISTINCT_ID_LENGTH || id.includes('\0'))
      throw new ValidationError(`Distinct ids are non-empty strings of at most ${MAX_DISTINCT_ID_LENGTH} characters.`, `${attr}__${i}`);
    if ((i & 4095) === 0 && slices.over) await slices.next();
  }
  return ids as string[];
}

/** The cohort leaves of a flag's conditions. */
const cohortsOfFlag = (filters: Filters): number[] =>
  [...(Array.isArray(filters.groups) ? filters.groups : []), ...(Array.isArray(filters.super_groups) ? filters.super_groups : [])].flatMap(
    (c: { properties?: unknown }) =>
      (Array.isArray(c?.properties) ? (c.properties as { type?: string; value?: unknown }[]) : []).flatMap((p) =>
        p?.type === 'cohort' ? [Number(p.value)] : [],
      ),
  );

/**
 * Cohorts: static ones (listed distinct ids), dynamic ones (person properties, other cohorts, behavioral filters).
 * Every write records its activity and invalidates the project's compiled flags (`flagsChanged`).
 */
export class CohortService {
  private readonly db: Kysely<Database>;

  constructor(
    private readonly database: Db,
    private readonly changes: Changes,
  ) {
    this.db = database.kysely;
  }

  async list(projectId: number, limit: number, offset: number): Promise<{ count: number; results: Cohort[] }> {
    const { count, rows } = await cohortStore.page(this.db, projectId, limit, offset);
    return { count, results: await this.shown(projectId, rows) };
  }

  async get(projectId: number, id: number): Promise<Cohort> {
    return (await this.shown(projectId, [await this.row(this.db, projectId, id)]))[0]!;
  }

  async create(projectId: number, input: CohortInput, actor: Actor): Promise<Cohort> {
    const isStatic = input.is_static === true;
    let filters: CohortFilters = {};
    let ids: string[] = [];
    if (isStatic) {
      if (input.filters !== undefined && Object.keys(input.filters ?? {}).length) throw new ValidationError('A static cohort has no filters.', 'filters');
      ids = await checkDistinctIds(input.distinct_ids ?? []);
    } else {
      if (input.distinct_ids !== undefined) throw new ValidationError('Only a static cohort lists distinct ids (is_static: true).', 'distinct_ids');
      if (input.flag_variant && input.filters !== undefined) throw new ValidationError('Give filters or flag_variant, not both.', 'flag_variant');
      const variant = input.flag_variant;
      filters = checkCohortFilters(variant ? flagVariantFilters(variant.flag_key, variant.variant, variant.days) : input.filters);
      await this.checkReferences(this.db, projectId, filters, undefined);
    }
    const now = new Date().toISOString();
    const row = await this.db.transaction().execute(async (trx) => {
      const inserted = await cohortStore.insert(trx, {
        project_id: projectId,
        name: input.name,
        description: input.description ?? '',
        is_static: isStatic ? 1 : 0,
        filters: JSON.stringify(filters),
        deleted: 0,
        created_by: actor.user_id,
        created_at: now,
        updated_at: now,
      });
      if (!isStatic) await backfillCounts(trx, inserted);
      await recordActivity(trx, actor, { projectId, scope: COHORT_ACTIVITY, itemId: inserted.id, activity: 'created', name: inserted.name, changes: null });
      return inserted;
    });
    if (ids.length) {
      // Members go in batches outside the cohort's transaction (a million ids would hold SQLite's write lock for
      // seconds); a failure removes the cohort, so a cohort answered with 201 has all its ids.
      try {
        await cohortStore.addMembers(this.db, this.database.dialect, projectId, row.id, ids);
      } catch (error) {
        await cohortStore.remove(this.db, row.id);
        throw error;
      }
    }
    this.changes.flagsChanged(projectId);
    return this.get(projectId, row.id);
  }

  async update(projectId: number, id: number, patch: CohortPatch, actor: Actor): Promise<Cohort> {
    await this.db.transaction().execute(async (trx) => {
      const row = await this.row(trx, projectId, id);
      const changes: Parameters<typeof cohortStore.update>[2] = { updated_at: new Date().toISOString() };
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.description !== undefined) changes.description = patch.description;
      if (patch.filters !== undefined) {
        if (row.is_static === 1) throw new ValidationError('A static cohort has no filters.', 'filters');
        const filters = checkCohortFilters(patch.filters);
        await this.checkReferences(trx, projectId, filters, id);
        changes.filters = JSON.stringify(filters);
      }
      if (patch.deleted === true && row.deleted === 0) {
        await this.checkUnused(trx, projectId, id);
        changes.deleted = 1;
      } else if (patch.deleted === false && row.deleted === 1) changes.deleted = 0;
      const updated = await cohortStore.update(trx, id, changes);
      if (changes.filters !== undefined && changes.filters !== row.filters) await backfillCounts(trx, updated);
      const activity = updated.deleted === 1 && row.deleted === 0 ? 'deleted' : 'updated';
      await recordActivity(trx, actor, {
        projectId,
        scope: COHORT_ACTIVITY,
        itemId: id,
        activity,
        name: updated.name,
        changes: changesBetween(logged(row), logged(updated), LOGGED_FIELDS),
      });
    });
    this.changes.flagsChanged(projectId);
    return this.get(projectId, id);
  }

  /** Soft delete (`deleted: true`, as PostHog): refused with 409 while a flag or another cohort uses it. */
  async delete(projectId: number, id: number, actor: Actor): Promise<void> {
    await this.update(projectId, id, { deleted: true }, actor);
  }

  /** Adds (or removes) distinct ids of a static cohort. */
  async changeMembers(projectId: number, id: number, ids: readonly unknown[], add: boolean, actor: Actor): Promise<Cohort> {
    const row = await this.row(this.db, projectId, id);
    if (row.deleted === 1) throw new NotFoundError();
    if (row.is_static !== 1) throw new ValidationError('Only a static cohort has members to add or remove.', 'distinct_ids');
    const checked = await checkDistinctIds(ids);
    if (add) {
      const { count } = await this.db
        .selectFrom('cohort_members')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('cohort_id', '=', id)
        .executeTakeFirstOrThrow();
      if (Number(count) + checked.length > MAX_COHORT_IDS)
        throw new TooLargeError('too_many_ids', `A static cohort holds at most ${MAX_COHORT_IDS.toLocaleString('en')} distinct ids.`, 'distinct_ids');
      await cohortStore.addMembers(this.db, this.database.dialect, projectId, id, checked);
    } else await cohortStore.removeMembers(this.db, id, checked);
    await recordActivity(this.db, actor, {
      projectId,
      scope: COHORT_ACTIVITY,
      itemId: id,
      activity: 'updated',
      name: row.name,
      changes: [{ field: add ? 'members_added' : 'members_removed', before: null, after: checked.length }],
    });
    this.changes.flagsChanged(projectId);
    return this.get(projectId, id);
  }

  /** A page of a cohort's members: a static cohort's ids (with their stored person), or the persons matching a dynamic one. */
  async members(projectId: number, id: number, limit: number, offset: number): Promise<{ count: number; results: CohortMember[] }> {
    const row = await this.row(this.db, projectId, id);
    if (row.is_static === 1) {
      const [shown] = await this.shown(projectId, [row]);
      const ids = await cohortStore.members(this.db, id, limit, offset);
      const persons = ids.length
        ? await this.db
            .selectFrom('person_distinct_ids as d')
            .innerJoin('persons as p', 'p.id', 'd.person_id')
            .select(['d.distinct_id', 'p.uuid', 'p.properties'])
            .where('d.project_id', '=', projectId)
            .where(
              'd.distinct_id',
              'in',
              ids.map((r) => r.distinct_id),
            )
            .execute()
        : [];
      const byId = new Map(persons.map((p) => [p.distinct_id, p]));
      const results = ids.map(({ distinct_id }) => {
        const person = byId.get(distinct_id);
        return { distinct_id, person_id: person?.uuid ?? null, properties: person ? (JSON.parse(person.properties) as CohortMember['properties']) : {} };
      });
      return { count: shown!.count, results };
    }
    const results: CohortMember[] = [];
    let count = 0;
    await scanDynamic(this.db, projectId, await cohortStore.live(this.db, projectId), [id], (_, member) => {
      if (count >= offset && results.length < limit) results.push(member);
      count++;
    });
    return { count, results };
  }

  /** Rows as the API shows them, with their counts (static: members; dynamic: one scan of the persons for all of them). */
  private async shown(projectId: number, rows: CohortRow[]): Promise<Cohort[]> {
    const staticCounts = await cohortStore.memberCounts(
      this.db,
      rows.filter((r) => r.is_static === 1).map((r) => r.id),
    );
    const dynamic = rows.filter((r) => r.is_static === 0 && r.deleted === 0).map((r) => r.id);
    const dynamicCounts = new Map<number, number>();
    if (dynamic.length) {
      await scanDynamic(this.db, projectId, await cohortStore.live(this.db, projectId), dynamic, (cohortId) => {
        dynamicCounts.set(cohortId, (dynamicCounts.get(cohortId) ?? 0) + 1);
      });
    }
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      description: row.description,
      is_static: row.is_static === 1,
      filters: JSON.parse(row.filters) as CohortFilters,
      count: (row.is_static === 1 ? staticCounts.get(row.id) : dynamicCounts.get(row.id)) ?? 0,
      deleted: row.deleted === 1,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }));
  }

  /** A flag's cohort leaves name live cohorts of its project (the flag service's filter check). */
  readonly checkFlagFilters = async (db: Kysely<Database>, projectId: number, filters: Filters): Promise<void> => {
    const ids = [...new Set(cohortsOfFlag(filters))];
    if (!ids.length) return;
    const live = new Set((await cohortStore.live(db, projectId)).map((row) => row.id));
    const missing = ids.find((id) => !live.has(id));
    if (missing !== undefined) throw new ValidationError(`Cohort ${missing} does not exist in this project (or is deleted).`, 'filters', 'invalid_cohort');
  };

  /** Referenced cohorts exist, are live and lead back to `self` nowhere (400). */
  private async checkReferences(db: Kysely<Database>, projectId: number, filters: CohortFilters, self: number | undefined): Promise<void> {
    const refs = referencedCohorts(filters);
    if (!refs.length) return;
    const live = new Map((await cohortStore.live(db, projectId)).map((row) => [row.id, row]));
    for (const ref of refs) {
      if (!live.has(ref)) throw new ValidationError(`Cohort ${ref} does not exist in this project (or is deleted).`, 'filters', 'invalid_cohort');
    }
    if (self === undefined) return;
    const seen = new Set<number>();
    const reaches = (id: number): boolean => {
      if (id === self) return true;
      if (seen.has(id)) return false;
      seen.add(id);
      const row = live.get(id);
      return row ? referencedCohorts(JSON.parse(row.filters) as CohortFilters).some(reaches) : false;
    };
    const back = refs.find(reaches);
    if (back !== undefined)
      throw new ValidationError(`Cohort ${back} refers back to this cohort: cohorts cannot refer to each other in a cycle.`, 'filters', 'cohort_cycle');
  }

  /** 409 naming the live flags and cohorts that use a cohort. */
  private async checkUnused(db: Kysely<Database>, projectId: number, id: number): Promise<void> {
    const uses: CohortUse[] = [];
    const flags = await db
      .selectFrom('feature_flags')
      .select(['id', 'key', 'filters'])
      .where('project_id', '=', projectId)
      .where('deleted', '=', 0)
      .where('filters', 'like', '%cohort%')
      .execute();
    for (const flag of flags)
      if (cohortsOfFlag(JSON.parse(flag.filters) as Filters).includes(id)) uses.push({ type: 'feature_flag', id: flag.id, name: flag.key });
    for (const row of await cohortStore.live(db, projectId)) {
      if (row.id !== id && referencedCohorts(JSON.parse(row.filters) as CohortFilters).includes(id)) uses.push({ type: 'cohort', id: row.id, name: row.name });
    }
    if (uses.length) {
      const named = uses.map((use) => (use.type === 'feature_flag' ? `flag "${use.name}"` : `cohort "${use.name}" (${use.id})`)).join(', ');
      throw new ConflictError(`This cohort is used by ${named}: remove it from them first.`, 'deleted');
    }
  }

  private async row(db: Kysely<Database>, projectId: number, id: number): Promise<CohortRow> {
    const row = Number.isSafeInteger(id) ? await cohortStore.get(db, projectId, id) : undefined;
    if (!row) throw new NotFoundError();
    return row;
  }
}
