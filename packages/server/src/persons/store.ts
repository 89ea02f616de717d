import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';

type Executor = Kysely<Database> | Transaction<Database>;
export type Properties = Record<string, unknown>;

/** Reads of persons and groups, as flag evaluation needs them. Writes come with ingestion. */
export const personReads = {
  /** The stored properties of the person behind a distinct id, or undefined when there is none. */
  async properties(db: Executor, projectId: number, distinctId: string): Promise<Properties | undefined> {
    const row = await db
      .selectFrom('person_distinct_ids as d')
      .innerJoin('persons as p', 'p.id', 'd.person_id')
      .select('p.properties')
      .where('d.project_id', '=', projectId)
      .where('d.distinct_id', '=', distinctId)
      .executeTakeFirst();
    return row ? (JSON.parse(row.properties) as Properties) : undefined;
  },

  /** `{"<index>": "<group type>"}` for the project. */
  async groupTypeMapping(db: Executor, projectId: number): Promise<Record<string, string>> {
    const rows = await db.selectFrom('group_type_mappings').select(['group_type', 'group_type_index']).where('project_id', '=', projectId).execute();
    return Object.fromEntries(rows.map((r) => [String(r.group_type_index), r.group_type]));
  },

  /** Stored properties of the given groups, keyed by group type name. */
  async groupProperties(db: Executor, projectId: number, groups: Record<string, string>): Promise<Record<string, Properties>> {
    const entries = Object.entries(groups);
    if (!entries.length) return {};
    const rows = await db
      .selectFrom('groups as g')
      .innerJoin('group_type_mappings as m', (join) => join.onRef('m.project_id', '=', 'g.project_id').onRef('m.group_type_index', '=', 'g.group_type_index'))
      .select(['m.group_type', 'g.group_key', 'g.properties'])
      .where('g.project_id', '=', projectId)
      .where('m.group_type', 'in', entries.map(([type]) => type))
      .execute();
    const result: Record<string, Properties> = {};
    for (const row of rows) if (groups[row.group_type] === row.group_key) result[row.group_type] = JSON.parse(row.properties) as Properties;
    return result;
  },
};
