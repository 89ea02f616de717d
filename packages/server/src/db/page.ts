import { sql, type SelectQueryBuilder } from 'kysely';

/** A page of a list: how many rows match in all, and the rows of the page. */
export interface Page<R> {
  count: number;
  rows: R[];
}

/**
 * Counts the rows `filtered` matches, then reads the page's rows with `read`, given `filtered` limited to
 * `limit` rows from `offset` (`read` adds the selection and the order).
 */
export async function countThenPage<DB, TB extends keyof DB, R>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  limit: number,
  offset: number,
  read: (page: SelectQueryBuilder<DB, TB, object>) => Promise<R[]>,
): Promise<Page<R>> {
  const { count } = await filtered
    .select(sql<number | string>`count(*)`.as('count'))
    .$castTo<{ count: number | string }>()
    .executeTakeFirstOrThrow();
  return { count: Number(count), rows: await read(filtered.limit(limit).offset(offset)) };
}

/**
 * Bytes of stored JSON a page of events or persons holds at most: it stops adding rows there (yet always holds
 * one), so that a page of large rows stays a response JSON can hold.
 */
export const PAGE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The rows of a page that fit in `maxBytes` (the first one in any case): `sizes` gives each row's id and stored
 * size, in page order; only the ids that fit are then loaded with `load`, so rows past the budget are never read.
 */
export async function rowsWithinBytes<R>(
  sizes: { id: number; bytes: number | string }[],
  maxBytes: number,
  load: (ids: number[]) => Promise<R[]>,
): Promise<R[]> {
  let total = 0;
  let n = 0;
  for (; n < sizes.length; n++) {
    total += Number(sizes[n]!.bytes);
    if (n > 0 && total > maxBytes) break;
  }
  return n ? load(sizes.slice(0, n).map((row) => row.id)) : [];
}
