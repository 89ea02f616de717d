import { randomUUID } from 'node:crypto';
import { enrollmentCondition } from '@service/flag-engine';
import type { Kysely } from 'kysely';
import type { Changes } from '../changes';
import { isUuid } from '../uuid';
import { isUniqueViolation } from '../db/database';
import type { Database } from '../db/schema';
import { checkKey, insertFlag, type FlagUpdateGuard } from '../feature-flags/service';
import { flagStore, toFlag, type Filters, type FlagRow } from '../feature-flags/store';
import { NotFoundError, ValidationError } from '../errors';
import { earlyAccessStore, type FeatureRow } from './store';

export const STAGES = ['draft', 'concept', 'alpha', 'beta', 'general-availability', 'archived'] as const;
export type Stage = (typeof STAGES)[number];
/** Stages in which opted-in people get the feature (PostHog's "release stages"). */
export const RELEASE_STAGES: readonly string[] = ['concept', 'alpha', 'beta', 'general-availability'];

export interface FeatureInput {
  name: string;
  stage: Stage;
  description?: string;
  documentation_url?: string;
  feature_flag_id?: number | null;
}
export type FeaturePatch = Partial<Omit<FeatureInput, 'feature_flag_id'>>;

/** The flag summary nested in an early access feature. */
export function flagSummary(row: FlagRow) {
  const { id, team_id, name, key, filters, deleted, active, ensure_experience_continuity } = toFlag(row);
  return { id, team_id, name, key, filters, deleted, active, ensure_experience_continuity };
}
export type FlagSummary = ReturnType<typeof flagSummary>;

export function toFeature(row: FeatureRow, flag: FlagRow | undefined) {
  return {
    id: row.id,
    feature_flag: flag ? flagSummary(flag) : null,
    name: row.name,
    description: row.description,
    stage: row.stage,
    documentation_url: row.documentation_url,
    created_at: row.created_at,
  };
}

/** Django's slugify: ASCII only, lowercase, words joined by hyphens. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[^\p{ASCII}]/gu, '')
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/[-\s]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
}

function checkDocumentationUrl(url: string | undefined) {
  if (!url) return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || !parsed.hostname || /\s/.test(url)) {
    throw new ValidationError('Enter a valid URL.', 'documentation_url');
  }
}

/** A flag linked to a feature stays person-based and is not deleted while the feature exists. */
export const linkedFlagGuard: FlagUpdateGuard = async (db, flag, patch) => {
  if (!(await earlyAccessStore.byFlag(db, flag.id))) return;
  if (patch.filters?.aggregation_group_type_index != null) {
    throw new ValidationError('Cannot change this flag to a group-based when linked to an Early Access Feature.');
  }
  if (patch.deleted === true) {
    throw new ValidationError(
      'Cannot delete a feature flag that is in use with early access features. Please delete the early access feature before deleting the flag.',
    );
  }
};

const alreadyLinked = (key: string) => new ValidationError(`Linked feature flag ${key} already has a feature attached to it.`);

export class EarlyAccessService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly changes: Changes,
  ) {}

  async list(projectId: number, limit: number, offset: number) {
    const { count, rows } = await earlyAccessStore.page(this.db, projectId, limit, offset);
    const flags = new Map(
      (
        await flagStore.byIds(
          this.db,
          rows.flatMap((r) => r.feature_flag_id ?? []),
        )
      ).map((f) => [f.id, f]),
    );
    return { count, results: rows.map((row) => toFeature(row, flags.get(row.feature_flag_id ?? -1))) };
  }

  /** The public list for SDKs (`/api/early_access_features/`): PostHog's camelCase fields, flag key or null. */
  async publicList(projectId: number, stages: string[]) {
    const known = stages.filter((stage) => (STAGES as readonly string[]).includes(stage));
    const rows = known.length ? await earlyAccessStore.inStages(this.db, projectId, known) : [];
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      description: row.description,
      stage: row.stage,
      documentationUrl: row.documentation_url,
      flagKey: row.flag_key ?? null,
    }));
  }

  async get(projectId: number, id: string) {
    const row = await this.row(projectId, id);
    return toFeature(row, row.feature_flag_id === null ? undefined : await flagStore.get(this.db, projectId, row.feature_flag_id));
  }

  /** Creates a feature, linked to the given flag or to a new one named after it; both in one transaction. */
  async create(projectId: number, input: FeatureInput) {
    checkDocumentationUrl(input.documentation_url);
    const release = RELEASE_STAGES.includes(input.stage);
    const created = await this.db.transaction().execute(async (trx) => {
      let flag: FlagRow;
      if (input.feature_flag_id) {
        flag = await this.linkableFlag(trx, projectId, input.feature_flag_id);
        if (release) flag = await setEnrollment(trx, flag, true);
      } else {
        const key = slugify(input.name);
        if (!key) throw new ValidationError('This field may not be blank.', 'key', 'blank');
        await checkKey(trx, projectId, key);
        const groups = [{ properties: [], rollout_percentage: 0, variant: null }];
        flag = await insertFlag(trx, projectId, {
          key,
          name: `Feature Flag for Feature ${input.name}`,
          filters: release ? { groups, super_groups: [enrollmentCondition(key)] } : { groups },
          active: true,
          ensure_experience_continuity: false,
        });
      }
      const row: FeatureRow = {
        id: randomUUID(),
        project_id: projectId,
        feature_flag_id: flag.id,
        name: input.name,
        description: input.description ?? '',
        stage: input.stage,
        documentation_url: input.documentation_url ?? '',
        created_at: new Date().toISOString(),
      };
      try {
        await earlyAccessStore.insert(trx, row);
      } catch (error) {
        if (isUniqueViolation(error, 'feature_flag_id')) throw alreadyLinked(flag.key);
        throw error;
      }
      return { row, flag };
    });
    this.changes.flagsChanged(projectId);
    return { ...toFeature(created.row, created.flag), feature_flag_id: created.flag.id };
  }

  /** Updates name, description, stage or documentation_url; a stage change turns enrollment on or off. */
  async update(projectId: number, id: string, patch: FeaturePatch) {
    checkDocumentationUrl(patch.documentation_url);
    const result = await this.db.transaction().execute(async (trx) => {
      const row = await this.row(projectId, id, trx);
      let flag = row.feature_flag_id === null ? undefined : await flagStore.get(trx, projectId, row.feature_flag_id);
      const { name, description, stage, documentation_url } = patch;
      const changes = Object.fromEntries(Object.entries({ name, description, stage, documentation_url }).filter(([, v]) => v !== undefined));
      await earlyAccessStore.update(trx, row.id, changes);
      if (flag && stage !== undefined) {
        const wasRelease = RELEASE_STAGES.includes(row.stage);
        const isRelease = RELEASE_STAGES.includes(stage);
        if (!wasRelease && isRelease) flag = await setEnrollment(trx, flag, true);
        else if (!isRelease) flag = await setEnrollment(trx, flag, false);
      }
      return toFeature({ ...row, ...changes }, flag);
    });
    if (patch.stage !== undefined) this.changes.flagsChanged(projectId);
    return result;
  }

  /** Deletes the feature; its flag stays, with enrollment cleared. */
  async delete(projectId: number, id: string) {
    await this.db.transaction().execute(async (trx) => {
      const row = await this.row(projectId, id, trx);
      const flag = row.feature_flag_id === null ? undefined : await flagStore.get(trx, projectId, row.feature_flag_id);
      if (flag) await setEnrollment(trx, flag, false);
      await earlyAccessStore.delete(trx, row.id);
    });
    this.changes.flagsChanged(projectId);
  }

  /** The flag to link: in this project, live, not linked yet, not group-based, not multivariate. */
  private async linkableFlag(db: Kysely<Database>, projectId: number, flagId: number): Promise<FlagRow> {
    const flag = await flagStore.get(db, projectId, flagId);
    if (!flag || flag.deleted) throw new ValidationError('Feature Flag with this ID does not exist');
    if (await earlyAccessStore.byFlag(db, flag.id)) throw alreadyLinked(flag.key);
    const filters = JSON.parse(flag.filters) as Filters;
    if (filters.aggregation_group_type_index != null) {
      throw new ValidationError('Group-based feature flags are not supported for Early Access Features.');
    }
    const variants = (filters.multivariate as { variants?: unknown[] } | null | undefined)?.variants;
    if (Array.isArray(variants) && variants.length) {
      throw new ValidationError('Multivariate feature flags are not supported for Early Access Features.');
    }
    return flag;
  }

  private async row(projectId: number, id: string, db: Kysely<Database> = this.db): Promise<FeatureRow> {
    const row = isUuid(id) ? await earlyAccessStore.get(db, projectId, id.toLowerCase()) : undefined;
    if (!row) throw new NotFoundError();
    return row;
  }
}

/** Sets `super_groups` to the enrollment condition (on) or to null (off), keeping every other filter. */
async function setEnrollment(db: Kysely<Database>, flag: FlagRow, on: boolean): Promise<FlagRow> {
  const filters = JSON.parse(flag.filters) as Filters;
  const next = { ...filters, super_groups: on ? [enrollmentCondition(flag.key)] : null };
  return flagStore.update(db, flag, { filters: JSON.stringify(next) });
}
