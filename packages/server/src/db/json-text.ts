import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from './database';

/**
 * PostgreSQL refuses to read JSON text holding `\u0000` or a lone surrogate escape (JSON.stringify writes both, and
 * stored properties may hold them): those escapes (not preceded by an odd number of backslashes) become U+FFFD before
 * the text is cast to json. The regular expression only runs on text holding an escape at all.
 */
const PG_UNREADABLE_ESCAPE = '(?<!\\\\)((?:\\\\\\\\)*)\\\\u(0000|[dD][89a-fA-F][0-9a-fA-F]{2})';

/**
 * The raw JSON text (as stored: `"a"`, `3`, `true`, `{"x":1}`) found at `path` (object keys, outermost first) in a
 * text column of JSON, or null when nothing is there; alike on SQLite and PostgreSQL. Keys are bound, never spliced;
 * they may hold anything but NUL (refuse it before: SQLite's JSON paths cannot name it).
 */
export function jsonTextAt(dialect: Dialect, column: string, path: string[]): RawBuilder<string | null> {
  const c = sql.ref(column);
  if (dialect === 'postgres') {
    const text = sql`(case when strpos(${c}, ${'\\u'}) = 0 then ${c} else regexp_replace(${c}, ${PG_UNREADABLE_ESCAPE}, ${'\\1\uFFFD'}, 'g') end)`;
    const steps = path.map((key) => sql` -> cast(${key} as text)`);
    return sql<string | null>`((${text})::json${sql.join(steps, sql``)})::text`;
  }
  // Quoted JSON path labels take any key but NUL, with `"` and `\` escaped.
  const jsonPath = `$${path.map((key) => `."${key.replace(/["\\]/g, '\\$&')}"`).join('')}`;
  return sql<string | null>`(${c} -> cast(${jsonPath} as text))`;
}

/** A property's raw JSON text in the form filters compare: a string's JSON, anything else's text as a JSON string; null for null. */
export function comparableJson(raw: RawBuilder<string | null>) {
  return sql<
    string | null
  >`(case substr(${raw}, 1, 1) when '"' then ${raw} when '{' then ${raw} when '[' then ${raw} when 'n' then null else '"' || ${raw} || '"' end)`;
}
