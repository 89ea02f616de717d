// NUL is exactly what this must find.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A client's string as a text column can hold it: cut to `max` characters, with NUL and lone
 * surrogates (which PostgreSQL refuses) replaced by U+FFFD, as PostHog does.
 */
export const storable = (s: string, max = 200) => (s.length > max ? s.slice(0, max) : s).replace(UNSTORABLE, '\uFFFD');
