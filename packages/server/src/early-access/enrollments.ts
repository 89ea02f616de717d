import { enrollmentProperty } from '@service/flag-engine';
import type { Kysely } from 'kysely';
import type { IngestService } from '../capture/ingest';
import type { Database } from '../db/schema';
import { storable } from '../db/text';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { isUuid } from '../uuid';
import { ENROLLMENT_EVENT, groupDistinctId } from './enrollment-events';
import { enrollmentStore, type ListedEnrollment } from './enrollment-store';

const DAY_MS = 86_400_000;

/** Opt-ins and opt-outs of a feature per UTC day (\`days\`), oldest first. */
export interface EnrollmentsPerDay {
  days: string[];
  opted_in: number[];
  opted_out: number[];
}

/** Stages in which nobody can be enrolled: the feature is not shown to anyone. */
const CLOSED_STAGES: readonly string[] = ['draft', 'archived'];

/** An opt-in or opt-out on someone's behalf: a person by distinct id, or a group by type and key. */
export interface EnrollmentInput {
  distinct_id?: string;
  group_type?: string;
  group_key?: string;
  enrolled: boolean;
}

/** An enrollment as the API answers it. */
export function toEnrollment(row: ListedEnrollment) {
  const group = row.group_type !== '';
  return {
    distinct_id: group ? null : row.distinct_id,
    person_id: group ? null : row.person_uuid,
    group_type: group ? row.group_type : null,
    group_key: group ? row.group_key : null,
    enrolled: Number(row.enrolled) === 1,
    stage: row.stage,
    updated_at: row.updated_at,
  };
}
export type EnrollmentView = ReturnType<typeof toEnrollment>;

/** The group type index a flag's filters aggregate by, or null for a person-based flag. */
function aggregationOf(filtersJson: string): number | null {
  const index = (JSON.parse(filtersJson) as { aggregation_group_type_index?: unknown }).aggregation_group_type_index;
  return typeof index === 'number' ? index : null;
}

/**
 * Who opted in or out of an early access feature, and opting in or out on someone's behalf. An enrollment through
 * the API is a `$feature_enrollment_update` event stored by ingestion, exactly as an SDK's: ingestion sets the
 * person (or group) property the flag reads and records the enrollment (enrollment-events.ts).
 */
export class EnrollmentService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly ingest: IngestService,
  ) {}

  /**
   * Each person's (or group's) latest choice in the feature, per UTC day it was made, over the last `days` days (today
   * included) from the day the feature was created or, when earlier, the day of its first choice: the same enrollments
   * the counts count, so that the chart adds up to them.
   */
  async perDay(projectId: number, featureId: string, days: number, now = new Date()): Promise<EnrollmentsPerDay> {
    const feature = await this.feature(projectId, featureId);
    const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    const from = today - (days - 1) * DAY_MS;
    const rows = await enrollmentStore.perDay(this.db, feature.id, new Date(from).toISOString());
    const start = Math.min(Date.parse(`${feature.created_at.slice(0, 10)}T00:00:00Z`), ...rows.map((r) => Date.parse(`${r.day}T00:00:00Z`)));
    const first = Math.max(from, Math.min(start, today));
    const keys = Array.from({ length: (today - first) / DAY_MS + 1 }, (_, i) => new Date(first + i * DAY_MS).toISOString().slice(0, 10));
    const counts = { days: keys, opted_in: keys.map(() => 0), opted_out: keys.map(() => 0) };
    const index = new Map(keys.map((day, i) => [day, i]));
    for (const row of rows) {
      const i = index.get(row.day);
      if (i !== undefined) (row.enrolled ? counts.opted_in : counts.opted_out)[i]! += row.n;
    }
    return counts;
  }

  /** A page of the feature's enrollments, newest first, and the counts over all of them. */
  async list(projectId: number, featureId: string, enrolled: boolean | undefined, limit: number, offset: number) {
    const feature = await this.feature(projectId, featureId);
    const counts = await enrollmentStore.counts(this.db, feature.id);
    const { count, rows } = await enrollmentStore.page(this.db, feature.id, enrolled, limit, offset);
    return { count, results: rows.map(toEnrollment), counts };
  }

  /** Opts a person or group in or out; `created` tells whether they had no enrollment in this feature before. */
  async enroll(projectId: number, featureId: string, input: EnrollmentInput): Promise<{ created: boolean; enrollment: EnrollmentView }> {
    const feature = await this.feature(projectId, featureId);
    if (CLOSED_STAGES.includes(feature.stage)) {
      throw new ConflictError(`The feature is in stage "${feature.stage}": nobody can be enrolled in it.`, 'stage');
    }
    if (feature.flag_key === null || feature.flag_filters === null) {
      throw new ConflictError('The feature has no feature flag: nobody can be enrolled in it.', 'feature_flag');
    }
    const aggregation = aggregationOf(feature.flag_filters);
    const target = await this.target(projectId, input, aggregation);
    const flagKey = feature.flag_key;
    const properties: Record<string, unknown> = {
      $feature_flag: flagKey,
      $feature_enrollment: input.enrolled,
      $early_access_feature_name: feature.name,
      $feature_enrollment_stage: feature.stage,
      $lib: 'service-api',
    };
    if (target.groupType === '') properties.$set = { [enrollmentProperty(flagKey)]: input.enrolled };
    else Object.assign(properties, { $group_type: target.groupType, $group_key: target.key });
    const before = await enrollmentStore.get(this.db, feature.id, target.groupType, target.key);
    // The event is small (the body's strings are bounded): no size limit to apply.
    const { events } = await this.ingest.normalize(
      { items: [{ event: ENROLLMENT_EVENT, distinct_id: target.distinctId, properties }], batch: {} },
      {},
      Number.MAX_SAFE_INTEGER,
    );
    await this.ingest.capture(projectId, events);
    const row = await enrollmentStore.get(this.db, feature.id, target.groupType, target.key);
    // Deleted meanwhile (the feature and its enrollments with it).
    if (!row) throw new NotFoundError();
    return { created: !before, enrollment: toEnrollment(row) };
  }

  /** Whom an enrollment is for: a person for a person-based flag, a group of the flag's group type for a group-based one. */
  private async target(projectId: number, input: EnrollmentInput, aggregation: number | null) {
    // As ingestion stores them, so that the enrollment it records is found by them.
    const [distinctId, groupType, groupKey] = [input.distinct_id, input.group_type, input.group_key].map((v) => (v === undefined ? v : storable(v)));
    const group = groupType !== undefined || groupKey !== undefined;
    if (distinctId !== undefined && group) throw new ValidationError('Give either distinct_id, or group_type and group_key, not both.', 'distinct_id');
    if (group) {
      if (groupType === undefined) throw new ValidationError('group_type is required with group_key.', 'group_type', 'required');
      if (groupKey === undefined) throw new ValidationError('group_key is required with group_type.', 'group_key', 'required');
      if (aggregation === null) {
        throw new ValidationError("The feature's flag is person-based: enroll a person by distinct_id, not a group.", 'group_type');
      }
      const index = await enrollmentStore.groupTypeIndex(this.db, projectId, groupType);
      if (index === undefined) throw new ValidationError(`The project has no group type "${groupType}".`, 'group_type');
      if (index !== aggregation) throw new ValidationError(`The feature's flag is not aggregated by group type "${groupType}".`, 'group_type');
      return { groupType, key: groupKey, distinctId: groupDistinctId(groupType, groupKey) };
    }
    if (distinctId === undefined) throw new ValidationError('Give distinct_id, or group_type and group_key.', 'distinct_id', 'required');
    if (aggregation !== null) {
      throw new ValidationError("The feature's flag is group-based: enroll a group by group_type and group_key, not a person.", 'distinct_id');
    }
    return { groupType: '', key: distinctId, distinctId };
  }

  private async feature(projectId: number, id: string) {
    const feature = isUuid(id) ? await enrollmentStore.feature(this.db, projectId, id.toLowerCase()) : undefined;
    if (!feature) throw new NotFoundError();
    return feature;
  }
}
