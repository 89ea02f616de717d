import { holdoutHash, scaledSha1 } from './hash';
import { matchValue, NO, UNKNOWN, YES } from './operators';
import type { Clock, Tri } from './operators';
import type {
  CompiledFlag,
  CompiledFlags,
  CompiledGroup,
  EvaluationContext,
  EvaluationMode,
  FlagResult,
  Inconclusive,
  Leaf,
  Reason,
  ReasonCode,
  Source,
} from './types';

type Outcome = FlagResult | Inconclusive;

const MISSING: unique symbol = Symbol('missing');
const PENDING: unique symbol = Symbol('pending');

/** The compiled flag set: evaluates flags against contexts. Built by `compileFlags`. */
export class Engine implements CompiledFlags {
  readonly keys: readonly string[];
  private readonly list: readonly CompiledFlag[];

  constructor(
    private readonly flags: ReadonlyMap<string, CompiledFlag>,
    readonly mode: EvaluationMode,
    /** Whether a flag refers to another (see {@link Run.memo}). */
    private readonly memoise: boolean,
  ) {
    this.keys = [...flags.keys()];
    this.list = [...flags.values()];
  }

  evaluate(key: string, ctx: EvaluationContext): Outcome | undefined {
    const flag = this.flags.get(key);
    return flag && evaluateFlag(flag, this.run(ctx));
  }

  evaluateAll(ctx: EvaluationContext, keys?: readonly string[]): Record<string, Outcome> {
    const out: Record<string, Outcome> = {};
    for (const result of this.evaluateList(ctx, keys)) out[result.key] = result;
    return out;
  }

  evaluateList(ctx: EvaluationContext, keys?: readonly string[]): Outcome[] {
    const run = this.run(ctx);
    const out: Outcome[] = [];
    if (keys === undefined || keys === this.keys) {
      for (const flag of this.list) {
        const result = run.evaluate(flag);
        if (result !== PENDING) out.push(result);
      }
    } else {
      // A key asked for twice is answered once, as a map of results would.
      const seen = keys.length > 1 ? new Set<string>() : undefined;
      for (const key of keys) {
        if (seen) {
          if (seen.has(key)) continue;
          seen.add(key);
        }
        const result = run.evaluateKey(key);
        if (result !== undefined && result !== PENDING) out.push(result);
      }
    }
    return out;
  }

  private run(ctx: EvaluationContext): Run {
    return new Run(this.flags, ctx, this.mode === 'local', this.memoise ? this.list.length : -1);
  }
}

/** State of one evaluation call: the context, the clock, and memoised flag results for dependencies. */
class Run implements Clock {
  private time = NaN;
  /**
   * Results by flag index, PENDING while a flag is being evaluated (a dependency cycle through a cohort). Only
   * flag sets where a flag refers to another have it; the others evaluate each flag once per call anyway.
   */
  private readonly memo: Array<Outcome | typeof PENDING | undefined> | null;

  constructor(
    private readonly flags: ReadonlyMap<string, CompiledFlag>,
    readonly ctx: EvaluationContext,
    readonly local: boolean,
    size: number,
  ) {
    this.memo = size < 0 ? null : new Array<Outcome | typeof PENDING | undefined>(size).fill(undefined);
  }

  now(): number {
    if (Number.isNaN(this.time)) this.time = Date.now();
    return this.time;
  }

  /** Evaluates a flag by key once per run (see {@link evaluate}); undefined when there is no such flag. */
  evaluateKey(key: string): Outcome | typeof PENDING | undefined {
    const flag = this.flags.get(key);
    return flag && this.evaluate(flag);
  }

  /** Evaluates a flag once per run; PENDING while it is being evaluated (a dependency cycle). */
  evaluate(flag: CompiledFlag): Outcome | typeof PENDING {
    const memo = this.memo;
    if (memo === null) return evaluateFlag(flag, this);
    const known = memo[flag.index];
    if (known !== undefined) return known;
    memo[flag.index] = PENDING;
    return (memo[flag.index] = evaluateFlag(flag, this));
  }

  /** A property value, or MISSING. Injects `distinct_id` (person) and `$group_key` (group) when absent. */
  lookup(source: Source, key: string): unknown {
    if (source === undefined) return MISSING;
    const ctx = this.ctx;
    if (source === null) {
      const props = ctx.personProperties;
      if (props && Object.hasOwn(props, key)) return props[key];
      return key === 'distinct_id' ? ctx.distinctId : MISSING;
    }
    const props = ctx.groupProperties?.[source];
    if (props && Object.hasOwn(props, key)) return props[key];
    return key === '$group_key' ? this.groupKey(source) || MISSING : MISSING;
  }

  /** The group key passed for a group type, or '' when there is none. */
  groupKey(group: Source): string {
    const groups = this.ctx.groups;
    if (!group || !groups || !Object.hasOwn(groups, group)) return '';
    const key: unknown = groups[group];
    return typeof key === 'string' || typeof key === 'number' ? String(key) : '';
  }

  deviceId(): string {
    const id = this.ctx.deviceId ?? this.ctx.personProperties?.$device_id;
    return typeof id === 'string' ? id : '';
  }
}

/**
 * Reason codes as numbers that rank them: when no condition matches, the reason of the highest ranked
 * condition outcome (the last of equal ones) is given.
 */
const SUPER_CONDITION_VALUE = 6;
const HOLDOUT_CONDITION_VALUE = 5;
const CONDITION_MATCH = 4;
const OUT_OF_ROLLOUT_BOUND = 3;
const NO_CONDITION_MATCH = 2;
const NO_GROUP_TYPE = 1;
const FLAG_DISABLED = 0;
const MISSING_DEPENDENCY = -1;
/** A condition outcome that gives no reason (undecided in local mode). */
const UNDECIDED = -2;

/** Wire code and description of each rank, at `rank + 1`. */
const CODES: ReadonlyArray<readonly [ReasonCode, string]> = [
  ['missing_dependency', 'Flag cannot be evaluated due to missing dependency'],
  ['flag_disabled', 'Feature flag is disabled'],
  ['no_group_type', 'No group type'],
  ['no_condition_match', 'No matching condition set'],
  ['out_of_rollout_bound', 'Out of rollout bound'],
  ['condition_match', 'Matched condition set'],
  ['holdout_condition_value', 'Holdout condition value'],
  ['super_condition_value', 'Super condition value'],
];
const GROUPS_NOT_EVALUATED = 'No matching condition set (group conditions were not evaluated because no group type was provided)';

/** Shared reasons by rank + 1, then condition index + 1 (0 for none); the last row is GROUPS_NOT_EVALUATED's. */
const reasonCache: Reason[][] = Array.from({ length: CODES.length + 1 }, () => []);

/** Shared, frozen reason objects (one per code, description and condition index). */
function reason(rank: number, index: number | null, groupsNotEvaluated = false): Reason {
  const slots = reasonCache[groupsNotEvaluated ? CODES.length : rank + 1]!;
  const slot = index === null ? 0 : index + 1;
  let shared = slots[slot];
  if (shared === undefined) {
    const [code, description] = CODES[rank + 1]!;
    shared = slots[slot] = Object.freeze({
      code,
      condition_index: index,
      description: rank === CONDITION_MATCH ? `${description} ${(index ?? 0) + 1}` : groupsNotEvaluated ? GROUPS_NOT_EVALUATED : description,
    });
  }
  return shared;
}

/** The reason of release condition `index` matching (kept on the compiled condition). */
export const matchReason = (index: number): Reason => reason(CONDITION_MATCH, index);

function decided(flag: CompiledFlag, enabled: boolean, variant: string | null, why: Reason): FlagResult {
  const payload = !enabled ? null : variant === null ? flag.enabledPayload : (flag.payloads.get(variant) ?? null);
  return { key: flag.key, enabled, variant, value: variant ?? enabled, reason: why, payload };
}

const inconclusive = (flag: CompiledFlag, why: string): Inconclusive => ({ key: flag.key, inconclusive: true, why });

/** PostHog's get_match: disabled, dependencies, enrollment, holdout, then release conditions in order. */
function evaluateFlag(flag: CompiledFlag, run: Run): Outcome {
  const local = run.local;
  if (!flag.active) return decided(flag, false, null, reason(FLAG_DISABLED, null));
  if (flag.dependencyState !== 'ok') {
    if (flag.dependencyState === 'cycle' || !local) return decided(flag, false, null, reason(MISSING_DEPENDENCY, null));
    return inconclusive(flag, 'depends on a flag that is not defined');
  }
  if (local && flag.continuity) return inconclusive(flag, 'experience continuity needs the server');
  if (local && flag.group === undefined) return inconclusive(flag, 'unknown group type index');

  if (flag.enrollmentKey !== null || flag.superCondition !== null) {
    const enrollment = evaluateEnrollment(flag, run);
    if (enrollment) return enrollment;
  }

  if (flag.holdout) {
    const { variant, percentage } = flag.holdout;
    const id = flag.group === null ? personIdentifier(flag, run, false) : run.groupKey(flag.group);
    if (percentage >= 100 || holdoutHash(id) <= percentage / 100) {
      return decided(flag, true, variant, reason(HOLDOUT_CONDITION_VALUE, null));
    }
  }

  let best = NO_GROUP_TYPE;
  let bestIndex: number | null = null;
  let skippedGroup = false;
  let unknownKey: string | null = null; // value key of the undecided conditions so far ('*' when they differ)
  let personId: string | null = null;
  for (const cond of flag.conditions) {
    const byGroup = cond.aggregation !== null;
    const identifier = byGroup ? run.groupKey(cond.group) : (personId ??= personIdentifier(flag, run, true));
    let code: number;
    if (byGroup && identifier === '') {
      skippedGroup = true;
      code = NO_GROUP_TYPE;
    } else if (!byGroup && flag.deviceBucketing && run.deviceId() === '') {
      code = local ? UNDECIDED : OUT_OF_ROLLOUT_BOUND;
      if (local) unknownKey = unknownKey === null || unknownKey === cond.valueKey ? cond.valueKey : '*';
    } else {
      const matched = cond.leaves.length === 0 ? YES : matchLeaves(cond.leaves, run);
      if (matched === NO) {
        code = NO_CONDITION_MATCH;
      } else if (matched === UNKNOWN) {
        code = UNDECIDED;
        unknownKey = unknownKey === null || unknownKey === cond.valueKey ? cond.valueKey : '*';
      } else if (!inRollout(flag, cond.rollout, identifier)) {
        code = OUT_OF_ROLLOUT_BOUND;
      } else if (unknownKey !== null && unknownKey !== cond.valueKey) {
        // An earlier undecided condition could have matched with another value.
        return inconclusive(flag, `condition ${cond.index + 1} matched after an undecided condition`);
      } else {
        return decided(flag, true, cond.variant ?? pickVariant(flag, identifier), cond.matched);
      }
    }
    if (code >= best) {
      best = code;
      bestIndex = cond.index;
    }
  }
  if (unknownKey !== null) return inconclusive(flag, 'a condition needs properties or data not available here');
  return decided(flag, false, null, reason(best, bestIndex, best === NO_CONDITION_MATCH && skippedGroup));
}

/**
 * Early access enrollment ("super condition"): decides the flag when the person (or, for a condition aggregated by
 * a group type, the request's group of that type) has the enrollment property.
 */
function evaluateEnrollment(flag: CompiledFlag, run: Run): Outcome | null {
  if (flag.enrollmentKey !== null) {
    const person = run.ctx.personProperties ?? EMPTY;
    if (Object.hasOwn(person, flag.enrollmentKey)) {
      const v = person[flag.enrollmentKey];
      return decided(flag, v === true || v === 'true', null, reason(SUPER_CONDITION_VALUE, 0));
    }
  } else if (flag.superCondition) {
    const cond = flag.superCondition;
    let props: Record<string, unknown>;
    let identifier: () => string;
    if (cond.aggregation === null) {
      props = run.ctx.personProperties ?? EMPTY;
      identifier = () => personIdentifier(flag, run, true);
    } else {
      // No group of that type in the request (or no such group type): not enrolled; the release conditions decide.
      const groupKey = run.groupKey(cond.group);
      if (groupKey === '') return null;
      props = run.ctx.groupProperties?.[cond.group!] ?? EMPTY;
      identifier = () => groupKey;
    }
    if (hasAny(props, flag.superKeys)) {
      const matched = matchLeaves(cond.leaves, run);
      if (matched === UNKNOWN) return inconclusive(flag, 'enrollment condition needs more properties');
      const enabled = matched === YES && inRollout(flag, cond.rollout, identifier());
      return decided(flag, enabled, null, reason(SUPER_CONDITION_VALUE, 0));
    }
  } else {
    return null;
  }
  // Not enrolled according to what we were given; the server's stored properties may say otherwise.
  return run.local ? inconclusive(flag, 'enrollment property not given') : null;
}

const EMPTY: Record<string, unknown> = Object.freeze({});

function hasAny(props: Record<string, unknown>, keys: readonly string[]): boolean {
  for (const k of keys) if (Object.hasOwn(props, k)) return true;
  return false;
}

/** Bucketing identifier of person-aggregated conditions (device id, continuity hash key, or distinct id). */
function personIdentifier(flag: CompiledFlag, run: Run, useStoredOverride: boolean): string {
  const ctx = run.ctx;
  if (flag.deviceBucketing) {
    const device = run.deviceId();
    if (device !== '') return device;
  }
  const stored = useStoredOverride ? ctx.hashKeyOverrides?.[flag.key] : undefined;
  if (stored) return stored;
  if (flag.continuity && ctx.anonDistinctId) return ctx.anonDistinctId;
  return ctx.distinctId;
}

/** Whether the identifier's bucket (`hashKey(flag.key, identifier)`) is within the rollout percentage. */
function inRollout(flag: CompiledFlag, rollout: number, identifier: string): boolean {
  if (rollout >= 100) return true;
  return (identifier === '' ? 0 : scaledSha1(flag.hashPrefix + identifier)) <= rollout / 100;
}

function pickVariant(flag: CompiledFlag, identifier: string): string | null {
  if (flag.variants.length === 0) return null;
  const h = identifier === '' ? 0 : scaledSha1(`${flag.hashPrefix}${identifier}variant`);
  for (const v of flag.variants) if (h < v.upTo) return v.key;
  return null;
}

/** All leaves of a condition must match (three-valued AND: any NO wins over UNKNOWN). */
function matchLeaves(leaves: readonly Leaf[], run: Run): Tri {
  let unknown = false;
  for (const leaf of leaves) {
    const r = matchLeaf(leaf, run);
    if (r === NO) return NO;
    if (r === UNKNOWN) unknown = true;
  }
  return unknown ? UNKNOWN : YES;
}

function matchLeaf(leaf: Leaf, run: Run): Tri {
  switch (leaf.kind) {
    case 'property': {
      const value = run.lookup(leaf.source, leaf.key);
      return matchValue(leaf.matcher, value !== MISSING, value, run, run.local);
    }
    case 'cohort': {
      if (!leaf.cohort) return run.local ? UNKNOWN : NO;
      const r = matchGroup(leaf.cohort, run);
      return r === UNKNOWN ? UNKNOWN : (r === YES) !== leaf.notIn ? YES : NO;
    }
    case 'flag': {
      const dep = run.evaluateKey(leaf.key);
      if (dep === undefined || dep === PENDING || dep.inconclusive) return run.local ? UNKNOWN : NO;
      return flagEvaluatesTo(leaf.expected, dep.value) ? YES : NO;
    }
  }
}

/** A cohort's AND / OR tree, with `negation` on leaves (posthog-node semantics). */
function matchGroup(group: CompiledGroup, run: Run): Tri {
  if (group.items.length === 0) return YES; // an empty group is a no-op
  let unknown = false;
  for (const item of group.items) {
    let r = item.kind === 'group' ? matchGroup(item, run) : matchLeaf(item, run);
    if (r === UNKNOWN) {
      unknown = true;
      continue;
    }
    if (item.kind !== 'group' && item.negation) r = r === YES ? NO : YES;
    if (group.and ? r === NO : r === YES) return r;
  }
  if (unknown) return UNKNOWN;
  return group.and ? YES : NO;
}

/** `true` matches any enabled value (incl. a variant), `false` only false, a string only that variant. */
function flagEvaluatesTo(expected: unknown, value: boolean | string): boolean {
  if (typeof expected === 'boolean') return expected === value || (expected && typeof value === 'string' && value !== '');
  if (typeof expected === 'string') return value === expected;
  return false;
}
