export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface Me {
  id: number;
  email: string;
  name: string;
  role: Role;
  /** The scopes of the role: what the session may do, and the most a new key may have (`*`: everything). */
  scopes: string[];
  organization: { id: number | string; name: string };
  csrf_token: string;
}

export type Role = 'viewer' | 'member' | 'admin' | 'owner';

export interface Project {
  id: number;
  name: string;
  api_token: string;
  created_at: string;
}

/** A group type of the project: flags and filters name it by index. */
export interface GroupType {
  group_type_index: number;
  group_type: string;
}

export interface PropertyFilter {
  key: string;
  type?: string;
  operator?: string | null;
  value?: unknown;
  group_type_index?: number | null;
}

export interface Condition {
  properties?: PropertyFilter[] | null;
  rollout_percentage?: number | null;
  variant?: string | null;
}

export interface Variant {
  key: string;
  name?: string;
  rollout_percentage: number;
}

export interface FlagFilters {
  groups?: Condition[] | null;
  /** Conditions checked before `groups`: an early access feature's "opted in" condition (`$feature_enrollment/<key>`). */
  super_groups?: Condition[] | null;
  multivariate?: { variants: Variant[] } | null;
  payloads?: Record<string, unknown> | null;
  aggregation_group_type_index?: number | null;
  [other: string]: unknown;
}

export interface FeatureFlag {
  id: number;
  team_id: number;
  name: string;
  key: string;
  filters: FlagFilters;
  deleted: boolean;
  active: boolean;
  ensure_experience_continuity: boolean;
  version?: number;
  created_at?: string;
  /** What uses the flag (when one flag is read). */
  used_by?: FlagUse[];
}

/** An early access feature or an experiment that uses a flag; `status` is its stage or status. */
export interface FlagUse {
  type: 'early_access_feature' | 'experiment';
  id: string | number;
  name: string;
  status: string;
}

export const STAGES = ['draft', 'concept', 'alpha', 'beta', 'general-availability', 'archived'] as const;
export type Stage = (typeof STAGES)[number];

export interface EarlyAccessFeature {
  id: string;
  feature_flag: FeatureFlag | null;
  name: string;
  description: string;
  stage: Stage;
  documentation_url: string;
  created_at: string;
  payload?: Record<string, unknown> | null;
}

export interface Enrollment {
  distinct_id: string;
  person_id: string | null;
  group_type: string | null;
  group_key: string | null;
  enrolled: boolean;
  stage: string | null;
  updated_at: string;
}

export interface Enrollments extends Page<Enrollment> {
  counts: { enrolled: number; opted_out: number };
}

/** `GET …/early_access_feature/:id/enrollments/per_day/`: the feature's own opt-ins and opt-outs per UTC day. */
export interface EnrollmentsPerDay {
  days: string[];
  opted_in: number[];
  opted_out: number[];
}

export interface CapturedEvent {
  id: string;
  event: string;
  distinct_id: string;
  properties: Record<string, unknown>;
  timestamp: string;
}

export interface Person {
  id: string;
  distinct_ids: string[];
  properties: Record<string, unknown>;
  is_identified: boolean;
  created_at: string;
}

export interface Member {
  id: number;
  email: string;
  name: string;
  role: Role;
  joined_at: string;
}

export interface Invite {
  id: number | string;
  role: Role;
  email: string | null;
  created_at: string;
  expires_at: string;
  created_by?: unknown;
  url?: string;
}

/** A password reset link an admin made for a member (`url` is shown once). */
export interface PasswordReset {
  user_id: number;
  email: string;
  expires_at: string;
  url: string;
}

export interface PersonalApiKey {
  id: number | string;
  label: string;
  scopes: string[];
  project_ids: number[] | null;
  mask_value?: string;
  created_at: string;
  last_used_at?: string | null;
  /** Whose key it is; null for the command line's (the first start's key, `service keys create`). */
  user?: { id: number; email: string; name: string } | null;
  value?: string;
}

export interface Webhook {
  id: number | string;
  url: string;
  kinds: string[];
  enabled: boolean;
  secret?: string;
  secret_mask?: string;
}

export interface WebhookDelivery {
  id: number | string;
  kind?: string;
  status?: string;
  response_status?: number | null;
  attempts?: number;
  created_at?: string;
  [other: string]: unknown;
}

/** `GET /api/projects/:id/activity_log/` rows (see web-contract.md, "Endpoints the app needs"). */
export interface ActivityEntry {
  id: number | string;
  scope: string;
  item_id: string;
  activity: string;
  user: { id?: number; email?: string; name?: string } | null;
  /** Who made the change: the user of a session, a personal API key (its label), or the command line. */
  actor?: { type: 'user' | 'personal_api_key' | 'command_line'; name: string; user_id: number | null; api_key_id: string | null };
  created_at: string;
  detail: { name?: string | null; changes?: { field: string; before?: unknown; after?: unknown }[] | null } | null;
}

/** `GET /api/projects/:id/event_counts/` (see web-contract.md, "Endpoints the app needs"). */
export interface EventCounts {
  interval: 'day';
  days: string[];
  series: { breakdown_value: string | null; counts: number[]; total: number }[];
}

/** One flag as `/flags?v=2` answers it. */
export interface FlagDetail {
  key: string;
  enabled: boolean;
  variant: string | null;
  reason: { code: string; condition_index: number | null; description: string };
  metadata?: { id?: number; version?: number; payload?: string | null; description?: string | null };
}
