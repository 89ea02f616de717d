import { enrollmentProperty } from '@service/flag-engine';
import type { IngestStep, Marked } from '../capture/pipeline';
import type { Executor } from '../db/schema';
import { storable } from '../db/text';
import { enqueueWebhooks } from '../webhooks/outbox';
import { enrollmentStore, type EnrollmentRow } from './enrollment-store';

/** The event an SDK (or the enrollment API) sends when someone opts in or out of an early access feature. */
export const ENROLLMENT_EVENT = '$feature_enrollment_update';

/** What a `$feature_enrollment_update` event says: whose enrollment in which flag's feature, in or out. */
export interface Enrollment {
  flagKey: string;
  enrolled: boolean;
  /** Set for a group enrollment (`$group_type` and `$group_key`): it is the group's, not the person's. */
  group?: { type: string; key: string };
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? storable(v) : undefined);

/**
 * The enrollment an event records: `$feature_enrollment_update` with `$feature_flag` (a string) and
 * `$feature_enrollment` (a boolean); with `$group_type` and `$group_key` (strings) it is a group's. Else undefined.
 */
export function enrollmentOf(event: string, properties: Record<string, unknown>): Enrollment | undefined {
  if (event !== ENROLLMENT_EVENT) return undefined;
  const { $feature_flag: flagKey, $feature_enrollment: enrolled } = properties;
  if (typeof flagKey !== 'string' || typeof enrolled !== 'boolean') return undefined;
  const type = text(properties.$group_type);
  const key = text(properties.$group_key);
  return type !== undefined && key !== undefined ? { flagKey, enrolled, group: { type, key } } : { flagKey, enrolled };
}

/** The made-up distinct id a group's events carry (posthog-node's `$<group type>_<group key>`). */
export const groupDistinctId = (type: string, key: string) => `$${type}_${key}`;

/**
 * The enrollments step of ingestion. At the door it finds the enrollment an event records: a person's is also the person
 * property the flag's super condition reads (older SDKs send only `$feature_flag` and `$feature_enrollment`), a group's
 * sets the group's property and touches no person. In the transaction it records them (`recordEnrollments`).
 */
export const enrollmentsStep: IngestStep<Enrollment> = {
  mark(event) {
    const enrollment = enrollmentOf(event.event, event.properties);
    if (!enrollment) return undefined;
    const key = enrollmentProperty(enrollment.flagKey);
    if (enrollment.group) event.group = { ...enrollment.group, properties: { [key]: enrollment.enrolled } };
    else if (!event.set || !Object.hasOwn(event.set, key)) event.set = { ...event.set, [key]: enrollment.enrolled };
    return enrollment;
  },
  record: (slice, marked) => recordEnrollments(slice.tx, slice.projectId, marked, slice.personUuid),
};

/**
 * Records the enrollments of newly stored events (in order: the last one of a person or group wins) whose flag is an
 * early access feature's, with the feature's current stage, and enqueues an `early_access.enrolled` / `.unenrolled`
 * webhook for each such event, in the caller's (ingest) transaction.
 */
export async function recordEnrollments(
  tx: Executor,
  projectId: number,
  found: readonly Marked<Enrollment>[],
  personUuidOf: (distinctId: string) => string | undefined,
): Promise<void> {
  const features = new Map(
    (await enrollmentStore.featuresByFlagKeys(tx, projectId, [...new Set(found.map(({ mark }) => mark.flagKey))])).map((f) => [f.flag_key, f]),
  );
  if (!features.size) return;
  const rows = new Map<string, EnrollmentRow>();
  for (const { event: e, mark } of found) {
    const { flagKey, enrolled, group } = mark;
    const feature = features.get(flagKey);
    if (!feature) continue;
    const distinctId = group ? null : e.distinctId;
    const personUuid = group ? null : (personUuidOf(e.distinctId) ?? null);
    const row: EnrollmentRow = {
      project_id: projectId,
      feature_id: feature.id,
      group_type: group?.type ?? '',
      key: group?.key ?? e.distinctId,
      distinct_id: distinctId,
      person_uuid: personUuid,
      group_key: group?.key ?? null,
      enrolled: enrolled ? 1 : 0,
      stage: feature.stage,
      updated_at: e.timestamp,
    };
    rows.set(JSON.stringify([row.feature_id, row.group_type, row.key]), row);
    // Every opt-in and opt-out is told, also one that repeats the current state (the SDK asked again).
    await enqueueWebhooks(tx, projectId, enrolled ? 'early_access.enrolled' : 'early_access.unenrolled', {
      early_access_feature: { id: feature.id, name: feature.name, stage: feature.stage, flag_key: feature.flag_key },
      distinct_id: distinctId,
      person_id: personUuid,
      group_type: group?.type ?? null,
      group_key: group?.key ?? null,
      enrolled,
    });
  }
  await enrollmentStore.upsert(tx, [...rows.values()]);
}
