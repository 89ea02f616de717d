import type { Generated, Kysely, Transaction } from 'kysely';

/** Rows as stored. Booleans are 0/1 integers and JSON is text on both SQLite and PostgreSQL. */
export interface ProjectTable {
  id: Generated<number>;
  name: string;
  api_token: string;
  created_at: string;
}

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
  /** JSON object of event properties. */
  properties: string;
  /** When it happened (client clock, corrected), ISO 8601 UTC. */
  timestamp: string;
  /** When it was stored. */
  created_at: string;
}

export interface Database {
  projects: ProjectTable;
  api_keys: ApiKeyTable;
  feature_flags: FeatureFlagTable;
  early_access_features: EarlyAccessFeatureTable;
  persons: PersonTable;
  person_distinct_ids: PersonDistinctIdTable;
  group_type_mappings: GroupTypeMappingTable;
  groups: GroupTable;
  events: EventTable;
}

/** What store functions run on: the database, or a transaction on it. */
export type Executor = Kysely<Database> | Transaction<Database>;
