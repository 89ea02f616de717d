import { describe, expect, it } from 'vitest';
import { compileFlags } from '../src/index';
import type { EvaluationContext, EvaluationMode, FlagDefinition, PropertyGroup } from '../src/index';
import cases from '@service/test-support/flag-cases.json' with { type: 'json' };

/** Expected outcome of one flag: decided (only the listed fields are compared), inconclusive, or not evaluated (null). */
type Expected = { enabled: boolean; variant: string | null; reason?: Record<string, unknown>; payload?: unknown } | 'inconclusive' | null;

interface Case {
  name: string;
  mode?: EvaluationMode;
  flags: FlagDefinition[];
  groupTypeMapping?: Record<string, string>;
  cohorts?: Record<string, PropertyGroup>;
  context: EvaluationContext;
  expected: Record<string, Expected>;
}

describe('conformance cases (@service/test-support/flag-cases.json)', () => {
  it.each((cases as unknown as Case[]).map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const compiled = compileFlags(c.flags, { groupTypeMapping: c.groupTypeMapping, cohorts: c.cohorts, mode: c.mode ?? 'server' });
    const all = compiled.evaluateAll(c.context);
    for (const [key, expected] of Object.entries(c.expected)) {
      const single = compiled.evaluate(key, c.context);
      expect(single, `evaluate() and evaluateAll() agree on ${key}`).toEqual(all[key]);
      if (expected === null) {
        expect(single, key).toBeUndefined();
      } else if (expected === 'inconclusive') {
        expect(single, key).toMatchObject({ key, inconclusive: true });
      } else {
        const { enabled, variant, reason, payload } = expected;
        expect(single, key).toMatchObject({ key, enabled, variant, value: variant ?? enabled });
        if (reason) expect(single?.inconclusive ? undefined : single?.reason, key).toMatchObject(reason);
        if ('payload' in expected) expect(single?.inconclusive ? undefined : single?.payload, key).toEqual(payload);
      }
    }
  });
});
