/** The filters the recordings list keeps in its address, as `GET …/session_recordings/` names them. */
export const FILTER_NAMES = [
  'person_id',
  'distinct_id',
  'date_from',
  'date_to',
  'duration_min',
  'duration_max',
  'has_errors',
  'url',
  'flag',
  'variant',
] as const;

/** The list's address for a set of filters: what the person, experiment and error pages link to. */
export const replaysUrl = (projectId: number, filters: Partial<Record<(typeof FILTER_NAMES)[number], string>> = {}) => {
  const search = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => Boolean(e[1])));
  return `/project/${projectId}/replays${search.size ? `?${search}` : ''}`;
};

/** A recording's player, optionally from a moment (`at`, an ISO time: the exception of an error's occurrence). */
export const replayUrl = (projectId: number, sessionId: string, at?: string) =>
  `/project/${projectId}/replays/${encodeURIComponent(sessionId)}${at ? `?${new URLSearchParams({ at })}` : ''}`;

/** The list's filters from an address's search: `?has_errors=true` (and a variant `true`) come parsed as booleans, kept as text. */
export const filtersOf = (search: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(search).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : v]));
