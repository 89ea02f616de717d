import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

interface Tables {
  early_access_features: { stage: string; feature_flag_id: number | null; payload: string | null };
  feature_flags: { id: number; filters: string; version: number; updated_at: string };
}

/**
 * The feature's `payload` (a JSON object, as text), and `concept` as a waitlist: the flags of concept features lose
 * their enrollment condition (`super_groups` null); opt-ins stay stored and count once the feature is released.
 */
export const earlyAccessPayload = (dialect: Dialect) => ({
  async up(unknownDb: Kysely<unknown>) {
    void dialect;
    const db = unknownDb as Kysely<Tables>;
    await db.schema.alterTable('early_access_features').addColumn('payload', 'text').execute();
    const flags = await db
      .selectFrom('feature_flags')
      .innerJoin('early_access_features', 'early_access_features.feature_flag_id', 'feature_flags.id')
      .select(['feature_flags.id', 'feature_flags.filters', 'feature_flags.version'])
      .where('early_access_features.stage', '=', 'concept')
      .execute();
    const now = new Date().toISOString();
    for (const flag of flags) {
      const filters = JSON.parse(flag.filters) as Record<string, unknown>;
      if (filters.super_groups == null) continue;
      await db
        .updateTable('feature_flags')
        .set({ filters: JSON.stringify({ ...filters, super_groups: null }), version: flag.version + 1, updated_at: now })
        .where('id', '=', flag.id)
        .execute();
    }
  },
});
