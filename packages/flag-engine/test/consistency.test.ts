import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { holdoutHash } from '../src/hash';
import { compileFlags, hashKey } from '../src/index';
import type { FlagDefinition, FlagResult, Inconclusive } from '../src/index';
import vectors from './consistency.json' with { type: 'json' };

const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `distinct_id_${i}`);
const valueOf = (r: FlagResult | Inconclusive | undefined): unknown => (r && !r.inconclusive ? r.value : r);

describe('published hash vectors (sdk-protocol.md §2.6)', () => {
  it('hashes SHA1("some-flag.some_distinct_id") = e4ce124e… to 0.8937694017', () => {
    expect(createHash('sha1').update('some-flag.some_distinct_id').digest('hex')).toBe('e4ce124e800a818c63099f95fa085dc2b620e173');
    expect(hashKey('some-flag', 'some_distinct_id')).toBe(parseInt('e4ce124e800a818', 16) / Number('0xfffffffffffffff'));
    expect(hashKey('some-flag', 'some_distinct_id')).toBeCloseTo(0.8937694017, 10);
  });

  it('reproduces the listed rollout and variant hashes', () => {
    const simple = [0.783696, 0.339707, 0.372043, 0.907622, 0.039585, 0.964085];
    simple.forEach((h, i) => expect(hashKey('simple-flag', `distinct_id_${i}`)).toBeCloseTo(h, 6));
    const rollout = [0.502038, 0.31803, 0.356604, 0.701013, 0.933119, 0.207616, 0.183992, 0.751749];
    rollout.forEach((h, i) => expect(hashKey('multivariate-flag', `distinct_id_${i}`)).toBeCloseTo(h, 6));
    const variant: Array<[number, number]> = [
      [0, 0.618645],
      [1, 0.647317],
      [2, 0.063901],
      [5, 0.645715],
      [6, 0.368609],
    ];
    for (const [i, h] of variant) expect(hashKey('multivariate-flag', `distinct_id_${i}`, 'variant')).toBeCloseTo(h, 6);
    expect(holdoutHash('distinct_id_0')).toBeCloseTo(0.656097, 6);
    expect(holdoutHash('distinct_id_1')).toBeCloseTo(0.537152, 6);
  });

  it('is consistent for simple flags (1000 upstream values)', () => {
    const flags = compileFlags([vectors.simple.flag as FlagDefinition]);
    const got = ids(1000).map((distinctId) => valueOf(flags.evaluate('simple-flag', { distinctId })));
    expect(got).toEqual(vectors.simple.expected);
  });

  it('is consistent for multivariate flags (1000 upstream values)', () => {
    const flags = compileFlags([vectors.multivariate.flag as FlagDefinition]);
    const got = ids(1000).map((distinctId) => valueOf(flags.evaluate('multivariate-flag', { distinctId })));
    expect(got).toEqual(vectors.multivariate.expected);
  });

  it('gives the same 1000 values in local mode', () => {
    const flags = compileFlags([vectors.simple.flag, vectors.multivariate.flag] as FlagDefinition[], { mode: 'local' });
    const got = ids(1000).map((distinctId) => {
      const all = flags.evaluateAll({ distinctId });
      return [valueOf(all['simple-flag']), valueOf(all['multivariate-flag'])];
    });
    expect(got).toEqual(vectors.simple.expected.map((s, i) => [s, vectors.multivariate.expected[i]]));
  });
});
