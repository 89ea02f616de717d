import { sql, type ExpressionBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Dialect } from '../db/database';
import { jsonTextAt } from '../db/json-text';
import { containsIgnoringCase } from '../db/like';
import { countThenPage } from '../db/page';
import type { Database, Executor, FeatureFlagTable } from '../db/schema';

export type FlagRow = Selectable<FeatureFlagTable>;
export type Filters = Record<string, unknown>;

/** A feature flag as the API shows it. */
export interface FeatureFlag {
  id: number;
  team_id: number;
  name: string;
  key: string;
  filters: Filters;
  deleted: boolean;
  active: boolean;
  ensure_experience_continuity: boolean;
  version: number;
  created_at: string;
}

export function toFlag(row: FlagRow): FeatureFlag {
  return {
    id: row.id,
    team_id: row.project_id,
    name: row.name,
    key: row.key,
    filters: JSON.parse(row.filters) as Filters,
    deleted: row.deleted === 1,
    active: row.active === 1,
    ensure_experience_continuity: row.ensure_experience_continuity === 1,
    version: row.version,
    created_at: row.created_at,
  };
}

export interface NewFlag {
  key: string;
  name: string;
  filters: Filters;
  active: boolean;
  ensure_experience_continuity: boolean;
  /** The survey that makes this flag (kept by the service, left out of the flags list). */
  survey_id?: string | null;
}

/** What a list of flags may be narrowed to; paging too. */
export interface FlagListOptions {
  limit: number;
  offset: number;
  /** In the key or name, ignoring case. */
  search?: string;
  active?: boolean;
  /** `multivariant`: with variants; `boolean`: without. */
  type?: 'boolean' | 'multivariant';
  /** Only flags an early access feature uses (or only those none uses). */
  hasEarlyAccess?: boolean;
}

/** SQL for feature flags. Every query is scoped to a project. */
export const flagStore = {
  async insert(db: Executor, projectId: number, flag: NewFlag): Promise<FlagRow> {
    const now = new Date().toISOString();
    const values = {
      project_id: projectId,
      key: flag.key,
      name: flag.name,
      filters: JSON.stringify(flag.filters),
      active: flag.active ? 1 : 0,
      deleted: 0,
      ensure_experience_continuity: flag.ensure_experience_continuity ? 1 : 0,
      version: 1,
      survey_id: flag.survey_id ?? null,
      created_at: now,
      updated_at: now,
    };
    const { id } = await db.insertInto('feature_flags').values(values).returning('id').executeTakeFirstOrThrow();
    return { id, ...values };
  },

  get(db: Executor, projectId: number, id: number): Promise<FlagRow | undefined> {
    return db.selectFrom('feature_flags').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  },

  /** The id of the live (not deleted) flag with this key, other than `exceptId`. */
  async liveIdOfKey(db: Executor, projectId: number, key: string, exceptId?: number): Promise<number | undefined> {
    let query = db.selectFrom('feature_flags').select('id').where('project_id', '=', projectId).where('key', '=', key).where('deleted', '=', 0);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst())?.id;
  },

  async update(
    db: Executor,
    row: FlagRow,
    changes: Partial<Pick<FlagRow, 'key' | 'name' | 'filters' | 'active' | 'deleted' | 'ensure_experience_continuity'>>,
  ) {
    const values = { ...changes, version: row.version + 1, updated_at: new Date().toISOString() };
    await db.updateTable('feature_flags').set(values).where('id', '=', row.id).execute();
    return { ...row, ...values };
  },

  async page(db: Executor, dialect: Dialect, projectId: number, opts: FlagListOptions) {
    // A survey's flags are the survey's: shown on it, not among the project's flags.
    let query = db.selectFrom('feature_flags').where('project_id', '=', projectId).where('deleted', '=', 0).where('survey_id', 'is', null);
    if (opts.active !== undefined) query = query.where('active', '=', opts.active ? 1 : 0);
    if (opts.type !== undefined) {
      // Multivariate: `filters.multivariate.variants` is a list with at least one variant (as the web app tells them apart).
      const variants = sql`coalesce(${jsonTextAt(dialect, 'feature_flags.filters', ['multivariate', 'variants'])}, '')`;
      const multivariate = sql<SqlBool>`(${variants} like '[%' and ${variants} <> '[]')`;
      query = query.where(opts.type === 'multivariant' ? multivariate : sql<SqlBool>`not ${multivariate}`);
    }
    if (opts.hasEarlyAccess !== undefined) {
      const linked = (eb: ExpressionBuilder<Database, 'feature_flags'>) =>
        eb.exists(
          eb
            .selectFrom('early_access_features as f')
            .select('f.id')
            .whereRef('f.feature_flag_id', '=', 'feature_flags.id')
            .where('f.project_id', '=', projectId),
        );
      query = query.where((eb) => (opts.hasEarlyAccess ? linked(eb) : eb.not(linked(eb))));
    }
    if (opts.search) {
      const search = opts.search;
      query = query.where((eb) => eb.or([containsIgnoringCase('key', search), containsIgnoringCase('name', search)]));
    }
    return countThenPage(query, opts.limit, opts.offset, (page) => page.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute());
  },

  /** Live and active-or-not flags of a project, for evaluation. */
  live(db: Executor, projectId: number): Promise<FlagRow[]> {
    return db.selectFrom('feature_flags').selectAll().where('project_id', '=', projectId).where('deleted', '=', 0).orderBy('id').execute();
  },

  byIds(db: Executor, ids: number[]): Promise<FlagRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return db.selectFrom('feature_flags').selectAll().where('id', 'in', ids).execute();
  },
};
