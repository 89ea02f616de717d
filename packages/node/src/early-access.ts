import { enrollmentProperty } from '@service/flag-engine';
import { request, USER_AGENT } from './http';
import type { CaptureMessage } from './messages';

/** The stages of an early access feature. Release stages (the flag is on for who enrolled): alpha, beta, general-availability. */
export type EarlyAccessFeatureStage = 'draft' | 'concept' | 'alpha' | 'beta' | 'general-availability' | 'archived';

/** An early access feature as the public list gives it (what posthog-js's `getEarlyAccessFeatures` reads). */
export interface EarlyAccessFeature {
  /** The feature's id (a UUID). */
  id: string;
  name: string;
  /** `""` when none. */
  description: string;
  stage: EarlyAccessFeatureStage;
  /** `""` when none. */
  documentationUrl: string;
  /** The key of the feature's flag: what {@link Service.updateEarlyAccessFeatureEnrollment} takes; null when it has none. */
  flagKey: string | null;
  /** The feature's JSON object payload, or null. */
  payload: Record<string, unknown> | null;
}

/** Options of `getEarlyAccessFeatures`. */
export interface EarlyAccessFeaturesOptions {
  /** The stages to list. Default (none or empty): the service's default, `beta`. */
  stages?: EarlyAccessFeatureStage[];
}

/** Options of `updateEarlyAccessFeatureEnrollment`. */
export interface EnrollmentOptions {
  /**
   * Enroll a group instead of the person: the service sets the group's `$feature_enrollment/<flag key>`
   * property, which a group-based flag linked to an early access feature reads.
   */
  group?: { type: string; key: string };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * `GET {host}/api/early_access_features/?token=…&stage=…` (public, by project token). Throws on a network
 * failure, an error status or a body that is not the list; items without an id, a name or a stage are left out.
 */
export async function fetchEarlyAccessFeatures(
  o: { host: string; token: string; timeout: number },
  stages: readonly string[] | undefined,
): Promise<EarlyAccessFeature[]> {
  const query = new URLSearchParams({ token: o.token });
  for (const stage of stages ?? []) query.append('stage', stage);
  const res = await request(`${o.host}/api/early_access_features/?${query}`, { headers: { 'user-agent': USER_AGENT } }, o.timeout);
  if (res.status !== 200) throw new Error(`GET /api/early_access_features/ answered ${res.status}: ${res.text.slice(0, 300)}`);
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    body = undefined;
  }
  if (!isRecord(body) || !Array.isArray(body.earlyAccessFeatures)) {
    throw new Error(`GET /api/early_access_features/: the body has no earlyAccessFeatures list: ${res.text.slice(0, 300)}`);
  }
  const features: EarlyAccessFeature[] = [];
  for (const f of body.earlyAccessFeatures as unknown[]) {
    if (!isRecord(f) || typeof f.id !== 'string' || typeof f.name !== 'string' || typeof f.stage !== 'string') continue;
    features.push({
      id: f.id,
      name: f.name,
      description: text(f.description),
      stage: f.stage as EarlyAccessFeatureStage,
      documentationUrl: text(f.documentationUrl),
      flagKey: typeof f.flagKey === 'string' ? f.flagKey : null,
      payload: isRecord(f.payload) ? f.payload : null,
    });
  }
  return features;
}

/**
 * The `$feature_enrollment_update` event that opts a person (or, with `group`, a group) in or out of the early
 * access feature of a flag. Throws a TypeError for a missing flag key, a value that is not a boolean or an
 * incomplete group.
 */
export function enrollmentEvent(distinctId: string, flagKey: string, enrolled: boolean, options: EnrollmentOptions = {}): CaptureMessage {
  if (typeof flagKey !== 'string' || flagKey === '' || typeof enrolled !== 'boolean') {
    throw new TypeError('updateEarlyAccessFeatureEnrollment needs a flag key and a boolean');
  }
  const group = options?.group;
  if (group !== undefined && (!group || typeof group.type !== 'string' || !group.type || typeof group.key !== 'string' || !group.key)) {
    throw new TypeError('updateEarlyAccessFeatureEnrollment: group needs a type and a key');
  }
  const properties: Record<string, unknown> = { $feature_flag: flagKey, $feature_enrollment: enrolled };
  if (group) {
    // The service sets the group's property; the person's stays as it is.
    properties.$group_type = group.type;
    properties.$group_key = group.key;
  } else {
    properties.$set = { [enrollmentProperty(flagKey)]: enrolled };
  }
  return { distinctId, event: '$feature_enrollment_update', properties, groups: group ? { [group.type]: group.key } : undefined };
}
