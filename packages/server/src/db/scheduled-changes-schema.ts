// The scheduled-changes module's table (migration 0024), part of `Database` in schema.ts.
import type { Generated } from 'kysely';

/** A change to a flag at a set time. */
export interface ScheduledChangeTable {
  id: Generated<number>;
  project_id: number;
  flag_id: number;
  /** JSON object text: `{active?, rollout_percentage?, variants?}`. */
  payload: string;
  scheduled_at: string;
  /** `pending`, `applied`, `failed` (`failure_reason` says why) or `cancelled`. */
  status: string;
  ramp_id: string | null;
  failure_reason: string | null;
  created_by_user_id: number | null;
  created_by_key_id: string | null;
  created_by_label: string;
  created_at: string;
  executed_at: string | null;
}
