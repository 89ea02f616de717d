import { sql, type Selectable } from 'kysely';
import { countThenPage } from '../db/page';
import type { EarlyAccessEnrollmentTable, Executor } from '../db/schema';

export type EnrollmentRow = Selectable<EarlyAccessEnrollmentTable>;

/** An early access feature with what enrollment needs of its flag (no flag: the flag fields are null). */
export interface EnrollableFeature {
  id: string;
  name: string;
  stage: string;
  flag_key: string | null;
  /** The flag's `filters` JSON, for its aggregation (null without a flag). */
  flag_filters: string | null;
}

/** Rows per upsert statement, well below both databases' parameter limits. */
const CHUNK = 500;

/** The columns an enrollment is listed with; the person's uuid is the one its distinct id has now (a merge changes it). */
const listed = (db: Executor) =>
  db
    .selectFrom('early_access_enrollments as e')
    .leftJoin('person_distinct_ids as d', (join) => join.onRef('d.project_id', '=', 'e.project_id').onRef('d.distinct_id', '=', 'e.distinct_id'))
    .leftJoin('persons as p', 'p.id', 'd.person_id');

const listedColumns = [
  'e.distinct_id',
  sql<string | null>`coalesce(p.uuid, e.person_uuid)`.as('person_uuid'),
  'e.group_type',
  'e.group_key',
  'e.enrolled',
  'e.stage',
  'e.updated_at',
] as const;

export type ListedEnrollment = Pick<EnrollmentRow, 'distinct_id' | 'person_uuid' | 'group_type' | 'group_key' | 'enrolled' | 'stage' | 'updated_at'>;

/** SQL for early access enrollments. */
export const enrollmentStore = {
  /** A project's feature by id, with its live flag's key and filters, and when it was created. */
  feature(db: Executor, projectId: number, id: string): Promise<(EnrollableFeature & { created_at: string }) | undefined> {
    return db
      .selectFrom('early_access_features as f')
      .leftJoin('feature_flags as flag', (join) => join.onRef('flag.id', '=', 'f.feature_flag_id').on('flag.deleted', '=', 0))
      .select(['f.id', 'f.name', 'f.stage', 'f.created_at', 'flag.key as flag_key', 'flag.filters as flag_filters'])
      .where('f.project_id', '=', projectId)
      .where('f.id', '=', id)
      .executeTakeFirst();
  },

  /** The project's features whose live flags have the given keys, with their flags' keys and filters. */
  async featuresByFlagKeys(db: Executor, projectId: number, flagKeys: string[]): Promise<(EnrollableFeature & { flag_key: string })[]> {
    if (!flagKeys.length) return [];
    const found: (EnrollableFeature & { flag_key: string })[] = [];
    for (let i = 0; i < flagKeys.length; i += CHUNK) {
      const rows = await db
        .selectFrom('early_access_features as f')
        .innerJoin('feature_flags as flag', 'flag.id', 'f.feature_flag_id')
        .select(['f.id', 'f.name', 'f.stage', 'flag.key as flag_key', 'flag.filters as flag_filters'])
        .where('f.project_id', '=', projectId)
        .where('flag.project_id', '=', projectId)
        .where('flag.deleted', '=', 0)
        .where('flag.key', 'in', flagKeys.slice(i, i + CHUNK))
        .execute();
      found.push(...rows);
    }
    return found;
  },

  /** The index of a project's group type, or undefined when the project has no such type. */
  async groupTypeIndex(db: Executor, projectId: number, groupType: string): Promise<number | undefined> {
    const row = await db
      .selectFrom('group_type_mappings')
      .select('group_type_index')
      .where('project_id', '=', projectId)
      .where('group_type', '=', groupType)
      .executeTakeFirst();
    return row?.group_type_index;
  },

  /** Inserts or replaces enrollments (at most one row per feature, group type and key). */
  async upsert(db: Executor, rows: EnrollmentRow[]) {
    for (let i = 0; i < rows.length; i += CHUNK / 10) {
      await db
        .insertInto('early_access_enrollments')
        .values(rows.slice(i, i + CHUNK / 10))
        .onConflict((oc) =>
          oc.columns(['feature_id', 'group_type', 'key']).doUpdateSet((eb) => ({
            distinct_id: eb.ref('excluded.distinct_id'),
            person_uuid: eb.ref('excluded.person_uuid'),
            group_key: eb.ref('excluded.group_key'),
            enrolled: eb.ref('excluded.enrolled'),
            stage: eb.ref('excluded.stage'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
  },

  /** One enrollment of a feature, as listed. */
  get(db: Executor, featureId: string, groupType: string, key: string): Promise<ListedEnrollment | undefined> {
    return listed(db)
      .select(listedColumns)
      .where('e.feature_id', '=', featureId)
      .where('e.group_type', '=', groupType)
      .where('e.key', '=', key)
      .executeTakeFirst();
  },

  /** How many of a feature's enrollments are opted in, and how many opted out. */
  async counts(db: Executor, featureId: string): Promise<{ enrolled: number; opted_out: number }> {
    const rows = await db
      .selectFrom('early_access_enrollments')
      .select(['enrolled', sql<number | string>`count(*)`.as('count')])
      .where('feature_id', '=', featureId)
      .groupBy('enrolled')
      .execute();
    const count = (enrolled: number) => Number(rows.find((r) => Number(r.enrolled) === enrolled)?.count ?? 0);
    return { enrolled: count(1), opted_out: count(0) };
  },

  /** A feature's enrollments made since `after` (ISO), counted per UTC day (of \`updated_at\`) and state. */
  async perDay(db: Executor, featureId: string, after: string): Promise<{ day: string; enrolled: boolean; n: number }[]> {
    const rows = await db
      .selectFrom('early_access_enrollments')
      .select([sql<string>`substr(updated_at, 1, 10)`.as('day'), 'enrolled', sql<number | string>`count(*)`.as('n')])
      .where('feature_id', '=', featureId)
      .where('updated_at', '>=', after)
      .groupBy([sql`substr(updated_at, 1, 10)`, 'enrolled'])
      .execute();
    return rows.map((r) => ({ day: r.day, enrolled: Number(r.enrolled) === 1, n: Number(r.n) }));
  },

  /** A page of a feature's enrollments, newest first, optionally only those opted in (or out). */
  async page(db: Executor, featureId: string, enrolled: boolean | undefined, limit: number, offset: number) {
    let query = listed(db).where('e.feature_id', '=', featureId);
    if (enrolled !== undefined) query = query.where('e.enrolled', '=', enrolled ? 1 : 0);
    return countThenPage(query, limit, offset, (page) =>
      page.select(listedColumns).orderBy('e.updated_at', 'desc').orderBy('e.group_type', 'desc').orderBy('e.key', 'desc').execute(),
    );
  },
};
