import { sql, type Insertable, type SqlBool } from 'kysely';
import type { Dialect } from '../db/database';
import { jsonTextAt } from '../db/json-text';
import { containsPattern } from '../db/like';
import { countThenPage, rowsWithinBytes } from '../db/page';
import type { Executor, GroupTable, PersonTable } from '../db/schema';
import type { Properties } from '../json';

/** Reads of persons and groups, as flag evaluation needs them. */
export const personReads = {
  /** The query of the stored properties of the person behind a distinct id (binds project id, then distinct id). */
  propertiesQuery(db: Executor, projectId = 0, distinctId = '') {
    return db
      .selectFrom('person_distinct_ids as d')
      .innerJoin('persons as p', 'p.id', 'd.person_id')
      .select('p.properties')
      .where('d.project_id', '=', projectId)
      .where('d.distinct_id', '=', distinctId);
  },

  /** The stored properties of the person behind a distinct id, or undefined when there is none. */
  async properties(db: Executor, projectId: number, distinctId: string): Promise<Properties | undefined> {
    const row = await personReads.propertiesQuery(db, projectId, distinctId).executeTakeFirst();
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
      .where(
        'm.group_type',
        'in',
        entries.map(([type]) => type),
      )
      .execute();
    const result: Record<string, Properties> = {};
    for (const row of rows) if (groups[row.group_type] === row.group_key) result[row.group_type] = JSON.parse(row.properties) as Properties;
    return result;
  },
};

/** A person row found through one of its distinct ids. */
export interface PersonByDistinctId {
  distinct_id: string;
  id: number;
  uuid: string;
  properties: string;
  is_identified: number;
  created_at: string;
}

/** Ids per `in (...)` list, well below both databases' parameter limits. */
const CHUNK = 500;

/** Writes of persons and groups, as ingestion makes them (inside its transaction). */
export const personWrites = {
  /** The persons behind the given distinct ids (ids without a person are absent). */
  async byDistinctIds(db: Executor, projectId: number, distinctIds: string[]): Promise<PersonByDistinctId[]> {
    const found: PersonByDistinctId[] = [];
    for (let i = 0; i < distinctIds.length; i += CHUNK) {
      const rows = await db
        .selectFrom('person_distinct_ids as d')
        .innerJoin('persons as p', 'p.id', 'd.person_id')
        .select(['d.distinct_id', 'p.id', 'p.uuid', 'p.properties', 'p.is_identified', 'p.created_at'])
        .where('d.project_id', '=', projectId)
        .where('d.distinct_id', 'in', distinctIds.slice(i, i + CHUNK))
        .execute();
      found.push(...rows);
    }
    return found;
  },

  /** Inserts persons and returns their ids by uuid. */
  async insertPersons(db: Executor, rows: Insertable<PersonTable>[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    for (let i = 0; i < rows.length; i += CHUNK / 5) {
      const result = await db
        .insertInto('persons')
        .values(rows.slice(i, i + CHUNK / 5))
        .returning(['id', 'uuid'])
        .execute();
      for (const { id, uuid } of result) ids.set(uuid, Number(id));
    }
    return ids;
  },

  async insertDistinctIds(db: Executor, rows: { project_id: number; distinct_id: string; person_id: number }[]) {
    for (let i = 0; i < rows.length; i += CHUNK)
      await db
        .insertInto('person_distinct_ids')
        .values(rows.slice(i, i + CHUNK))
        .execute();
  },

  /** Moves every distinct id of person `from` to person `to`, then deletes `from`. */
  async mergeInto(db: Executor, from: number, to: number) {
    await db.updateTable('person_distinct_ids').set({ person_id: to }).where('person_id', '=', from).execute();
    await db.deleteFrom('persons').where('id', '=', from).execute();
  },

  /** Rewrites stored persons (their id, project and uuid unchanged), in one statement per chunk. */
  async updatePersons(db: Executor, rows: Insertable<PersonTable>[]) {
    for (let i = 0; i < rows.length; i += CHUNK / 5) {
      await db
        .insertInto('persons')
        .values(rows.slice(i, i + CHUNK / 5))
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            properties: eb.ref('excluded.properties'),
            is_identified: eb.ref('excluded.is_identified'),
            created_at: eb.ref('excluded.created_at'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
  },

  async groupTypes(db: Executor, projectId: number): Promise<{ group_type: string; group_type_index: number }[]> {
    return db.selectFrom('group_type_mappings').select(['group_type', 'group_type_index']).where('project_id', '=', projectId).execute();
  },

  async insertGroupType(db: Executor, projectId: number, groupType: string, index: number) {
    await db.insertInto('group_type_mappings').values({ project_id: projectId, group_type: groupType, group_type_index: index }).execute();
  },

  async groupProperties(db: Executor, projectId: number, index: number, key: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('groups')
      .select('properties')
      .where('project_id', '=', projectId)
      .where('group_type_index', '=', index)
      .where('group_key', '=', key)
      .executeTakeFirst();
    return row?.properties;
  },

  async upsertGroup(db: Executor, row: Insertable<GroupTable>) {
    await db
      .insertInto('groups')
      .values(row)
      .onConflict((oc) => oc.columns(['project_id', 'group_type_index', 'group_key']).doUpdateSet({ properties: row.properties, updated_at: row.updated_at }))
      .execute();
  },
};

export interface PersonFilters {
  /** Only the person behind this distinct id. */
  distinctId?: string;
  /** Only persons with a distinct id or a property value (at any depth; not a key) holding this, ignoring case. */
  search?: string;
}

/**
 * `search` in SQL: a distinct id of the person contains the term, or a scalar value of its properties does. The
 * properties' JSON text is tried first (the value's JSON-escaped form is in it wherever the value is), so only
 * persons whose text holds the term have their values walked.
 */
function searchCondition(dialect: Dialect, projectId: number, term: string) {
  const pattern = containsPattern(term.toLowerCase());
  const inText = containsPattern(JSON.stringify(term.toLowerCase()).slice(1, -1));
  const inDistinctId = sql<SqlBool>`exists (select 1 from person_distinct_ids as d
    where d.person_id = p.id and d.project_id = ${projectId} and lower(d.distinct_id) like ${pattern} escape '\\')`;
  const inValue =
    dialect === 'postgres'
      ? sql<SqlBool>`exists (select 1 from jsonb_path_query((${jsonTextAt(dialect, 'p.properties', [])})::jsonb, 'strict $.**') as v(value)
          where jsonb_typeof(v.value) in ('string', 'number', 'boolean') and lower(v.value #>> '{}') like ${pattern} escape '\\')`
      : sql<SqlBool>`exists (select 1 from json_tree(p.properties) as v
          where v.type not in ('object', 'array', 'null')
          and lower(case v.type when 'true' then 'true' when 'false' then 'false' else v.atom end) like ${pattern} escape '\\')`;
  return sql<SqlBool>`(${inDistinctId} or (lower(p.properties) like ${inText} escape '\\' and ${inValue}))`;
}

/** Reads for the persons REST API. */
export const personList = {
  /**
   * A page of a project's persons, newest first, optionally only the one behind `distinctId`: at most `limit`
   * of them, and no more once their properties reach `maxBytes` (one at least).
   */
  async page(db: Executor, dialect: Dialect, projectId: number, filters: PersonFilters, limit: number, offset: number, maxBytes: number) {
    let query = db.selectFrom('persons as p').where('p.project_id', '=', projectId);
    if (filters.search !== undefined) query = query.where(searchCondition(dialect, projectId, filters.search));
    if (filters.distinctId !== undefined) {
      const distinctId = filters.distinctId;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('person_distinct_ids as d')
            .select('d.person_id')
            .whereRef('d.person_id', '=', 'p.id')
            .where('d.project_id', '=', projectId)
            .where('d.distinct_id', '=', distinctId),
        ),
      );
    }
    return countThenPage(query, limit, offset, async (page) => {
      const sizes = await page
        .select(['p.id', sql<number>`octet_length(p.properties)`.as('bytes')])
        .orderBy('p.id', 'desc')
        .execute();
      return rowsWithinBytes(sizes, maxBytes, (ids) =>
        db.selectFrom('persons').select(['id', 'uuid', 'properties', 'is_identified', 'created_at']).where('id', 'in', ids).orderBy('id', 'desc').execute(),
      );
    });
  },

  /**
   * The top-level property names of the project's `sample` newest persons, each once, in no order: what pickers
   * suggest, read from a bounded number of rows however many persons the project has.
   */
  async propertyNames(db: Executor, dialect: Dialect, projectId: number, sample: number): Promise<string[]> {
    const newest = sql`(select properties from persons where project_id = ${projectId} order by id desc limit ${sample}) as p`;
    const { rows } =
      dialect === 'postgres'
        ? await sql<{
            name: string;
          }>`select distinct k.name from ${newest}, json_object_keys((${jsonTextAt(dialect, 'p.properties', [])})::json) as k(name)`.execute(db)
        : await sql<{ name: string }>`select distinct j.key as name from ${newest}, json_each(p.properties) as j`.execute(db);
    return rows.map((r) => r.name);
  },

  /** The distinct ids of each person, by person id, each list sorted. */
  async distinctIds(db: Executor, personIds: number[]): Promise<Map<number, string[]>> {
    const byPerson = new Map<number, string[]>(personIds.map((id) => [id, []]));
    if (!personIds.length) return byPerson;
    const rows = await db.selectFrom('person_distinct_ids').select(['person_id', 'distinct_id']).where('person_id', 'in', personIds).execute();
    for (const row of rows) byPerson.get(Number(row.person_id))?.push(row.distinct_id);
    // Sorted here, not in SQL: the databases' collations order mixed case differently.
    for (const ids of byPerson.values()) ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return byPerson;
  },
};
