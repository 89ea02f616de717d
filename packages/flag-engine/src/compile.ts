import { enrollmentProperty } from './enrollment';
import { Engine, matchReason } from './evaluate';
import { compileMatcher } from './operators';
import type {
  CompileOptions,
  CompiledCondition,
  CompiledFlag,
  CompiledFlags,
  CompiledGroup,
  Condition,
  FlagDefinition,
  Leaf,
  PropertyFilter,
  PropertyGroup,
  Source,
} from './types';

/** Compiles flag definitions (deleted ones are left out) for repeated evaluation. */
export function compileFlags(definitions: readonly FlagDefinition[], options: CompileOptions = {}): CompiledFlags {
  const mode = options.mode ?? 'server';
  const compiler = new Compiler(options.groupTypeMapping ?? {}, options.cohorts ?? {}, mode === 'local');
  const flags = new Map<string, CompiledFlag>();
  for (const def of definitions) {
    if (!def.deleted) flags.set(def.key, compiler.flag(def));
  }
  resolveDependencies(flags);
  let index = 0;
  for (const flag of flags.values()) flag.index = index++;
  return new Engine(flags, mode, compiler.hasFlagLeaves);
}

class Compiler {
  /** Whether any condition or cohort refers to a flag: only then do evaluations memoise results. */
  hasFlagLeaves = false;
  private readonly compiledCohorts = new Map<string, CompiledGroup | null>();
  private readonly compiling = new Set<string>();

  constructor(
    private readonly mapping: Record<string, string>,
    private readonly cohorts: Record<string, PropertyGroup>,
    private readonly local: boolean,
  ) {}

  flag(def: FlagDefinition): CompiledFlag {
    const filters = def.filters ?? {};
    const aggregation = asIndex(filters.aggregation_group_type_index);
    const variantList = Array.isArray(filters.multivariate?.variants) ? filters.multivariate.variants : [];
    const variantKeys = new Set(variantList.map((v) => v.key));
    const variants: CompiledFlag['variants'] = [];
    let upTo = 0;
    for (const v of variantList) {
      upTo += Number(v.rollout_percentage) / 100;
      variants.push({ key: v.key, upTo });
    }
    const condition = (c: Condition, index: number, agg: number | null): CompiledCondition => this.condition(c ?? {}, index, agg, variantKeys);
    const groups = Array.isArray(filters.groups) ? filters.groups : [];
    const conditions = groups.map((c, i) => condition(c, i, asIndex(c?.aggregation_group_type_index) ?? aggregation));
    const superGroup = filters.feature_enrollment === true ? undefined : filters.super_groups?.[0];
    const superProperties = superGroup?.properties?.length ? superGroup.properties : null;
    // A super condition is person-aggregated unless it names a group type itself (early access for groups).
    const superCondition = superGroup && superProperties ? condition(superGroup, 0, asIndex(superGroup.aggregation_group_type_index)) : null;
    const holdout = filters.holdout;
    const payloads = new Map(Object.entries(filters.payloads ?? {}));
    return {
      key: def.key,
      index: 0,
      hashPrefix: `${def.key}.`,
      active: def.active !== false,
      continuity: def.ensure_experience_continuity === true,
      deviceBucketing: def.bucketing_identifier === 'device_id',
      group: this.source(aggregation),
      conditions,
      enrollmentKey: filters.feature_enrollment === true ? enrollmentProperty(def.key) : null,
      superCondition,
      superKeys: superProperties ? superProperties.map((p) => p.key) : [],
      holdout: holdout ? { variant: `holdout-${holdout.id}`, percentage: Math.min(100, Math.max(0, Number(holdout.exclusion_percentage) || 0)) } : null,
      variants,
      payloads,
      enabledPayload: payloads.get('true') ?? null,
      dependencies: [...conditions, ...(superCondition ? [superCondition] : [])].flatMap((c) => c.leaves.flatMap((l) => (l.kind === 'flag' ? [l.key] : []))),
      dependencyState: 'ok',
    };
  }

  private condition(c: Condition, index: number, aggregation: number | null, variantKeys: Set<string>): CompiledCondition {
    const variant = typeof c.variant === 'string' && variantKeys.has(c.variant) ? c.variant : null;
    return {
      index,
      leaves: (Array.isArray(c.properties) ? c.properties : []).map((p) => this.leaf(p, aggregation)),
      rollout: c.rollout_percentage == null ? 100 : Number(c.rollout_percentage),
      variant,
      aggregation,
      group: this.source(aggregation),
      valueKey: variantKeys.size === 0 ? '' : variant !== null ? `variant:${variant}` : `hash:${aggregation}`,
      matched: matchReason(index),
    };
  }

  private leaf(p: PropertyFilter, aggregation: number | null): Leaf {
    const negation = p.negation === true;
    if (p.type === 'cohort') {
      return { kind: 'cohort', cohort: this.cohort(String(p.value)), notIn: p.operator === 'not_in', negation };
    }
    if (p.type === 'flag') {
      this.hasFlagLeaves = true;
      return { kind: 'flag', key: String(p.key), expected: p.value, negation };
    }
    const index = p.type === 'person' ? null : p.type === 'group' ? (asIndex(p.group_type_index) ?? aggregation) : aggregation;
    const matcher = compileMatcher(p.operator, p.value, this.local);
    return { kind: 'property', key: String(p.key), source: this.source(index), matcher, negation };
  }

  /** Compiles a cohort once; null when it is not in the map (static cohort) or is part of a cycle. */
  private cohort(id: string): CompiledGroup | null {
    const done = this.compiledCohorts.get(id);
    if (done !== undefined) return done;
    const tree = Object.hasOwn(this.cohorts, id) ? this.cohorts[id] : undefined;
    if (!tree || this.compiling.has(id)) return null;
    this.compiling.add(id);
    const compiled = this.group(tree);
    this.compiling.delete(id);
    this.compiledCohorts.set(id, compiled);
    return compiled;
  }

  private group(g: PropertyGroup): CompiledGroup {
    const values = Array.isArray(g?.values) ? g.values : [];
    return {
      kind: 'group',
      and: g?.type !== 'OR',
      items: values.map((v) => ('values' in v ? this.group(v) : this.leaf(v, null))),
    };
  }

  private source(index: number | null): Source {
    if (index === null) return null;
    return Object.hasOwn(this.mapping, String(index)) ? this.mapping[String(index)] : undefined;
  }
}

const asIndex = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** Marks flags that (transitively) depend on an undefined flag, or sit on / depend on a cycle. */
function resolveDependencies(flags: Map<string, CompiledFlag>): void {
  const visiting = new Set<string>();
  const done = new Set<string>();
  const visit = (flag: CompiledFlag): CompiledFlag['dependencyState'] => {
    if (done.has(flag.key)) return flag.dependencyState;
    if (visiting.has(flag.key)) return 'cycle';
    visiting.add(flag.key);
    let state: CompiledFlag['dependencyState'] = 'ok';
    for (const key of flag.dependencies) {
      const dep = flags.get(key);
      const depState = dep ? visit(dep) : 'missing';
      if (depState === 'cycle' || (depState === 'missing' && state === 'ok')) state = depState;
    }
    visiting.delete(flag.key);
    done.add(flag.key);
    flag.dependencyState = state;
    return state;
  };
  for (const flag of flags.values()) visit(flag);
}
