import { RE2JS } from 're2js';
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { ValidationError } from '../errors';
import { Text } from '../http/schemas';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Bounds of what a project may store in its settings (what every page load carries in its remote config). */
export const SETTINGS_LIMITS = { selector: 1000, url: 1000, urls: 100, event: 400, events: 100, minimumDurationMs: 24 * 60 * 60 * 1000 } as const;

const UrlTrigger = Type.Object(
  {
    url: Text({ minLength: 1, maxLength: SETTINGS_LIMITS.url, description: 'a regular expression (RE2) searched in the page URL' }),
    matching: Type.Literal('regex'),
  },
  { additionalProperties: false, title: 'SessionRecordingUrlTrigger' },
);
const UrlTriggers = Type.Array(UrlTrigger, { maxItems: SETTINGS_LIMITS.urls });

const LinkedFlag = Type.Object(
  {
    key: Text({ minLength: 1, maxLength: 400, description: "a live flag of the project's" }),
    variant: Nullable(Text({ minLength: 1, maxLength: 400, description: 'record only when the flag gives this variant; null: whenever it is on' })),
  },
  { additionalProperties: false, title: 'SessionRecordingLinkedFlag' },
);

/** What a project chooses; `enabled` is its own column, the rest is `replay_settings.config`. */
const editable = {
  enabled: Type.Boolean({ description: 'record sessions (off by default)' }),
  sample_rate: Type.Number({ minimum: 0, maximum: 1, description: 'share of sessions recorded, 0 to 1 (sent to clients with two decimals)' }),
  minimum_duration_ms: Type.Integer({ minimum: 0, maximum: SETTINGS_LIMITS.minimumDurationMs, description: 'nothing is sent until a session lasts this long' }),
  linked_flag: Nullable(LinkedFlag),
  mask_all_text: Type.Boolean({ description: 'mask every text of the page (inputs and passwords are always masked)' }),
  mask_text_selector: Nullable(Text({ maxLength: SETTINGS_LIMITS.selector, description: 'CSS selector of elements whose text is masked' })),
  block_selector: Nullable(Text({ maxLength: SETTINGS_LIMITS.selector, description: 'CSS selector of elements not recorded (a placeholder of their size)' })),
  console_logs: Type.Boolean({ description: 'record console logs' }),
  network_timings: Type.Boolean({ description: 'record network timings (no payloads)' }),
  record_canvas: Type.Boolean({ description: 'record canvas elements' }),
  url_triggers: UrlTriggers,
  url_blocklist: UrlTriggers,
  event_triggers: Type.Array(Text({ minLength: 1, maxLength: SETTINGS_LIMITS.event }), { maxItems: SETTINGS_LIMITS.events }),
};

export const SessionRecordingSettingsUpdate = Type.Partial(Type.Object(editable), {
  additionalProperties: false,
  title: 'SessionRecordingSettingsUpdate',
});
export type SettingsPatch = Static<typeof SessionRecordingSettingsUpdate>;

export const SessionRecordingSettingsSchema = Type.Object(
  {
    ...editable,
    retention_days: Type.Integer({ description: 'recordings are deleted this many days after they end (REPLAY_RETENTION_DAYS; read-only)' }),
    storage: Type.Object(
      { bytes: Type.Integer({ description: 'bytes the stored recordings take' }), sessions: Type.Integer({ description: 'recordings stored' }) },
      { title: 'SessionRecordingStorage', description: 'read-only' },
    ),
  },
  { title: 'SessionRecordingSettings' },
);
export type SessionRecordingSettings = Static<typeof SessionRecordingSettingsSchema>;

/** The chosen settings, as stored. */
export type ReplaySettings = Static<TObject<typeof editable>>;
export type ReplayConfig = Omit<ReplaySettings, 'enabled'>;

export const DEFAULT_SETTINGS: ReplaySettings = {
  enabled: false,
  sample_rate: 1,
  minimum_duration_ms: 0,
  linked_flag: null,
  mask_all_text: false,
  mask_text_selector: null,
  block_selector: null,
  console_logs: false,
  network_timings: false,
  record_canvas: false,
  url_triggers: [],
  url_blocklist: [],
  event_triggers: [],
};

/** The fields of the settings, in the order the activity log lists their changes. */
export const SETTINGS_FIELDS = Object.keys(DEFAULT_SETTINGS) as (keyof ReplaySettings)[];

/**
 * A stored row's settings: what its JSON has of each known field, the default for the rest (a field added later, or
 * a value that is not of its schema, reads as the default rather than failing every page load's remote config).
 */
export function settingsOf(row: { enabled: number; config: string } | undefined): ReplaySettings {
  if (!row) return { ...DEFAULT_SETTINGS };
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.config);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) stored = parsed as Record<string, unknown>;
  } catch {
    stored = {};
  }
  const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const field of SETTINGS_FIELDS) {
    if (Value.Check(editable[field], stored[field])) settings[field] = stored[field];
  }
  settings.enabled = row.enabled === 1;
  return settings as ReplaySettings;
}

/** The settings' JSON column: everything but `enabled`. */
export function configJson(settings: ReplaySettings): string {
  const { enabled: _enabled, ...config } = settings;
  return JSON.stringify(config);
}

/**
 * Checks what the schema cannot: each URL trigger is a regular expression RE2 compiles (the flag engine's engine:
 * linear time, so no pattern can hang a page or the service), and an empty selector means none.
 */
export function checkPatch(patch: SettingsPatch): SettingsPatch {
  for (const field of ['url_triggers', 'url_blocklist'] as const) {
    patch[field]?.forEach((trigger, index) => {
      try {
        RE2JS.compile(trigger.url);
      } catch (error) {
        const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
        throw new ValidationError(`Not a valid regular expression ${JSON.stringify(trigger.url)}: ${reason}`, `${field}__${index}__url`);
      }
    });
  }
  for (const field of ['mask_text_selector', 'block_selector'] as const) {
    if (typeof patch[field] === 'string' && patch[field].trim() === '') patch[field] = null;
  }
  return patch;
}
