import { describe, expect, it } from 'vitest';
import { compileFlags, enrollmentCondition, foldEnrollment } from '../src/index';
import type { EvaluationContext, FlagDefinition, FlagResult, Inconclusive } from '../src/index';

const mapping = { '0': 'company' };

const personFlag = (key: string, groups: FlagDefinition['filters']['groups'], extra: Partial<FlagDefinition['filters']> = {}): FlagDefinition => ({
  id: 1,
  key,
  active: true,
  filters: { groups, super_groups: [enrollmentCondition(key)], payloads: { true: { on: true } }, ...extra },
});

const groupFlag = (key: string, groups: FlagDefinition['filters']['groups']): FlagDefinition => ({
  id: 2,
  key,
  active: true,
  filters: { groups, aggregation_group_type_index: 0, super_groups: [enrollmentCondition(key, 0)] },
});

/** What an evaluation gives, without the reason (folding moves the enrollment into condition 0). */
function answer(result: FlagResult | Inconclusive | undefined) {
  if (!result) return 'missing';
  if (result.inconclusive) return 'inconclusive';
  return { enabled: result.enabled, variant: result.variant, payload: result.payload };
}

const definitions: FlagDefinition[] = [
  personFlag('zero', [{ properties: [], rollout_percentage: 0 }]),
  personFlag('everyone', [{ properties: [], rollout_percentage: 100 }]),
  personFlag('half', [{ properties: [], rollout_percentage: 50 }]),
  personFlag('pros', [{ properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro'] }] }, { properties: [], rollout_percentage: 10 }]),
  personFlag('no-conditions', []),
  groupFlag('group-zero', [{ properties: [], rollout_percentage: 0 }]),
  groupFlag('group-everyone', [{ properties: [] }]),
  groupFlag('group-pros', [{ properties: [{ key: 'plan', type: 'group', group_type_index: 0, operator: 'exact', value: 'pro' }] }]),
];

const enrollments: Array<[string, Record<string, unknown>]> = [
  ['enrolled (true)', { on: true }],
  ["enrolled ('true')", { on: 'true' }],
  ['opted out (false)', { on: false }],
  ["opted out ('false')", { on: 'false' }],
  ['property absent', {}],
];

/** Contexts for one flag: the enrollment on the person (person flags) or on the group (group flags), with and without `plan`. */
function contexts(def: FlagDefinition): EvaluationContext[] {
  const out: EvaluationContext[] = [];
  const property = `$feature_enrollment/${def.key}`;
  for (const [, { on }] of enrollments) {
    for (const plan of [undefined, 'pro', 'free']) {
      for (const distinctId of ['user-1', 'user-2', 'user-3', 'user-4']) {
        const props: Record<string, unknown> = {};
        if (on !== undefined) props[property] = on;
        if (plan) props.plan = plan;
        if (def.filters.aggregation_group_type_index == null) {
          out.push({ distinctId, personProperties: props });
        } else {
          out.push({ distinctId, groups: { company: `acme-${distinctId}` }, groupProperties: { company: props } });
          out.push({ distinctId, personProperties: props }); // no group in the request
        }
      }
    }
  }
  return out;
}

describe('foldEnrollment', () => {
  it('puts the enrollment condition first, guards every other condition, and drops super_groups', () => {
    const folded = foldEnrollment(personFlag('beta', [{ properties: [{ key: 'plan', type: 'person', value: 'pro' }], rollout_percentage: 20 }]));
    expect(folded.filters).toEqual({
      groups: [
        { properties: [{ key: '$feature_enrollment/beta', type: 'person', operator: 'exact', value: ['true'] }], rollout_percentage: 100, variant: null },
        {
          properties: [
            { key: 'plan', type: 'person', value: 'pro' },
            { key: '$feature_enrollment/beta', type: 'person', operator: 'is_not', value: ['true', 'false'] },
          ],
          rollout_percentage: 20,
        },
      ],
      payloads: { true: { on: true } },
    });
    expect(folded.ensure_experience_continuity).toBeUndefined();
  });

  it('folds a group enrollment condition as group properties aggregated by the flag’s group type', () => {
    const folded = foldEnrollment(groupFlag('gb', [{ properties: [], rollout_percentage: 0 }]));
    expect(folded.filters).toEqual({
      aggregation_group_type_index: 0,
      groups: [
        {
          properties: [{ key: '$feature_enrollment/gb', type: 'group', group_type_index: 0, operator: 'exact', value: ['true'] }],
          rollout_percentage: 100,
          variant: null,
          aggregation_group_type_index: 0,
        },
        {
          properties: [{ key: '$feature_enrollment/gb', type: 'group', group_type_index: 0, operator: 'is_not', value: ['true', 'false'] }],
          rollout_percentage: 0,
        },
      ],
    });
  });

  it('returns a definition without a super condition unchanged (same object)', () => {
    const plain: FlagDefinition = { id: 3, key: 'plain', active: true, filters: { groups: [{ properties: [] }] } };
    expect(foldEnrollment(plain)).toBe(plain);
    const empty: FlagDefinition = { id: 4, key: 'empty', active: true, filters: { groups: [], super_groups: [{ properties: [] }] } };
    expect(foldEnrollment(empty)).toBe(empty);
    const gen4: FlagDefinition = { id: 5, key: 'gen4', active: true, filters: { groups: [], feature_enrollment: true } };
    expect(foldEnrollment(gen4)).toBe(gen4);
  });

  it.each([
    ['a multivariate flag', personFlag('mv', [{ properties: [] }], { multivariate: { variants: [{ key: 'a', rollout_percentage: 100 }] }, payloads: null })],
    ['a flag with a holdout', personFlag('ho', [{ properties: [] }], { holdout: { id: 1, exclusion_percentage: 10 } })],
    [
      'another super condition',
      personFlag('other', [{ properties: [] }], { super_groups: [{ properties: [{ key: 'email', type: 'person', operator: 'icontains', value: 'x' }] }] }),
    ],
    [
      'a person enrollment on a group flag',
      { ...groupFlag('pg', [{ properties: [] }]), filters: { ...groupFlag('pg', []).filters, super_groups: [enrollmentCondition('pg')] } },
    ],
  ])('sends %s to the server (experience continuity) instead of folding it', (_name, def) => {
    const folded = foldEnrollment(def);
    expect(folded.ensure_experience_continuity).toBe(true);
    expect(folded.filters).not.toHaveProperty('super_groups');
    expect(folded.filters.groups).toEqual(def.filters.groups);
    const local = compileFlags([folded], { mode: 'local', groupTypeMapping: mapping });
    expect(local.evaluate(def.key, { distinctId: 'u', personProperties: { [`$feature_enrollment/${def.key}`]: true } })).toMatchObject({ inconclusive: true });
  });

  it('gives the same local answers as the stored definition: enrolled, opted out, and absent (inconclusive)', () => {
    const stored = compileFlags(definitions, { mode: 'local', groupTypeMapping: mapping });
    const folded = compileFlags(definitions.map(foldEnrollment), { mode: 'local', groupTypeMapping: mapping });
    let decided = 0;
    let inconclusive = 0;
    for (const def of definitions) {
      for (const ctx of contexts(def)) {
        const want = answer(stored.evaluate(def.key, ctx));
        expect(answer(folded.evaluate(def.key, ctx)), `${def.key} ${JSON.stringify(ctx)}`).toEqual(want);
        if (want === 'inconclusive') inconclusive++;
        else decided++;
      }
    }
    expect(decided).toBeGreaterThan(100);
    expect(inconclusive).toBeGreaterThan(20);
  });

  it('gives the same server answers as the stored definition whenever the enrollment is given', () => {
    const stored = compileFlags(definitions, { mode: 'server', groupTypeMapping: mapping });
    const folded = compileFlags(definitions.map(foldEnrollment), { mode: 'server', groupTypeMapping: mapping });
    for (const def of definitions) {
      for (const ctx of contexts(def)) {
        const props = ctx.groups ? ctx.groupProperties?.company : ctx.personProperties;
        if (!props || !(`$feature_enrollment/${def.key}` in props)) continue;
        expect(answer(folded.evaluate(def.key, ctx)), `${def.key} ${JSON.stringify(ctx)}`).toEqual(answer(stored.evaluate(def.key, ctx)));
      }
    }
  });
});
