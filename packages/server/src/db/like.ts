import { sql, type Expression, type SqlBool } from 'kysely';

/** A LIKE pattern that finds `term` literally anywhere: its `%`, `_` and `\` escaped with `\` (use with `ESCAPE '\'`). */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, '\\$&')}%`;

/** `lower(column) LIKE '%term%'` with the term taken literally, the same on SQLite and PostgreSQL. */
export function containsIgnoringCase(column: string, term: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${containsPattern(term.toLowerCase())} escape '\\'`;
}
