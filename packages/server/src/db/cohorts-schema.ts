// The cohorts module's tables (migration 0023), part of `Database` in schema.ts.
import type { Generated } from 'kysely';

/** A cohort: static (its members listed) or dynamic (its filters). */
export interface CohortTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  description: string;
  is_static: number;
  /** JSON `{properties: PropertyGroup}` (PostHog's shape); `{}` for a static cohort. */
  filters: string;
  deleted: number;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** A distinct id in a static cohort. */
export interface CohortMemberTable {
  cohort_id: number;
  project_id: number;
  distinct_id: string;
}

/** How many times a distinct id did a behavioral leaf's event on one UTC day. */
export interface CohortEventCountTable {
  cohort_id: number;
  leaf: number;
  project_id: number;
  distinct_id: string;
  /** Days since 1970-01-01, UTC. */
  day: number;
  count: number;
}
