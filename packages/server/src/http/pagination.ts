import type { FastifyRequest } from 'fastify';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

const positiveInt = (raw: unknown) => (typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : undefined);

/**
 * `limit` (default 100, at most 1000) and `offset` (default 0, at most 2^53 - 1, past every row); bad values fall
 * back to the defaults.
 */
export function pageParams(request: FastifyRequest): { limit: number; offset: number } {
  const query = request.query as Record<string, unknown>;
  const limit = positiveInt(query.limit);
  return {
    limit: limit && limit > 0 ? Math.min(limit, MAX_LIMIT) : DEFAULT_LIMIT,
    offset: Math.min(positiveInt(query.offset) ?? 0, Number.MAX_SAFE_INTEGER),
  };
}

/**
 * The paged envelope, with absolute `next`/`previous` links that repeat the query with a shifted offset. `next`
 * starts after the last result, so a page cut short (by PAGE_MAX_BYTES) is continued where it stopped.
 */
export function pageOf<T>(request: FastifyRequest, count: number, results: T[], { limit, offset }: { limit: number; offset: number }): Page<T> {
  const link = (nextOffset: number | null) => {
    const url = new URL(request.url, `${request.protocol}://${request.host}`);
    url.searchParams.set('limit', String(limit));
    if (nextOffset === null) url.searchParams.delete('offset');
    else url.searchParams.set('offset', String(nextOffset));
    url.searchParams.sort();
    return url.toString();
  };
  return {
    count,
    next: results.length && offset + results.length < count ? link(offset + results.length) : null,
    previous: offset <= 0 ? null : link(offset - limit > 0 ? offset - limit : null),
    results,
  };
}
