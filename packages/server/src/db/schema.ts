import type { Generated, Kysely, Selectable, Transaction } from 'kysely';
import type { CohortEventCountTable, CohortMemberTable, CohortTable } from './cohorts-schema';
import type { LlmEventTable, LlmPayloadTable, LlmPricesTable } from './llm-schema';
import type { LlmPromptLabelTable, LlmPromptTable, LlmPromptVersionTable } from './llm-prompts-schema';
import type { ScheduledChangeTable } from './scheduled-changes-schema';
import type { ReplayBatchTable, ReplayBlobTable, ReplayBlockTable, ReplaySessionTable, ReplaySessionUrlTable, ReplaySettingsTable } from './replay-schema';

/** Rows as stored. Booleans are 0/1 integers and JSON is text on both SQLite and PostgreSQL. */
export interface ProjectTable {
  id: Generated<number>;
  name: string;
  api_token: string;
  created_at: string;
}

/** A project as read: what every request of a project (`request.project`) carries. */
export type Project = Selectable<ProjectTable>;

export interface ApiKeyTable {
  id: string;
  label: string;
  /** sha256 hex of the key; the key itself is never stored. */
  secure_value: string;
  mask_value: string;
  /** JSON array of scopes. */
  scopes: string;
  /** JSON array of project ids, or null for every project. */
  project_ids: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The user who made the key (revoked when the user is removed); null for keys made by the command line. */
  user_id: number | null;
}

export interface FeatureFlagTable {
  id: Generated<number>;
  project_id: number;
  key: string;
  name: string;
  filters: string;
  active: number;
  deleted: number;
  ensure_experience_continuity: number;
  version: number;
  /** The survey that made this flag (its targeting or internal targeting), kept by the service and not listed with the others. */
  survey_id: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface EarlyAccessFeatureTable {
  id: string;
  project_id: number;
  feature_flag_id: number | null;
  name: string;
  description: string;
  stage: string;
  documentation_url: string;
  created_at: string;
  /** JSON object the feature carries for the SDKs (`payload`), or null. */
  payload: string | null;
}

/** The latest opt-in or opt-out of a person (by distinct id) or group in an early access feature. */
export interface EarlyAccessEnrollmentTable {
  project_id: number;
  feature_id: string;
  /** '' for a person, else the group type's name. */
  group_type: string;
  /** The distinct id of a person, or the group key. */
  key: string;
  distinct_id: string | null;
  person_uuid: string | null;
  group_key: string | null;
  enrolled: number;
  /** The feature's stage when the enrollment was recorded. */
  stage: string;
  updated_at: string;
}

export interface PersonTable {
  id: Generated<number>;
  project_id: number;
  uuid: string;
  /** JSON object of person properties. */
  properties: string;
  is_identified: number;
  created_at: string;
  updated_at: string;
}

export interface PersonDistinctIdTable {
  project_id: number;
  distinct_id: string;
  person_id: number;
}

export interface GroupTypeMappingTable {
  project_id: number;
  group_type: string;
  /** 0–4, assigned in order of first use per project. */
  group_type_index: number;
}

export interface GroupTable {
  project_id: number;
  group_type_index: number;
  group_key: string;
  properties: string;
  created_at: string;
  updated_at: string;
}

export interface EventTable {
  id: Generated<number>;
  project_id: number;
  uuid: string;
  event: string;
  distinct_id: string;
  /** JSON object of event properties (its exceptions without their stack traces when `exception_stacks` names them). */
  properties: string;
  /** When it happened (client clock, corrected), ISO 8601 UTC. */
  timestamp: string;
  /** When it was stored. */
  created_at: string;
  /** The hash of its exceptions' stack traces in `exception_stacks`, for an `$exception` event stored since migration 0013. */
  exception_stacks: string | null;
  /** Its `$session_id` (events stored since migration 0019), which a replay's timeline reads by. */
  session_id: Generated<string | null>;
  /** The places of its LLM inputs and outputs stored apart in `llm_payloads` (JSON; migration 0022), null when none. */
  llm_payloads: Generated<string | null>;
  /** What those add to its properties when put back in, in bytes. */
  llm_payload_bytes: Generated<number | null>;
}

/** The stack traces of an exception list (a JSON list, null for an exception without), once per project and distinct stacks. */
export interface ExceptionStacksTable {
  project_id: number;
  hash: string;
  stacks: string;
  created_at: string;
}

export interface WebhookTable {
  id: string;
  project_id: number;
  url: string;
  /** The signing secret (`whsec_…`), stored as given: HMAC needs it. */
  secret: string;
  /** JSON array of webhook kinds. */
  kinds: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

/** The webhook outbox: one row per delivery of one change to one webhook. */
export interface WebhookDeliveryTable {
  id: string;
  project_id: number;
  webhook_id: string;
  kind: string;
  /** The JSON body sent, as sent. */
  payload: string;
  /** pending | succeeded | failed */
  status: string;
  attempts: number;
  next_attempt_at: string;
  /** A worker holds the delivery (is sending it) until then. */
  locked_until: string | null;
  last_response_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** The organization: one row (id 1) per service. */
export interface OrganizationTable {
  id: number;
  name: string;
  created_at: string;
}

export interface UserTable {
  id: Generated<number>;
  organization_id: number;
  /** Lower case. */
  email: string;
  name: string;
  /** `scrypt$N$r$p$salt$hash` (base64url parts). */
  password_hash: string;
  /** viewer | member | admin | owner */
  role: string;
  created_at: string;
}

export interface SessionTable {
  /** sha256 hex of the cookie's value. */
  id: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
}

export interface InviteTable {
  id: string;
  /** sha256 hex of the link's token. */
  token_hash: string;
  role: string;
  email: string | null;
  created_by: number | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}

/** A password reset link an admin made for a member: single use until `expires_at`. */
export interface PasswordResetTable {
  id: string;
  /** sha256 hex of the link's token. */
  token_hash: string;
  user_id: number;
  created_by: number | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** One failed login, under `<client> <email>`: the client's address (an IPv6 address's /64) and the email as typed, trimmed and in lower case. */
export interface LoginFailureTable {
  id: Generated<number>;
  key: string;
  at: string;
}

/** One change to one item: who made it, when, and the changed fields (`detail`: JSON `{name, changes}`). */
export interface ActivityLogTable {
  id: Generated<number>;
  /** null for organization things: personal API keys, members, invites. */
  project_id: number | null;
  /** FeatureFlag | EarlyAccessFeature | Experiment | Webhook | Project | PersonalAPIKey | OrganizationMembership | OrganizationInvite */
  scope: string;
  item_id: string;
  /** created | updated | deleted */
  activity: string;
  /** The user acting (a session, or the owner of the key used); null for the command line. */
  user_id: number | null;
  /** The personal API key used; null for a session or the command line. */
  api_key_id: string | null;
  actor_name: string;
  detail: string;
  created_at: string;
}

/** An A/B test on a multivariate flag. */
export interface ExperimentTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  description: string;
  feature_flag_id: number;
  /** JSON array of `{key, rollout_percentage}`: the planned split. */
  variants: string;
  /** JSON array of metrics; the first is the primary. */
  metrics: string;
  /** ISO time; null until the experiment runs (unless given). */
  start_date: string | null;
  end_date: string | null;
  /** draft | running | complete */
  status: string;
  created_at: string;
  updated_at: string;
}

/** An error tracking issue: the exceptions whose fingerprints map to it. */
export interface ErrorTrackingIssueTable {
  /** A UUID. */
  id: string;
  project_id: number;
  name: string;
  description: string;
  /** active | resolved | suppressed */
  status: string;
  first_seen: string;
  last_seen: string;
  occurrences: number;
  /** Distinct ids affected. */
  people: number;
  /** When a resolved issue last occurred again (and became active). */
  regressed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Which issue a fingerprint's exceptions belong to. */
export interface ErrorTrackingFingerprintTable {
  project_id: number;
  fingerprint: string;
  issue_id: string;
  created_at: string;
}

/** One stored `$exception` event of an issue (the event is in `events`, by uuid). */
export interface ErrorTrackingOccurrenceTable {
  id: Generated<number>;
  project_id: number;
  issue_id: string;
  event_uuid: string;
  distinct_id: string;
  timestamp: string;
}

/** A distinct id an issue affected: how often, and when last. */
export interface ErrorTrackingIssuePersonTable {
  issue_id: string;
  distinct_id: string;
  occurrences: number;
  last_seen: string;
}

/** A source map uploaded for one release's minified file. */
/** A part (up to a megabyte) of a source map's text or of its minified file, as UTF-8 bytes. */
export interface SourceMapPartTable {
  project_id: number;
  map_id: string;
  /** map | source */
  kind: string;
  seq: number;
  bytes: Uint8Array;
  created_at: string;
}

export interface SourceMapTable {
  /** A UUIDv7; a re-upload of the same release and URL gets a new one. */
  id: string;
  project_id: number;
  release: string;
  /** The minified file's URL, or `~/path` for that path on any origin. */
  url: string;
  /** The source map v3, JSON text; empty when its parts hold it (`source_map_parts`, every upload since migration 0018). */
  map: string;
  /** The minified file, when it was uploaded too and stored before migration 0018 (since, in `source_map_parts`). */
  source: string | null;
  /** The minified file's functions, packed (`FunctionScopes`); null without the file. */
  scopes: Uint8Array | null;
  /** Bytes of `map` and `source` (UTF-8). */
  size: number;
  created_at: string;
}

/** A survey: its definition in the shape posthog-js reads (JSON text columns) and its two flags. */
export interface SurveyTable {
  id: string;
  project_id: number;
  name: string;
  description: string;
  /** popover | widget | api | external_survey */
  type: string;
  /** JSON array of questions, each with its server-made `id`. */
  questions: string;
  /** once | recurring | always */
  schedule: string;
  appearance: string | null;
  conditions: string | null;
  linked_flag_key: string | null;
  targeting_flag_id: number | null;
  internal_targeting_flag_id: number | null;
  linked_early_access_feature_id: string | null;
  start_date: string | null;
  end_date: string | null;
  responses_limit: number | null;
  iteration_count: number | null;
  iteration_frequency_days: number | null;
  current_iteration: number | null;
  current_iteration_start_date: string | null;
  enable_partial_responses: number;
  archived: number;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** A stored survey event (shown, dismissed, sent, abandoned), named by its survey's id whether or not it exists. */
export interface SurveyEventTable {
  id: Generated<number>;
  project_id: number;
  survey_id: string;
  kind: string;
  event_uuid: string;
  distinct_id: string;
  person_id: number | null;
  submission_id: string | null;
  iteration: number | null;
  timestamp: string;
  /** JSON object of the event's flag values (`$feature/<key>` → value), or null. */
  flags: string | null;
}

/** One submission's answers, partial answers merged (question id → its latest answer). */
export interface SurveyResponseTable {
  id: Generated<number>;
  project_id: number;
  survey_id: string;
  submission_id: string;
  distinct_id: string;
  person_id: number | null;
  iteration: number | null;
  answers: string;
  completed: number;
  /** 1 when it arrived after the survey ended (or for a survey that does not exist). */
  late: number;
  first_at: string;
  last_at: string;
  flags: string | null;
}

export interface Database {
  projects: ProjectTable;
  api_keys: ApiKeyTable;
  feature_flags: FeatureFlagTable;
  early_access_features: EarlyAccessFeatureTable;
  early_access_enrollments: EarlyAccessEnrollmentTable;
  persons: PersonTable;
  person_distinct_ids: PersonDistinctIdTable;
  group_type_mappings: GroupTypeMappingTable;
  groups: GroupTable;
  events: EventTable;
  exception_stacks: ExceptionStacksTable;
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  organizations: OrganizationTable;
  users: UserTable;
  sessions: SessionTable;
  invites: InviteTable;
  password_resets: PasswordResetTable;
  login_failures: LoginFailureTable;
  activity_log: ActivityLogTable;
  experiments: ExperimentTable;
  error_tracking_issues: ErrorTrackingIssueTable;
  error_tracking_fingerprints: ErrorTrackingFingerprintTable;
  error_tracking_occurrences: ErrorTrackingOccurrenceTable;
  error_tracking_issue_people: ErrorTrackingIssuePersonTable;
  source_maps: SourceMapTable;
  source_map_parts: SourceMapPartTable;
  surveys: SurveyTable;
  survey_events: SurveyEventTable;
  survey_responses: SurveyResponseTable;
  replay_settings: ReplaySettingsTable;
  replay_sessions: ReplaySessionTable;
  replay_session_urls: ReplaySessionUrlTable;
  replay_blocks: ReplayBlockTable;
  replay_batches: ReplayBatchTable;
  replay_blobs: ReplayBlobTable;
  llm_events: LlmEventTable;
  llm_prices: LlmPricesTable;
  llm_payloads: LlmPayloadTable;
  llm_prompts: LlmPromptTable;
  llm_prompt_versions: LlmPromptVersionTable;
  llm_prompt_labels: LlmPromptLabelTable;
  cohorts: CohortTable;
  cohort_members: CohortMemberTable;
  cohort_event_counts: CohortEventCountTable;
  scheduled_changes: ScheduledChangeTable;
}

/** What store functions run on: the database, or a transaction on it. */
export type Executor = Kysely<Database> | Transaction<Database>;
