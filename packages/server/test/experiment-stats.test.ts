// The statistics of experiment results (src/experiments/stats.ts, posteriors.ts) against reference values computed
// independently: test/fixtures/experiment-stats.json, written by test/fixtures/experiment-stats.py with scipy and numpy
// (each case says how its values were made: scipy's quad and brentq for the lift's posterior quantiles, brentq on
// Fieller's statistic for the frequentist interval, seeded numpy Monte Carlo as a second opinion), plus the test vectors
// of the reference notes (shared/reference/experiments.md). Pure functions, no database: the suite runs this file in
// each of its projects.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  conversionResults,
  meanResults,
  sampleRatioMismatch,
  welchDf,
  type ConversionInput,
  type MeanInput,
  type StatsOptions,
  type VariantResult,
} from '../src/experiments/stats';
import fixture from './fixtures/experiment-stats.json';

/** Closed forms (quantiles, tail probabilities, the delta method): the two implementations agree to rounding. */
const CLOSED = 1e-9;
/** Probability to be best by numerical integration (ours: Simpson; scipy: adaptive quad). */
const INTEGRATED = 1e-7;
/** Quantiles of the lift's posterior: integrations solved for their bound (relative beyond 1, see `close`). */
const LIFT_QUANTILE = 1e-6;
/** Monte Carlo with `draws` draws: four standard errors. */
const mcTolerance = (p: number, draws: number) => 4 * Math.sqrt((p * (1 - p)) / draws) + 1e-6;
/** The reference notes print 6 decimals. */
const PRINTED = 1.000001e-6;

type Mode = 'bayesian' | 'frequentist' | 'sequential';
const MODES: Mode[] = ['bayesian', 'frequentist', 'sequential'];
const optionsOf = (mode: Mode): StatsOptions => ({ method: mode === 'bayesian' ? 'bayesian' : 'frequentist', sequential: mode === 'sequential' });

interface Expected {
  key: string;
  rate: number;
  mean?: number;
  variance?: number;
  credible_interval: number[];
  probability_to_be_best: number | null;
  lift: { estimate: number; interval: (number | null)[] } | null;
  p_value: number | null;
}

function close(actual: number | null | undefined, expected: number | null | undefined, tolerance: number, what: string) {
  if (expected === null || expected === undefined) {
    expect(actual ?? null, what).toBeNull();
    return;
  }
  expect(typeof actual, what).toBe('number');
  const error = Math.abs(actual! - expected);
  // Relative for large magnitudes (lift estimates of 2 and more), absolute near 0.
  expect(error, `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance * Math.max(1, Math.abs(expected)));
}

function compareToFixture(actual: VariantResult[], expected: Expected[], label: string, mode: Mode) {
  expect(actual.map((v) => v.key)).toEqual(expected.map((v) => v.key));
  for (const [i, want] of expected.entries()) {
    const got = actual[i]!;
    const what = `${label} ${want.key}`;
    close(got.rate, want.rate, CLOSED, `${what} rate`);
    if (want.variance !== undefined) close(got.variance, want.variance, CLOSED, `${what} variance`);
    close(got.credible_interval[0], want.credible_interval[0], CLOSED, `${what} interval lo`);
    close(got.credible_interval[1], want.credible_interval[1], CLOSED, `${what} interval hi`);
    close(got.probability_to_be_best, want.probability_to_be_best, INTEGRATED, `${what} probability_to_be_best`);
    close(got.p_value, want.p_value, CLOSED, `${what} p_value`);
    if (want.lift === null) expect(got.lift, `${what} lift`).toBeNull();
    else {
      close(got.lift?.estimate, want.lift.estimate, CLOSED, `${what} lift`);
      const tolerance = mode === 'bayesian' ? LIFT_QUANTILE : CLOSED;
      close(got.lift?.interval[0], want.lift.interval[0], tolerance, `${what} lift lo`);
      close(got.lift?.interval[1], want.lift.interval[1], tolerance, `${what} lift hi`);
    }
  }
}

/** Every number in the results is finite (JSON has no NaN or Infinity) and survives a JSON round trip. */
function expectJsonSafe(results: VariantResult[]) {
  const walk = (value: unknown): void => {
    if (typeof value === 'number') expect(Number.isFinite(value), `${value}`).toBe(true);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(results);
  expect(JSON.parse(JSON.stringify(results))).toEqual(results);
}

interface LiftMc {
  draws: number;
  values: Record<string, number[]>;
}
/**
 * The bayesian lift interval against numpy's quantiles of (B − A)/|A| over seeded draws, a check independent of any
 * integration. A tail quantile of 10⁶ draws errs by about 0.07 % of a 95 % interval's width (√(q(1−q)/n) over the
 * density), a few times that in the long upper tail of a ratio: they agree to 1 % of the width.
 */
function itAgreesWithLiftMc(results: () => VariantResult[], mc: LiftMc) {
  it(`the lift's credible interval agrees with numpy's seeded Monte Carlo quantiles (${mc.draws} draws)`, () => {
    for (const variant of results()) {
      const want = mc.values[variant.key];
      if (!want) continue;
      const [lo, hi] = variant.lift!.interval as [number, number];
      const tolerance = 0.01 * (want[1]! - want[0]!);
      expect(Math.abs(lo - want[0]!), `${variant.key} lo ${lo} vs ${want[0]}`).toBeLessThanOrEqual(tolerance);
      expect(Math.abs(hi - want[1]!), `${variant.key} hi ${hi} vs ${want[1]}`).toBeLessThanOrEqual(tolerance);
    }
  });
}

describe('conversion metrics against scipy (fixture)', () => {
  for (const testCase of fixture.conversion) {
    describe(testCase.name, () => {
      for (const mode of MODES) {
        it(`${mode}: rates, intervals, probability to be best, lift intervals and p-values`, () => {
          const results = conversionResults(testCase.variants as ConversionInput[], optionsOf(mode));
          compareToFixture(results, testCase.expected[mode] as Expected[], mode, mode);
          expect(results.map((v) => v.conversions)).toEqual(testCase.variants.map((v) => v.conversions));
        });
      }
      const checks = testCase.checks as {
        probability_to_be_best_mc?: { draws: number; values: number[] };
        p_variant_beats_control_exact?: { value: number };
        lift_interval_mc?: LiftMc;
      };
      if (checks.lift_interval_mc)
        itAgreesWithLiftMc(() => conversionResults(testCase.variants as ConversionInput[], optionsOf('bayesian')), checks.lift_interval_mc);
      const mc = checks.probability_to_be_best_mc;
      if (mc)
        it(`probability to be best agrees with numpy's seeded Monte Carlo (${mc.draws} draws, 4 standard errors)`, () => {
          const results = conversionResults(testCase.variants as ConversionInput[], optionsOf('bayesian'));
          for (const [i, value] of mc.values.entries()) close(results[i]!.probability_to_be_best, value, mcTolerance(value, mc.draws), `arm ${i}`);
        });
      const exact = checks.p_variant_beats_control_exact;
      if (exact)
        it("two arms: probability to be best equals Evan Miller's exact P(variant > control)", () => {
          const results = conversionResults(testCase.variants as ConversionInput[], optionsOf('bayesian'));
          close(results.find((v) => v.key !== 'control')!.probability_to_be_best, exact.value, INTEGRATED, 'P(B > A)');
        });
    });
  }
});

describe('mean metrics against scipy (fixture)', () => {
  for (const testCase of fixture.mean) {
    describe(testCase.name, () => {
      for (const mode of MODES) {
        it(`${mode}: means, variances, intervals, probability to be best, lift intervals and p-values`, () => {
          const results = meanResults(testCase.variants as MeanInput[], optionsOf(mode));
          compareToFixture(results, testCase.expected[mode] as Expected[], mode, mode);
          expect(results.map((v) => v.sum)).toEqual(testCase.variants.map((v) => v.sum));
        });
      }
      it("Welch–Satterthwaite degrees of freedom agree with scipy's ttest_ind_from_stats", () => {
        const variants = testCase.variants as MeanInput[];
        const moments = (v: MeanInput) => ({ n: v.exposures, a: (v.sum_squares - v.sum ** 2 / v.exposures) / (v.exposures - 1) / v.exposures });
        const control = moments(variants.find((v) => v.key === 'control')!);
        for (const check of testCase.checks.absolute_welch) {
          const arm = moments(variants.find((v) => v.key === check.key)!);
          close(welchDf(control.a, arm.a, control.n, arm.n), check.df, CLOSED, `df of ${check.key}`);
        }
      });
      const checks = testCase.checks as { probability_to_be_best_mc?: { draws: number; values: number[] }; lift_interval_mc?: LiftMc };
      if (checks.lift_interval_mc) itAgreesWithLiftMc(() => meanResults(testCase.variants as MeanInput[], optionsOf('bayesian')), checks.lift_interval_mc);
      const mc = checks.probability_to_be_best_mc;
      if (mc)
        it(`probability to be best agrees with numpy's seeded Monte Carlo (${mc.draws} draws, 4 standard errors)`, () => {
          const results = meanResults(testCase.variants as MeanInput[], optionsOf('bayesian'));
          for (const [i, value] of mc.values.entries()) close(results[i]!.probability_to_be_best, value, mcTolerance(value, mc.draws), `arm ${i}`);
        });
    });
  }
});

describe('sample ratio mismatch against scipy.stats.chisquare (fixture)', () => {
  for (const testCase of fixture.srm) {
    it(testCase.name, () => {
      const p = sampleRatioMismatch(testCase.exposures, testCase.planned);
      expect(Math.abs(p - testCase.p_value)).toBeLessThanOrEqual(1e-12 + 1e-9 * testCase.p_value);
    });
  }
});

describe("the reference notes' test vectors", () => {
  const notes = fixture.reference_notes;
  const C1: ConversionInput[] = [
    { key: 'control', exposures: 10_000, conversions: 1_000 },
    { key: 'test', exposures: 10_000, conversions: 1_100 },
  ];
  const M1: MeanInput[] = [
    { key: 'control', exposures: 5_000, sum: 10_000, sum_squares: 64_991 },
    { key: 'b', exposures: 5_100, sum: 11_220, sum_squares: 75_674 },
  ];

  it('C1: Beta(1,1) posteriors, exact P(B > A), the ratio’s credible interval, the unpooled z-test', () => {
    const [a, b] = conversionResults(C1, optionsOf('bayesian'));
    close(b!.probability_to_be_best, notes.C1.p_b_beats_a_exact, PRINTED, 'P(B > A)');
    a!.credible_interval.forEach((x, i) => close(x, notes.C1.beta_interval_a[i], PRINTED, 'CrI A'));
    b!.credible_interval.forEach((x, i) => close(x, notes.C1.beta_interval_b[i], PRINTED, 'CrI B'));
    // The notes' 95 % interval of p_B/p_A − 1 is a Monte Carlo one of 10⁶ draws: its ends err by about 1.2·10⁻⁴
    // (√(q(1−q)/n) over the density there); three of those.
    b!.lift!.interval.forEach((x, i) => close(x, notes.C1.ratio_interval_mc[i], 3.6e-4, 'lift CrI'));
    const [, frequentist] = conversionResults(C1, optionsOf('frequentist'));
    close(frequentist!.lift!.estimate, notes.C1.lift, PRINTED, 'lift');
    close(frequentist!.p_value, notes.C1.p_unpooled_z, PRINTED, 'p');
  });

  it('C3: probability to be best of three arms', () => {
    const results = conversionResults([...C1, { key: 'c', exposures: 10_000, conversions: 1_080 }], optionsOf('bayesian'));
    results.forEach((v, i) => close(v.probability_to_be_best, notes.C3.p_best_integrated[i], PRINTED, v.key));
    expect(results.reduce((sum, v) => sum + v.probability_to_be_best!, 0)).toBeCloseTo(1, 12);
  });

  it("M1: Welch's t of the difference and its degrees of freedom", () => {
    const [control, b] = meanResults(M1, optionsOf('frequentist'));
    close(b!.p_value, notes.M1.p_welch, PRINTED, 'p');
    close(welchDf(control!.variance! / 5_000, b!.variance! / 5_100, 5_000, 5_100), notes.M1.welch_df, 0.005 / notes.M1.welch_df, 'df');
  });

  it('S1–S4: sample ratio mismatch p-values', () => {
    for (const vector of notes.SRM) close(sampleRatioMismatch(vector.exposures, vector.planned), vector.p_value, PRINTED, `${vector.exposures}`);
  });
});

describe('behaviour beyond the fixtures', () => {
  const bayesian = optionsOf('bayesian');
  const frequentist = optionsOf('frequentist');
  const sequential = optionsOf('sequential');
  const conv = (key: string, exposures: number, conversions: number): ConversionInput => ({ key, exposures, conversions });
  /** n, Σy, Σy² of explicit per-person values. */
  const values = (key: string, ys: number[]): MeanInput => ({
    key,
    exposures: ys.length,
    sum: ys.reduce((a, b) => a + b, 0),
    sum_squares: ys.reduce((a, b) => a + b * b, 0),
  });

  it('the same input gives the same output (no random draws), and probabilities to be best sum to 1', () => {
    const arms = [conv('control', 3_000, 310), conv('a', 2_900, 330), conv('b', 3_100, 305), conv('c', 3_050, 340)];
    const first = conversionResults(arms, bayesian);
    expect(conversionResults(arms, bayesian)).toStrictEqual(first);
    expect(first.reduce((sum, v) => sum + v.probability_to_be_best!, 0)).toBeCloseTo(1, 12);
  });

  it('the bayesian lift interval and the chance to be best tell the same story (two arms: above 0 exactly when P > 97.5 %)', () => {
    const arm = fc.record({ n: fc.integer({ min: 20, max: 5_000 }), share: fc.double({ min: 0.02, max: 0.6, noNaN: true }) });
    fc.assert(
      fc.property(arm, arm, (a, b) => {
        const [, test] = conversionResults(
          [conv('control', a.n, Math.max(1, Math.round(a.n * a.share))), conv('test', b.n, Math.max(1, Math.round(b.n * b.share)))],
          bayesian,
        );
        const chance = test!.probability_to_be_best!;
        const [lo, hi] = test!.lift!.interval as [number, number];
        // Both are integrations of the same posteriors; they may differ in the ninth decimal, not in their story.
        if (Math.abs(chance - 0.975) > 1e-6) expect(lo > 0, `P ${chance}, interval ${lo}…${hi}`).toBe(chance > 0.975);
        if (Math.abs(chance - 0.025) > 1e-6) expect(hi < 0, `P ${chance}, interval ${lo}…${hi}`).toBe(chance < 0.025);
      }),
      { seed: 30, numRuns: 40 },
    );
  });

  it('a lift interval is asymmetric like a ratio: 46/179 against 81/221 reaches further up than down, in both methods', () => {
    const arms = [conv('control', 179, 46), conv('test', 221, 81)];
    for (const options of [bayesian, frequentist]) {
      const [, test] = conversionResults(arms, options);
      const [lo, hi] = test!.lift!.interval as [number, number];
      expect(lo).toBeGreaterThan(0);
      expect(hi - test!.lift!.estimate).toBeGreaterThan(1.2 * (test!.lift!.estimate - lo));
    }
  });

  it('the frequentist lift interval excludes 0 exactly when p < α (both test the same difference)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 30, max: 3_000 }), fc.integer({ min: 5, max: 25 }), fc.integer({ min: 5, max: 25 }), (n, pa, pb) => {
        for (const options of [frequentist, sequential]) {
          const [, test] = conversionResults([conv('control', n, Math.round((n * pa) / 100)), conv('test', n, Math.round((n * pb) / 100))], options);
          const [lo, hi] = test!.lift!.interval;
          if (lo === null || hi === null || Math.abs(test!.p_value! - 0.05) < 1e-9) continue;
          expect(lo > 0 || hi < 0).toBe(test!.p_value! < 0.05);
        }
      }),
      { seed: 5, numRuns: 200 },
    );
  });

  it('a control with too few conversions to bound a ratio: the frequentist interval is open above (null), the bayesian one is not', () => {
    const arms = [conv('control', 12, 1), conv('test', 14, 4)];
    expect(conversionResults(arms, frequentist)[1]!.lift!.interval).toEqual([-1, null]);
    const [lo, hi] = conversionResults(arms, bayesian)[1]!.lift!.interval;
    expect(lo).toBeGreaterThan(-1);
    expect(hi).toBeGreaterThan(10);
  });

  it('sequential intervals are wider than fixed-horizon ones and sequential p-values larger', () => {
    const arms = [conv('control', 4_000, 400), conv('test', 4_000, 460)];
    const [control, fixed] = conversionResults(arms, frequentist);
    const [sequentialControl, always] = conversionResults(arms, sequential);
    expect(always!.lift!.interval[0]).toBeLessThan(fixed!.lift!.interval[0]!);
    expect(always!.lift!.interval[1]).toBeGreaterThan(fixed!.lift!.interval[1]!);
    expect(always!.p_value!).toBeGreaterThan(fixed!.p_value!);
    expect(sequentialControl!.credible_interval[1] - sequentialControl!.credible_interval[0]).toBeGreaterThan(
      control!.credible_interval[1] - control!.credible_interval[0],
    );
  });

  it('the bayesian method ignores `sequential`; frequentist results have no probability to be best; bayesian ones no p-value', () => {
    const arms = [conv('control', 1_000, 100), conv('test', 1_000, 120)];
    expect(conversionResults(arms, { method: 'bayesian', sequential: true })).toStrictEqual(conversionResults(arms, bayesian));
    expect(conversionResults(arms, frequentist).map((v) => v.probability_to_be_best)).toEqual([null, null]);
    expect(conversionResults(arms, bayesian).map((v) => v.p_value)).toEqual([null, null]);
  });

  it('alpha sets the coverage: a 90 % interval lies inside the 95 % one', () => {
    const arms = [conv('control', 1_000, 100), conv('test', 1_000, 120)];
    const [, wide] = conversionResults(arms, frequentist);
    const [, narrow] = conversionResults(arms, { ...frequentist, alpha: 0.1 });
    expect(narrow!.lift!.interval[0]).toBeGreaterThan(wide!.lift!.interval[0]!);
    expect(narrow!.lift!.interval[1]).toBeLessThan(wide!.lift!.interval[1]!);
    expect(narrow!.p_value).toBe(wide!.p_value);
  });

  it('control is the variant keyed `control` wherever it is listed, else the first one', () => {
    const listed = conversionResults([conv('test', 1_000, 120), conv('control', 1_000, 100)], frequentist);
    expect(listed.map((v) => v.lift === null)).toEqual([false, true]);
    const noControl = conversionResults([conv('a', 1_000, 100), conv('b', 1_000, 120)], frequentist);
    expect(noControl[0]!.lift).toBeNull();
    expect(noControl[1]!.lift!.estimate).toBeCloseTo(0.2, 12);
  });

  it('a single variant: nothing to compare, so no lift, p-value or probability to be best', () => {
    for (const options of [bayesian, frequentist, sequential]) {
      const [only] = conversionResults([conv('control', 500, 50)], options);
      expect(only).toMatchObject({ rate: 0.1, lift: null, p_value: null, probability_to_be_best: null });
      const [mean] = meanResults([values('control', [1, 2, 3])], options);
      expect(mean).toMatchObject({ rate: 2, lift: null, p_value: null, probability_to_be_best: null });
    }
  });

  it('zero exposures: rate 0, the prior (bayesian) or [0, 1] (frequentist) as interval, and no part in comparisons', () => {
    const arms = [conv('control', 0, 0), conv('a', 800, 80), conv('b', 0, 0)];
    const results = conversionResults(arms, bayesian);
    expectJsonSafe(results);
    expect(results[0]!.rate).toBe(0);
    expect(results[0]!.credible_interval[0]).toBeCloseTo(0.025, 12); // Beta(1,1) = uniform
    expect(results[0]!.credible_interval[1]).toBeCloseTo(0.975, 12);
    expect(results.map((v) => v.probability_to_be_best)).toEqual([null, null, null]); // one comparable arm only
    expect(results.map((v) => v.lift)).toEqual([null, null, null]);
    const withControl = conversionResults([conv('control', 800, 80), conv('a', 0, 0), conv('b', 790, 90)], frequentist);
    expect(withControl[1]).toMatchObject({ rate: 0, credible_interval: [0, 1], lift: null, p_value: null });
    expect(withControl[2]!.lift).not.toBeNull();
    const means = meanResults([values('control', []), values('a', [1, 2])], frequentist);
    expect(means[0]).toMatchObject({ rate: 0, mean: 0, variance: 0, credible_interval: [0, 0], lift: null, p_value: null });
    expect(means[1]).toMatchObject({ lift: null, p_value: null });
  });

  it('zero conversions everywhere: intervals inside [0, 1], no lift (control rate 0), p = 1, even chances', () => {
    const arms = [conv('control', 400, 0), conv('test', 400, 0)];
    const [control, test] = conversionResults(arms, frequentist);
    expect(control!.credible_interval[0]).toBe(0);
    expect(control!.credible_interval[1]).toBeGreaterThan(0);
    expect(test).toMatchObject({ lift: null, p_value: 1 });
    const chances = conversionResults(arms, bayesian).map((v) => v.probability_to_be_best!);
    chances.forEach((p) => expect(p).toBeCloseTo(0.5, 9));
  });

  it('everyone converting in both arms: the lift is exactly 0 with p = 1; intervals end at 1', () => {
    const [control, test] = conversionResults([conv('control', 300, 300), conv('test', 250, 250)], frequentist);
    expect(control!.credible_interval[1]).toBe(1);
    expect(test).toMatchObject({ lift: { estimate: 0, interval: [0, 0] }, p_value: 1 });
    const [bayesControl] = conversionResults([conv('control', 300, 300), conv('test', 250, 250)], bayesian);
    expect(bayesControl!.credible_interval[1]).toBeLessThan(1);
    expect(bayesControl!.credible_interval[0]).toBeGreaterThan(0.98);
  });

  it('a variant without conversions against a converting control: lift −100 %, interval clipped at −1, p from the absolute test', () => {
    const [, test] = conversionResults([conv('control', 1_000, 100), conv('test', 1_000, 0)], frequentist);
    expect(test!.lift!.estimate).toBe(-1);
    expect(test!.lift!.interval[0]).toBe(-1);
    // (Δ + z·SE(Δ))/p_A with SE(Δ) = √(0.09/1000): the control's own spread.
    expect(test!.lift!.interval[1]).toBeCloseTo((-0.1 + 1.959963984540054 * Math.sqrt(0.09 / 1_000)) / 0.1, 9);
    expect(test!.p_value!).toBeLessThan(1e-20);
  });

  it('constant but different arms (0 % vs 100 %): the pooled z-test gives a finite p', () => {
    const [, test] = conversionResults([conv('control', 1, 0), conv('test', 1, 1)], frequentist);
    // p̄ = 0.5, SE₀ = √(0.25·2), z = √2: p = 2Φ(−√2) = 0.157299…
    expect(test!.p_value!).toBeCloseTo(0.15729920705028513, 12);
    expect(test!.lift).toBeNull();
  });

  it('a mean metric with no events (all zero): mean 0, variance 0, [0, 0], no lift, p = 1, tied chances', () => {
    const arms = [values('control', [0, 0, 0, 0]), values('test', [0, 0, 0])];
    const [control, test] = meanResults(arms, frequentist);
    expect(control).toMatchObject({ rate: 0, mean: 0, variance: 0, credible_interval: [0, 0] });
    expect(test).toMatchObject({ lift: null, p_value: 1 });
    expect(meanResults(arms, bayesian).map((v) => v.probability_to_be_best)).toEqual([0.5, 0.5]);
  });

  it('zero-variance arms with different values: point masses, the higher one is best; p = 0', () => {
    const arms = [values('control', [2, 2, 2]), values('test', [3, 3, 3, 3]), values('other', [1, 2, 3, 4, 5])];
    const results = meanResults(arms, bayesian);
    expectJsonSafe(results);
    // `other` is N(3, 2.5/5): P(test best) = P(other < 3) = 0.5; control (2) best only if other < 2 and test < 2: never.
    expect(results[0]!.probability_to_be_best).toBe(0);
    expect(results[1]!.probability_to_be_best).toBeCloseTo(0.5, 9);
    expect(results[2]!.probability_to_be_best).toBeCloseTo(0.5, 7);
    const [, test] = meanResults(arms.slice(0, 2), frequentist);
    expect(test).toMatchObject({ lift: { estimate: 0.5, interval: [0.5, 0.5] }, p_value: 0 });
  });

  it('a mean with one exposed person: variance 0, a point interval, and no part in comparisons', () => {
    const results = meanResults([values('control', [1, 2, 3, 4]), values('test', [7])], bayesian);
    expect(results[1]).toMatchObject({ rate: 7, variance: 0, credible_interval: [7, 7], lift: null, probability_to_be_best: null });
    expect(results[0]!.probability_to_be_best).toBeNull();
  });

  it('large sums keep a non-negative variance (Q − S²/n cancels)', () => {
    const [control] = meanResults(
      [
        { key: 'control', exposures: 3, sum: 3e12, sum_squares: 3e24 },
        { key: 'test', exposures: 3, sum: 3e12 + 3, sum_squares: 3e24 + 6e12 + 3 },
      ],
      frequentist,
    );
    expect(control!.variance).toBeGreaterThanOrEqual(0);
  });

  it('never returns NaN or Infinity, whatever the counts (property)', () => {
    const conversionArm = fc
      .tuple(fc.oneof(fc.constantFrom(0, 1, 2), fc.integer({ min: 0, max: 2_000_000 })), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([n, share]) => ({ n, x: Math.min(n, Math.round(n * share)) }));
    const options = fc.record({
      method: fc.constantFrom('bayesian' as const, 'frequentist' as const),
      sequential: fc.boolean(),
      alpha: fc.constantFrom(0.01, 0.05, 0.1, 0.5),
    });
    fc.assert(
      fc.property(fc.array(conversionArm, { minLength: 1, maxLength: 5 }), options, (arms, opts) => {
        const results = conversionResults(
          arms.map((a, i) => conv(i === 0 ? 'control' : `v${i}`, a.n, a.x)),
          opts,
        );
        expectJsonSafe(results);
        for (const v of results) {
          expect(v.credible_interval[0]).toBeGreaterThanOrEqual(0);
          expect(v.credible_interval[1]).toBeLessThanOrEqual(1);
          expect(v.credible_interval[0]).toBeLessThanOrEqual(v.credible_interval[1]);
          const [lo, hi] = v.lift?.interval ?? [null, null];
          if (lo !== null && hi !== null) expect(lo).toBeLessThanOrEqual(hi);
          if (v.p_value !== null) expect(v.p_value >= 0 && v.p_value <= 1).toBe(true);
        }
        const chances = results.map((v) => v.probability_to_be_best).filter((p) => p !== null);
        if (chances.length > 0) expect(chances.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      }),
      { seed: 14, numRuns: 150 },
    );
    const meanArm = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: -50, max: 500 })), { maxLength: 40 });
    fc.assert(
      fc.property(fc.array(meanArm, { minLength: 1, maxLength: 4 }), options, (arms, opts) => {
        const results = meanResults(
          arms.map((ys, i) => values(i === 0 ? 'control' : `v${i}`, ys)),
          opts,
        );
        expectJsonSafe(results);
        for (const v of results) expect(v.credible_interval[0]).toBeLessThanOrEqual(v.credible_interval[1]);
        const chances = results.map((v) => v.probability_to_be_best).filter((p) => p !== null);
        if (chances.length > 0) expect(chances.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      }),
      { seed: 14, numRuns: 150 },
    );
  });

  it('refuses impossible aggregates (a bug upstream, not a user mistake) with a RangeError', () => {
    expect(() => conversionResults([conv('control', 10, 11)], bayesian)).toThrow(RangeError);
    expect(() => conversionResults([conv('control', -1, 0)], bayesian)).toThrow(RangeError);
    expect(() => meanResults([{ key: 'control', exposures: 2, sum: Number.NaN, sum_squares: 0 }], bayesian)).toThrow(RangeError);
    expect(() => conversionResults([conv('control', 10, 1)], { ...bayesian, alpha: 0 })).toThrow(RangeError);
  });

  it('sample ratio mismatch: no exposures or one planned arm → 1, exposures in an arm planned at 0 % → 0, 0 % arms otherwise left out', () => {
    expect(sampleRatioMismatch([0, 0], [50, 50])).toBe(1);
    expect(sampleRatioMismatch([120], [100])).toBe(1);
    expect(sampleRatioMismatch([100, 100, 3], [50, 50, 0])).toBe(0);
    expect(sampleRatioMismatch([5_000, 5_180, 0], [50, 50, 0])).toBe(sampleRatioMismatch([5_000, 5_180], [50, 50]));
    expect(sampleRatioMismatch([500, 500], [50, 50])).toBe(1);
    expect(() => sampleRatioMismatch([1, 2], [100])).toThrow(RangeError);
  });
});
