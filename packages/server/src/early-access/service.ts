import { randomUUID } from 'node:crypto';
import { enrollmentCondition } from '@service/flag-engine';
import type { Kysely } from 'kysely';
import { changesBetween, recordActivity } from '../activity/service';
import type { Actor } from '../http/actor';
import type { Changes } from '../changes';
import { isUuid } from '../uuid';
import { isUniqueViolation } from '../db/database';
import type { Database } from '../db/schema';
import { insertFlag, recordFlagActivity, type FlagUpdateGuard, type FlagUses } from '../feature-flags/service';
import { flagStore, toFlag, type Filters, type FlagRow } from '../feature-flags/store';
import { NotFoundError, ValidationError } from '../errors';
import { enqueueWebhooks } from '../webhooks/outbox';
import { earlyAccessStore, type FeatureRow } from './store';

export const STAGES = ['draft', 'concept', 'alpha', 'beta', 'general-availability', 'archived'] as const;
export type Stage = (typeof STAGES)[number];
/**
 * Stages in which opted-in people (or groups) get the feature. `concept` is a waitlist: opt-ins are recorded (the
 * enrollment property is set) but the flag stays off until the feature moves to one of these.
 */
export const RELEASE_STAGES: readonly string[] = ['alpha', 'beta', 'general-availability'];

/** The largest `payload`, serialized as JSON (UTF-8 bytes). */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

export type Payload = Record<string, unknown>;

export interface FeatureInput {
  name: string;
  stage: Stage;
  description?: string;
  documentation_url?: string;
  feature_flag_id?: number | null;
  /** A JSON object for the SDKs; null clears it. */
  payload?: Payload | null;
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
    payload: parsePayload(row.payload),
  };
}

const parsePayload = (text: string | null): Payload | null => (text === null ? null : (JSON.parse(text) as Payload));

/** The payload as stored: null, or its JSON when it is an object of at most 64 KB; else 400 on `payload`. */
function payloadText(payload: unknown): string | null {
  if (payload === null) return null;
  if (typeof payload !== 'object' || Array.isArray(payload)) throw new ValidationError('Expected a dictionary of items.', 'payload');
  const text = JSON.stringify(payload);
  if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) {
    throw new ValidationError(`Ensure the payload has no more than ${MAX_PAYLOAD_BYTES} bytes as JSON.`, 'payload', 'max_length');
  }
  return text;
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

const aggregationOf = (filters: Filters): number | null =>
  typeof filters.aggregation_group_type_index === 'number' ? filters.aggregation_group_type_index : null;

/** The early access feature of a flag, for its page. */
export const earlyAccessFlagUses: FlagUses = async (db, flag) => {
  const feature = await earlyAccessStore.byFlag(db, flag.id);
  return feature ? [{ type: 'early_access_feature', id: feature.id, name: feature.name, status: feature.stage }] : [];
};

/**
 * A flag linked to a feature keeps its aggregation (enrollments are recorded on persons, or on groups of its group
 * type, and its enrollment condition reads them there) and is not deleted while the feature exists.
 */
export const linkedFlagGuard: FlagUpdateGuard = async (db, flag, patch) => {
  if (!(await earlyAccessStore.byFlag(db, flag.id))) return;
  if (patch.filters !== undefined) {
    const before = aggregationOf(JSON.parse(flag.filters) as Filters);
    const after = aggregationOf(patch.filters);
    if (before === null && after !== null) {
      throw new ValidationError('Cannot change this flag to a group-based when linked to an Early Access Feature.');
    }
    if (before !== null && after === null) {
      throw new ValidationError('Cannot change this flag to a person-based when linked to an Early Access Feature: its enrollments are recorded on groups.');
    }
    if (before !== after) {
      throw new ValidationError(
        'Cannot change the group type of this flag when linked to an Early Access Feature: its enrollments are recorded on groups of its group type.',
      );
    }
  }
  if (patch.deleted === true) {
    throw new ValidationError(
      'Cannot delete a feature flag that is in use with early access features. Please delete the early access feature before deleting the flag.',
    );
  }
};

/** The fields of a feature the activity log follows. */
const LOGGED_FIELDS = ['name', 'description', 'stage', 'documentation_url', 'payload', 'feature_flag_id'] as const;
const logged = (row: FeatureRow) => ({ ...row, payload: parsePayload(row.payload) });

/** Records a feature's creation, change or deletion in the activity log (in the change's transaction). */
function recordFeatureActivity(db: Kysely<Database>, actor: Actor, before: FeatureRow | undefined, after: FeatureRow | undefined) {
  const row = (after ?? before)!;
  return recordActivity(db, actor, {
    projectId: row.project_id,
    scope: 'EarlyAccessFeature',
    itemId: row.id,
    activity: !before ? 'created' : !after ? 'deleted' : 'updated',
    name: row.name,
    changes: after ? changesBetween(before ? logged(before) : null, logged(after), LOGGED_FIELDS) : null,
  });
}

const alreadyLinked = (key: string) => new ValidationError(`Linked feature flag ${key} already has a feature attached to it.`);

/**
 * The key a feature's name makes belongs to a live flag: often the one a deleted feature left behind. The caller sent a
 * name, not a key, so the error is on `name` and says which flag it is and how to link it instead.
 */
async function keyTaken(db: Kysely<Database>, name: string, key: string, flagId: number) {
  const owner = await earlyAccessStore.byFlag(db, flagId);
  const flag = `The name ${JSON.stringify(name)} makes the flag key ${key}, and there is already a feature flag ${key} (id ${flagId})`;
  return new ValidationError(
    owner
      ? `${flag}, used by the early access feature ${JSON.stringify(owner.name)}. Choose another name.`
      : `${flag}. To use it for this feature, link it (feature_flag_id ${flagId}); or choose another name.`,
    'name',
    'unique',
  );
}

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
      payload: parsePayload(row.payload),
    }));
  }

  async get(projectId: number, id: string) {
    const row = await this.row(projectId, id);
    return toFeature(row, row.feature_flag_id === null ? undefined : await flagStore.get(this.db, projectId, row.feature_flag_id));
  }

  /** Creates a feature, linked to the given flag or to a new one named after it; both in one transaction. */
  async create(projectId: number, input: FeatureInput, actor: Actor) {
    checkDocumentationUrl(input.documentation_url);
    const payload = input.payload === undefined ? null : payloadText(input.payload);
    const release = RELEASE_STAGES.includes(input.stage);
    const created = await this.db.transaction().execute(async (trx) => {
      let flag: FlagRow;
      if (input.feature_flag_id) {
        flag = await this.linkableFlag(trx, projectId, input.feature_flag_id);
        if (release) flag = await setEnrollment(trx, projectId, flag, true, actor);
      } else {
        const key = slugify(input.name);
        if (!key) throw new ValidationError('This field may not be blank.', 'key', 'blank');
        const taken = await flagStore.liveIdOfKey(trx, projectId, key);
        if (taken !== undefined) throw await keyTaken(trx, input.name, key, taken);
        const groups = [{ properties: [], rollout_percentage: 0, variant: null }];
        flag = await insertFlag(trx, projectId, {
          key,
          name: `Feature Flag for Feature ${input.name}`,
          filters: release ? { groups, super_groups: [enrollmentCondition(key)] } : { groups },
          active: true,
          ensure_experience_continuity: false,
        });
        await recordFlagActivity(trx, actor, undefined, flag);
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
        payload,
      };
      try {
        await earlyAccessStore.insert(trx, row);
      } catch (error) {
        if (isUniqueViolation(error, 'feature_flag_id')) throw alreadyLinked(flag.key);
        throw error;
      }
      await recordFeatureActivity(trx, actor, undefined, row);
      return { row, flag };
    });
    this.changes.flagsChanged(projectId);
    return { ...toFeature(created.row, created.flag), feature_flag_id: created.flag.id };
  }

  /** Updates name, description, stage, documentation_url or payload; a stage change turns enrollment on or off. */
  async update(projectId: number, id: string, patch: FeaturePatch, actor: Actor) {
    checkDocumentationUrl(patch.documentation_url);
    const payload = patch.payload === undefined ? undefined : payloadText(patch.payload);
    const result = await this.db.transaction().execute(async (trx) => {
      const row = await this.row(projectId, id, trx);
      let flag = row.feature_flag_id === null ? undefined : await flagStore.get(trx, projectId, row.feature_flag_id);
      const { name, description, stage, documentation_url } = patch;
      const changes = Object.fromEntries(
        Object.entries({ name, description, stage, documentation_url, payload }).filter(([, v]) => v !== undefined),
      ) as Partial<FeatureRow>;
      await earlyAccessStore.update(trx, row.id, changes);
      if (flag && stage !== undefined) {
        const wasRelease = RELEASE_STAGES.includes(row.stage);
        const isRelease = RELEASE_STAGES.includes(stage);
        if (!wasRelease && isRelease) flag = await setEnrollment(trx, projectId, flag, true, actor);
        else if (!isRelease) flag = await setEnrollment(trx, projectId, flag, false, actor);
      }
      const updated = { ...row, ...changes };
      await recordFeatureActivity(trx, actor, row, updated);
      if (stage !== undefined && stage !== row.stage) {
        await enqueueWebhooks(trx, projectId, 'early_access.stage_changed', {
          early_access_feature: { id: row.id, name: updated.name, stage, flag_key: flag?.key ?? null },
          previous_stage: row.stage,
          stage,
        });
      }
      return toFeature(updated, flag);
    });
    if (patch.stage !== undefined) this.changes.flagsChanged(projectId);
    return result;
  }

  /** Deletes the feature; its flag stays, with enrollment cleared. */
  async delete(projectId: number, id: string, actor: Actor) {
    await this.db.transaction().execute(async (trx) => {
      const row = await this.row(projectId, id, trx);
      const flag = row.feature_flag_id === null ? undefined : await flagStore.get(trx, projectId, row.feature_flag_id);
      if (flag) await setEnrollment(trx, projectId, flag, false, actor);
      await earlyAccessStore.delete(trx, row.id);
      await recordFeatureActivity(trx, actor, row, undefined);
    });
    this.changes.flagsChanged(projectId);
  }

  /** The flag to link: in this project, live, not linked yet, not multivariate (person- or group-based). */
  private async linkableFlag(db: Kysely<Database>, projectId: number, flagId: number): Promise<FlagRow> {
    const flag = await flagStore.get(db, projectId, flagId);
    if (!flag || flag.deleted) throw new ValidationError('Feature Flag with this ID does not exist');
    if (flag.survey_id !== null)
      throw new ValidationError(`The feature flag ${flag.key} belongs to a survey, which keeps it; link another flag.`, 'feature_flag_id');
    if (await earlyAccessStore.byFlag(db, flag.id)) throw alreadyLinked(flag.key);
    const filters = JSON.parse(flag.filters) as Filters;
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

/**
 * Sets `super_groups` to the enrollment condition (on; by the flag's group type for a group-based flag) or to null
 * (off), keeping every other filter. Writes (and announces the change to webhooks and records it in the activity log as
 * the actor's change to the flag) only when it changes something.
 */
async function setEnrollment(db: Kysely<Database>, projectId: number, flag: FlagRow, on: boolean, actor: Actor): Promise<FlagRow> {
  const filters = JSON.parse(flag.filters) as Filters;
  const superGroups = on ? [enrollmentCondition(flag.key, aggregationOf(filters))] : null;
  if (JSON.stringify(filters.super_groups ?? null) === JSON.stringify(superGroups)) return flag;
  const updated = await flagStore.update(db, flag, { filters: JSON.stringify({ ...filters, super_groups: superGroups }) });
  await enqueueWebhooks(db, projectId, 'feature_flag.changed', { feature_flag: toFlag(updated), change: 'updated' });
  await recordFlagActivity(db, actor, flag, updated);
  return updated;
}
