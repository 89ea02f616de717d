import type { ValueMatcher } from './operators';

/** Where a property filter reads its value from (or what it refers to). */
export type PropertyType = 'person' | 'group' | 'cohort' | 'flag';

/** One property filter of a condition or cohort, as stored in flag filters (PostHog shape). */
export interface PropertyFilter {
  key: string;
  type?: PropertyType | (string & {});
  /** Defaults to `exact`; `in` / `not_in` for cohorts, `flag_evaluates_to` for flags. */
  operator?: string | null;
  value?: unknown;
  /** For `type: group`: which group type the property belongs to (defaults to the condition's). */
  group_type_index?: number | null;
  /** Inside a cohort's property group: invert this leaf. */
  negation?: boolean;
  /** For `type: flag`: the chain the original computed; accepted and ignored (we resolve it ourselves). */
  dependency_chain?: string[];
}

/** A cohort definition: a tree of AND / OR groups whose leaves are property filters. */
export interface PropertyGroup {
  type: 'AND' | 'OR';
  values: Array<PropertyGroup | PropertyFilter>;
}

/** A release condition (`filters.groups[i]`), also the shape of a super (enrollment) condition. */
export interface Condition {
  properties?: PropertyFilter[] | null;
  /** Missing or null means 100. */
  rollout_percentage?: number | null;
  /** Forces this variant when the condition matches, if it names an existing variant. */
  variant?: string | null;
  /** Per-condition aggregation override (mixed person / group targeting). */
  aggregation_group_type_index?: number | null;
}

/** A multivariate variant. */
export interface Variant {
  key: string;
  name?: string;
  rollout_percentage: number;
}

/** An experiment holdout: this share of identifiers gets variant `holdout-<id>`. */
export interface Holdout {
  id: number | string;
  exclusion_percentage: number;
}

/** The `filters` object of a feature flag. */
export interface FlagFilters {
  groups?: Condition[] | null;
  multivariate?: { variants: Variant[] } | null;
  /** Keyed by variant key, or `"true"` for boolean flags; returned as stored. */
  payloads?: Record<string, unknown> | null;
  /** Non-null makes this a group-based flag (index into the group type mapping). */
  aggregation_group_type_index?: number | null;
  /** Legacy early-access enrollment condition (only the first is used). */
  super_groups?: Condition[] | null;
  /** Gen-4 early-access enrollment: person property `$feature_enrollment/<flag key>` decides. */
  feature_enrollment?: boolean | null;
  holdout?: Holdout | null;
}

/** A feature flag definition as served to SDKs for local evaluation. */
export interface FlagDefinition {
  id: number;
  key: string;
  name?: string;
  active: boolean;
  deleted?: boolean;
  ensure_experience_continuity?: boolean | null;
  /** `device_id` buckets person-aggregated conditions by device id instead of distinct id. */
  bucketing_identifier?: 'distinct_id' | 'device_id' | null;
  version?: number | null;
  filters: FlagFilters;
}

/** Who (and what) a flag is evaluated for. */
export interface EvaluationContext {
  distinctId: string;
  /** `distinct_id` is injected when absent. */
  personProperties?: Record<string, unknown>;
  /** Group type name → group key. */
  groups?: Record<string, string>;
  /** Group type name → properties; `$group_key` is injected when absent. */
  groupProperties?: Record<string, Record<string, unknown>>;
  /** Used by flags with `bucketing_identifier: device_id`; falls back to person property `$device_id`. */
  deviceId?: string;
  /** Stored experience-continuity hash keys, by flag key (server mode). */
  hashKeyOverrides?: Record<string, string>;
  /** The request's `$anon_distinct_id`: hash key for `ensure_experience_continuity` flags without a stored one. */
  anonDistinctId?: string;
}

/** Why a flag evaluated the way it did (wire names of PostHog's `/flags?v=2`). */
export type ReasonCode =
  | 'condition_match'
  | 'no_condition_match'
  | 'out_of_rollout_bound'
  | 'no_group_type'
  | 'super_condition_value'
  | 'holdout_condition_value'
  | 'flag_disabled'
  | 'missing_dependency';

/** A reason as sent on the wire; shared and frozen, do not mutate. */
export interface Reason {
  readonly code: ReasonCode;
  readonly condition_index: number | null;
  readonly description: string;
}

/** A decided flag. */
export interface FlagResult {
  key: string;
  enabled: boolean;
  variant: string | null;
  /** `variant ?? enabled`, the value SDKs expose. */
  value: boolean | string;
  reason: Reason;
  /** `filters.payloads[variant ?? "true"]` as stored, or null (always null when disabled). */
  payload: unknown;
  inconclusive?: false;
}

/** Local mode only: the flag cannot be decided here; ask the server. */
export interface Inconclusive {
  key: string;
  inconclusive: true;
  why: string;
}

/** `server`: decide everything from what is given. `local`: answer Inconclusive when the server might know better. */
export type EvaluationMode = 'server' | 'local';

/** Options of {@link compileFlags}. */
export interface CompileOptions {
  /** Group type index (as a string) → group type name. */
  groupTypeMapping?: Record<string, string>;
  /** Cohort id → property group. */
  cohorts?: Record<string, PropertyGroup>;
  mode?: EvaluationMode;
}

/** Flag definitions compiled once, evaluated many times. */
export interface CompiledFlags {
  readonly mode: EvaluationMode;
  /** Keys of the compiled (non-deleted) flags, in definition order. */
  readonly keys: readonly string[];
  /** Evaluates one flag; undefined when no such flag was compiled. */
  evaluate(key: string, ctx: EvaluationContext): FlagResult | Inconclusive | undefined;
  /** Evaluates all flags (or the given keys that exist), sharing dependency results. */
  evaluateAll(ctx: EvaluationContext, keys?: readonly string[]): Record<string, FlagResult | Inconclusive>;
  /** `evaluateAll` as a list, in the order of the flags (or of `keys`, each once): no object keyed by flag to build. */
  evaluateList(ctx: EvaluationContext, keys?: readonly string[]): Array<FlagResult | Inconclusive>;
}

// The compiled form of a flag set, which `compileFlags` builds and the `Engine` of evaluate.ts reads.

/**
 * Where a property is read: `null` person properties, a string the group type of that name,
 * `undefined` a group type index missing from the mapping (the property is always absent).
 */
export type Source = string | null | undefined;

/** A person / group property filter. */
export interface PropertyLeaf {
  kind: 'property';
  key: string;
  source: Source;
  matcher: ValueMatcher;
  negation: boolean;
}

/** Cohort membership; `cohort` is null when the cohort is unknown (static) or refers back to itself. */
export interface CohortLeaf {
  kind: 'cohort';
  cohort: CompiledGroup | null;
  notIn: boolean;
  negation: boolean;
}

/** Flag dependency (`flag_evaluates_to`). */
export interface FlagLeaf {
  kind: 'flag';
  key: string;
  expected: unknown;
  negation: boolean;
}

export type Leaf = PropertyLeaf | CohortLeaf | FlagLeaf;

/** A compiled cohort property group. */
export interface CompiledGroup {
  kind: 'group';
  and: boolean;
  items: Array<Leaf | CompiledGroup>;
}

/** A compiled release (or super) condition. */
export interface CompiledCondition {
  index: number;
  leaves: Leaf[];
  rollout: number;
  /** A variant override that names an existing variant, else null. */
  variant: string | null;
  /** Effective aggregation: the condition's group type index, else the flag's; null for persons. */
  aggregation: number | null;
  /** Group type name of `aggregation` (see {@link Source}). */
  group: Source;
  /** Conditions with equal keys give the same value when they match (same variant rule, same bucketing). */
  valueKey: string;
  /** The shared `condition_match` reason of this condition. */
  matched: Reason;
}

/** A compiled flag definition. */
export interface CompiledFlag {
  key: string;
  /** Position in the compiled set (slot of its memoised result). */
  index: number;
  /** `<key>.`, the start of every bucketing hash input of this flag. */
  hashPrefix: string;
  active: boolean;
  continuity: boolean;
  deviceBucketing: boolean;
  /** Flag-level group type (see {@link Source}); null for person flags. */
  group: Source;
  conditions: CompiledCondition[];
  /** Gen-4 enrollment property key, when `feature_enrollment` is on. */
  enrollmentKey: string | null;
  /** Legacy `super_groups[0]`, when it has properties; its `aggregation` says whose properties it reads. */
  superCondition: CompiledCondition | null;
  superKeys: string[];
  holdout: { variant: string; percentage: number } | null;
  /** Variants with the cumulative upper bound of their hash range. */
  variants: Array<{ key: string; upTo: number }>;
  payloads: Map<string, unknown>;
  /** `payloads.get('true') ?? null`: the payload of an enabled flag without a variant. */
  enabledPayload: unknown;
  dependencies: string[];
  dependencyState: 'ok' | 'missing' | 'cycle';
}
