import { queryOptions } from '@tanstack/react-query';
import { api, qs } from '../../api/client';
import type { CapturedEvent, EventCounts, Page } from '../../api/types';

const base = (projectId: number) => `/api/projects/${projectId}/`;

/** The filters `GET …/events/` takes. */
export interface EventFilters {
  event?: string;
  distinct_id?: string;
  after?: string;
  before?: string;
  properties?: string;
}

/** What `GET …/event_counts/` counts: one event, by day, optionally by a property's value and with some property values. */
export interface EventCountsOf {
  event: string;
  after: string;
  breakdown?: string;
  where?: Record<string, string>;
  days: number;
}

export const eventKeys = {
  list: (projectId: number, filters: EventFilters, limit: number) => ['events', projectId, filters, limit] as const,
  counts: (projectId: number, { event, breakdown, where, days }: EventCountsOf) => ['event_counts', projectId, event, breakdown, where, days] as const,
  names: (projectId: number) => ['event_names', projectId] as const,
};

export const eventQueries = {
  /** The newest events that match, up to `limit`. */
  list: (projectId: number, filters: EventFilters, limit: number) =>
    queryOptions({
      queryKey: eventKeys.list(projectId, filters, limit),
      queryFn: () => api.get<Page<CapturedEvent>>(`${base(projectId)}events/${qs({ ...filters, limit })}`),
    }),
  counts: (projectId: number, of: EventCountsOf) =>
    queryOptions({
      queryKey: eventKeys.counts(projectId, of),
      queryFn: () =>
        api.get<EventCounts>(
          `${base(projectId)}event_counts/${qs({
            event: of.event,
            breakdown: of.breakdown,
            after: of.after,
            interval: 'day',
            properties: of.where ? JSON.stringify(Object.entries(of.where).map(([key, value]) => ({ key, value }))) : undefined,
          })}`,
        ),
    }),
  /** The names the project's events have, for pickers. */
  names: (projectId: number) =>
    queryOptions({ queryKey: eventKeys.names(projectId), queryFn: () => api.get<{ results: string[] }>(`${base(projectId)}event_names/`) }),
};
