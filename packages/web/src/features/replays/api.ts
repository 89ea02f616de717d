import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, qs } from '../../api/client';
import type { ReplaySettings, RrwebEvent, SessionEvents, SessionRecordingDetail, SessionRecordingList } from './types';

const base = (projectId: number) => `/api/projects/${projectId}/session_recordings/`;
const recordingPath = (projectId: number, id: string) => `${base(projectId)}${encodeURIComponent(id)}/`;
const settingsPath = (projectId: number) => `/api/projects/${projectId}/session_recording_settings/`;

/** The list's filters, as `GET …/session_recordings/` takes them (durations in seconds). */
export interface RecordingFilters {
  person_id?: string;
  distinct_id?: string;
  date_from?: string;
  date_to?: string;
  duration_min?: string;
  duration_max?: string;
  has_errors?: string;
  url?: string;
  flag?: string;
  variant?: string;
}

export const replayKeys = {
  lists: (projectId: number) => ['replays', projectId] as const,
  list: (projectId: number, filters: RecordingFilters, page: number, pageSize: number) => ['replays', projectId, filters, page, pageSize] as const,
  detail: (projectId: number, id: string) => ['replay', projectId, id] as const,
  snapshots: (projectId: number, id: string) => ['replay', projectId, id, 'snapshots'] as const,
  events: (projectId: number, id: string) => ['replay', projectId, id, 'events'] as const,
  settings: (projectId: number) => ['replay_settings', projectId] as const,
};

export const replayQueries = {
  list: (projectId: number, filters: RecordingFilters, page: number, pageSize: number) =>
    queryOptions({
      queryKey: replayKeys.list(projectId, filters, page, pageSize),
      queryFn: ({ signal }) =>
        api.get<SessionRecordingList>(`${base(projectId)}${qs({ ...filters, limit: pageSize, offset: (page - 1) * pageSize })}`, { signal }),
      placeholderData: keepPreviousData,
      // Sessions keep arriving while people use the app.
      staleTime: 0,
    }),
  detail: (projectId: number, id: string) =>
    queryOptions({ queryKey: replayKeys.detail(projectId, id), queryFn: () => api.get<SessionRecordingDetail>(recordingPath(projectId, id)) }),
  /** The rrweb events, in timestamp order: a recording still being written gives what is stored so far. */
  snapshots: (projectId: number, id: string) =>
    queryOptions({
      queryKey: replayKeys.snapshots(projectId, id),
      queryFn: ({ signal }) => api.get<RrwebEvent[]>(`${recordingPath(projectId, id)}snapshots/`, { signal }),
      // Large, and the same until the page is opened again: not read again when the window gets the focus back.
      staleTime: Infinity,
      gcTime: 60_000,
    }),
  events: (projectId: number, id: string) =>
    queryOptions({
      queryKey: replayKeys.events(projectId, id),
      queryFn: () => api.get<SessionEvents>(`${recordingPath(projectId, id)}events/`),
    }),
  settings: (projectId: number) => queryOptions({ queryKey: replayKeys.settings(projectId), queryFn: () => api.get<ReplaySettings>(settingsPath(projectId)) }),
};

export type SettingsPatch = Partial<Omit<ReplaySettings, 'retention_days' | 'storage'>>;

export const replayApi = {
  remove: (projectId: number, id: string) => api.delete(recordingPath(projectId, id)),
  saveSettings: (projectId: number, patch: SettingsPatch) => api.patch<ReplaySettings>(settingsPath(projectId), patch),
};

export function recordingDeleted(queryClient: QueryClient, projectId: number, id: string) {
  queryClient.removeQueries({ queryKey: replayKeys.detail(projectId, id) });
  return queryClient.invalidateQueries({ queryKey: replayKeys.lists(projectId) });
}
