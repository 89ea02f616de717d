import { LRUCache } from 'lru-cache';
import type { Changes } from '../changes';
import type { ReplaySettings } from './settings';

/** The endpoint recorders send their batches to (`POST /s/`), relative to their `api_host`. */
export const SNAPSHOT_ENDPOINT = '/s/';

/** `sessionRecording` as posthog-js (and service-js) read it from the remote config and `/flags?config=true`. */
export interface SessionRecordingRemoteConfig {
  endpoint: string;
  /** A decimal string with two decimals, as PostHog sends it. */
  sampleRate: string;
  minimumDurationMilliseconds: number;
  linkedFlag: string | { flag: string; variant: string } | null;
  masking: { maskAllInputs: true; maskTextSelector?: string; blockSelector?: string };
  consoleLogRecordingEnabled: boolean;
  recordCanvas: boolean;
  networkPayloadCapture: null;
  urlTriggers: Array<{ url: string; matching: 'regex' }>;
  urlBlocklist: Array<{ url: string; matching: 'regex' }>;
  eventTriggers: string[];
  triggerMatchType: 'any';
  scriptConfig: null;
}

/** What a project's recording settings add to the remote config: the two fields it sets, the same object until they change. */
export interface ReplayRemoteConfig {
  sessionRecording: SessionRecordingRemoteConfig | false;
  capturePerformance: { network_timing: true } | false;
}

/** Every project that does not record shares this one. */
export const RECORDING_OFF: ReplayRemoteConfig = Object.freeze({ sessionRecording: false, capturePerformance: false });

/**
 * The remote config of a project's settings. Inputs are always masked (passwords with them): no setting turns that
 * off. "Mask all text" is posthog-js's `maskTextSelector: '*'`. Network timings are posthog-js's
 * `capturePerformance.network_timing`; payloads are never captured.
 */
export function remoteConfigOf(settings: ReplaySettings): ReplayRemoteConfig {
  if (!settings.enabled) return RECORDING_OFF;
  const masking: SessionRecordingRemoteConfig['masking'] = { maskAllInputs: true };
  const maskTextSelector = settings.mask_all_text ? '*' : settings.mask_text_selector;
  if (maskTextSelector) masking.maskTextSelector = maskTextSelector;
  if (settings.block_selector) masking.blockSelector = settings.block_selector;
  const linked = settings.linked_flag;
  return {
    sessionRecording: {
      endpoint: SNAPSHOT_ENDPOINT,
      sampleRate: settings.sample_rate.toFixed(2),
      minimumDurationMilliseconds: settings.minimum_duration_ms,
      linkedFlag: linked === null ? null : linked.variant === null ? linked.key : { flag: linked.key, variant: linked.variant },
      masking,
      consoleLogRecordingEnabled: settings.console_logs,
      recordCanvas: settings.record_canvas,
      networkPayloadCapture: null,
      urlTriggers: settings.url_triggers.map(({ url }) => ({ url, matching: 'regex' })),
      urlBlocklist: settings.url_blocklist.map(({ url }) => ({ url, matching: 'regex' })),
      eventTriggers: [...settings.event_triggers],
      triggerMatchType: 'any',
      scriptConfig: null,
    },
    capturePerformance: settings.network_timings ? { network_timing: true } : false,
  };
}

/** At most this long a process may answer an old config when a change notice is lost (`Changes` bounds the rest). */
const TTL_MS = 60_000;

/**
 * Each project's remote config of its recording settings, read once per change: `/flags` is the hot path, and every
 * page load asks. A settings change announces a change of the project's flags (`Changes`), which drops the entry in
 * every process; a lost notice (`gap`) drops them all.
 */
export class ReplayRemoteConfigs {
  private readonly entries = new LRUCache<number, Promise<ReplayRemoteConfig>>({ max: 10_000, ttl: TTL_MS });

  constructor(
    private readonly settings: { stored(projectId: number): Promise<ReplaySettings> },
    changes: Changes,
  ) {
    changes.on('flags', (projectId) => this.entries.delete(projectId));
    changes.on('gap', () => this.entries.clear());
  }

  remoteConfig(projectId: number): Promise<ReplayRemoteConfig> {
    const cached = this.entries.get(projectId);
    if (cached) return cached;
    const value = this.settings.stored(projectId).then(remoteConfigOf);
    this.entries.set(projectId, value);
    // A failed read is not kept: the next request reads again.
    value.catch(() => this.entries.peek(projectId) === value && this.entries.delete(projectId));
    return value;
  }

  /** Whether the project records (what `/s/` checks before storing a batch). */
  async enabled(projectId: number): Promise<boolean> {
    return (await this.remoteConfig(projectId)).sessionRecording !== false;
  }
}
