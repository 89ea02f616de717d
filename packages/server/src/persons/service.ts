import type { Kysely } from 'kysely';
import type { Dialect } from '../db/database';
import { PAGE_MAX_BYTES } from '../db/page';
import type { Database } from '../db/schema';
import type { Properties } from '../json';
import { personList, personWrites, type PersonFilters } from './store';

/** Persons whose property names are listed (the newest), and most names listed. */
export const PROPERTY_NAME_SAMPLE = 10_000;
export const MAX_PROPERTY_NAMES = 1000;

/** The persons REST API. */
export class PersonService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * The names of the properties persons have (the newest `PROPERTY_NAME_SAMPLE` persons'), sorted by code unit (alike
   * on both databases), those containing `search` (ignoring case) if given; at most `MAX_PROPERTY_NAMES`.
   */
  async propertyNames(projectId: number, search: string | undefined): Promise<{ results: string[] }> {
    const needle = search?.toLowerCase();
    const names = (await personList.propertyNames(this.db, this.dialect, projectId, PROPERTY_NAME_SAMPLE))
      .filter((name) => !needle || name.toLowerCase().includes(needle))
      .sort();
    return { results: names.slice(0, MAX_PROPERTY_NAMES) };
  }

  /** The project's group types with their indexes (what flags and filters name by index), by index. */
  async groupTypes(projectId: number): Promise<{ results: { group_type_index: number; group_type: string }[] }> {
    const rows = await personWrites.groupTypes(this.db, projectId);
    return {
      results: rows
        .map((r) => ({ group_type_index: Number(r.group_type_index), group_type: r.group_type }))
        .sort((a, b) => a.group_type_index - b.group_type_index),
    };
  }

  async list(projectId: number, filters: PersonFilters, limit: number, offset: number) {
    const { count, rows } = await personList.page(this.db, this.dialect, projectId, filters, limit, offset, PAGE_MAX_BYTES);
    const distinctIds = await personList.distinctIds(
      this.db,
      rows.map((r) => Number(r.id)),
    );
    const results = rows.map((row) => ({
      id: row.uuid,
      distinct_ids: distinctIds.get(Number(row.id)) ?? [],
      properties: JSON.parse(row.properties) as Properties,
      is_identified: row.is_identified === 1,
      created_at: row.created_at,
    }));
    return { count, results };
  }
}
