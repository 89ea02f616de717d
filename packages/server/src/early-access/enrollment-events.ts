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

/** An event as ingestion stores it, as far as recording enrollments goes. */
export interface StoredEvent {
  event: string;
  distinctId: string;
  properties: Record<string, unknown>;
  timestamp: string;
}

/**
 * Records the enrollments of stored events (in order: the last one of a person or group wins) whose flag is an early
 * access feature's, with the feature's current stage, and enqueues an `early_access.enrolled` / `.unenrolled`
 * webhook for each such event, in the caller's (ingest) transaction. Costs nothing for a batch without any.
 */
export async function recordEnrollments(
  tx: Executor,
  projectId: number,
  events: readonly StoredEvent[],
  personUuidOf: (distinctId: string) => string | undefined,
): Promise<void> {
  const found: [StoredEvent, Enrollment][] = [];
  for (const e of events) {
    if (e.event !== ENROLLMENT_EVENT) continue;
    const enrollment = enrollmentOf(e.event, e.properties);
    if (enrollment) found.push([e, enrollment]);
  }
  if (!found.length) return;
  const features = new Map(
    (await enrollmentStore.featuresByFlagKeys(tx, projectId, [...new Set(found.map(([, en]) => en.flagKey))])).map((f) => [f.flag_key, f]),
  );
  if (!features.size) return;
  const rows = new Map<string, EnrollmentRow>();
  for (const [e, { flagKey, enrolled, group }] of found) {
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
