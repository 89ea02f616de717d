/**
 * The statistics of experiment results: pure functions over per-variant aggregates, no I/O. Formulas and the tools
 * they follow: /work/shared/reference/experiments.md. Distribution functions come from @stdlib (ports of Boost/Cephes).
 *
 * Per variant the input is `n` (exposed people) and either `x` conversions or `S = Σy`, `Q = Σy²` (y per person,
 * 0 for people without events). Unit variance: `p(1−p)` for a conversion (gbstats, no n−1), `(Q − S²/n)/(n−1)`
 * for a mean (0 when n ≤ 1, as gbstats). The lift of a variant is relative to control: `L = (m_B − m_A)/|m_A|`.
 *
 * Bayesian (`method: 'bayesian'`), everything from one posterior per arm (posteriors.ts): Beta(1+x, 1+n−x) for a
 * conversion (uniform prior), N(m, s²/n) for a mean (flat prior).
 * - rate interval: the posterior's quantiles α/2 and 1−α/2 (for a mean, `m ± z·s/√n`).
 * - probability to be best: P(arm i has the highest true rate), `∫ f_i(x) Π_{j≠i} F_j(x) dx` by Simpson's rule
 *   (for two normal arms the closed form Φ(Δ/√(s²_A/n_A + s²_B/n_B))).
 * - lift interval: quantiles α/2 and 1−α/2 of the lift's posterior distribution (a ratio of the arms' posteriors:
 *   asymmetric, and above 0 exactly when the chance to beat control exceeds 1 − α/2). `p_value` is null.
 * - `sequential` does not apply (GrowthBook offers it for the frequentist engine only): it is ignored.
 *
 * Frequentist (`method: 'frequentist'`):
 * - rate interval of a conversion: Wilson score interval; of a mean: `m ± t(1−α/2, n−1)·s/√n`.
 * - the test compares the means, `Δ = m_B − m_A` with `SE = √(s²_A/n_A + s²_B/n_B)`: for conversions a
 *   two-proportion z-test with the unpooled variance, for means Welch's t with the Welch–Satterthwaite degrees of
 *   freedom `ν = (a+b)²/(a²/(n_A−1) + b²/(n_B−1))`, `a = s²_A/n_A`, `b = s²_B/n_B`.
 * - lift interval: Fieller's interval for the ratio ρ = m_B/m_A, the ρ with `(m_B − ρ·m_A)² ≤ c²(b + ρ²·a)` (c the
 *   test's critical value), as a lift. It is asymmetric like a ratio, and excludes 0 exactly when p < α. When the
 *   control's own interval reaches 0 (`m_A² ≤ c²·a`) the ratio has no bound: the interval's ends are null.
 * - `probability_to_be_best` is null.
 * - sequential (`sequential: true`): GrowthBook's asymptotic confidence sequences (Waudby-Smith et al.) with tuning
 *   `N*` (`sequential_tuning`, default 5,000): `ρ² = (−2 ln α + ln(1 − 2 ln α))/N*`, every critical value becomes
 *   `√(2(Nρ²+1)/(Nρ²) · ln(√(Nρ²+1)/α))` (N = n_A + n_B for a comparison, n for one arm's interval, where it
 *   replaces z in Wilson's interval or t for a mean) and the p-value is the always-valid
 *   `min(1, √(Nρ²+1)·exp(−ρ²N z²/(2(Nρ²+1))))`. Looking at the results any number of times keeps the error rate.
 *
 * Edges (JSON carries no NaN or Infinity: every number returned is finite; an unbounded end of a lift interval is null):
 * - zero exposures: `rate` 0; the rate interval is the prior's Beta(1,1) interval (bayesian conversion), [0, 1]
 *   (frequentist conversion) or [0, 0] (mean: nothing to estimate a spread from); the arm takes no part in
 *   comparisons: its `lift`, `p_value` and `probability_to_be_best` are null.
 * - a mean with one exposed person: variance 0 (gbstats), interval [m, m], and no part in comparisons (a spread
 *   cannot be estimated from one value): nulls as above.
 * - zero conversions or all converting: Beta and Wilson intervals stay inside [0, 1] and are never empty.
 * - control rate 0: the relative lift is undefined, so `lift` is null; `p_value` is still the test's.
 * - a variant without spread against a control with one (e.g. 0 conversions): Fieller's interval would collapse to
 *   the estimate, so the frequentist interval is `(Δ ± c·SE)/|m_A|`, which also excludes 0 exactly when p < α.
 * - zero variance in both arms (everyone the same value): the interval collapses to the estimate; p is 1 when
 *   the two are equal, else for conversions the pooled two-proportion z-test (finite), for means 0.
 * - conversion lift intervals never go below −100 % (a rate cannot be negative): the lower end is clipped at −1.
 * - zero variance in a mean arm: its posterior is a point mass; ties between point masses share the probability.
 * - a single variant, or fewer than two arms that can be compared: `probability_to_be_best` null.
 * - no variant keyed `control`: the first variant is the control.
 * - any comparison whose arithmetic still overflows (absurd magnitudes) reports null rather than Infinity.
 */
import gammainc from '@stdlib/math-base-special-gammainc';
import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { bestOf, betaPosterior, liftQuantiles, normalPosterior, type Posterior } from './posteriors';

export type Method = 'bayesian' | 'frequentist';
export interface StatsOptions {
  method: Method;
  /** Always-valid intervals and p-values (frequentist only; ignored by the bayesian method). */
  sequential: boolean;
  /** 1 − the interval's coverage, and the test's level. Default 0.05. */
  alpha?: number;
  /** The sequential tuning parameter N*: the pairwise sample size at which a decision is expected. Default 5,000. */
  sequential_tuning?: number;
}
export interface ConversionInput {
  key: string;
  exposures: number;
  conversions: number;
}
/** Per-person values: `sum` = Σy and `sum_squares` = Σy² over the exposed people (y = 0 for people without events). */
export interface MeanInput {
  key: string;
  exposures: number;
  sum: number;
  sum_squares: number;
}
export interface VariantResult {
  key: string;
  exposures: number;
  conversions?: number;
  sum?: number;
  mean?: number;
  variance?: number;
  /** conversions/exposures, or the mean for a mean metric (0 without exposures). */
  rate: number;
  /** Interval of the rate at 1 − α: credible (bayesian), confidence (frequentist) or always-valid (sequential). */
  credible_interval: [number, number];
  /** Bayesian only (null in frequentist mode, for a single variant and for an arm that cannot be compared). */
  probability_to_be_best: number | null;
  /** Relative to control; null for control and when undefined (see the edges above). A null end: unbounded. */
  lift: { estimate: number; interval: [number | null, number | null] } | null;
  /** Frequentist p-value against control (two-proportion z / Welch t, or always-valid); null for control. */
  p_value: number | null;
}

export const DEFAULT_ALPHA = 0.05;
export const DEFAULT_SEQUENTIAL_TUNING = 5_000;

type Kind = 'conversion' | 'mean';
/** What every formula needs of one arm. */
interface Arm {
  n: number;
  mean: number;
  /** Per-unit variance. */
  variance: number;
  /** Conversions (conversion metrics only). */
  x: number;
}
interface Settings {
  kind: Kind;
  method: Method;
  sequential: boolean;
  alpha: number;
  /** ρ² of the confidence sequences. */
  rho2: number;
}

/** The results of a conversion metric, one per variant in the order given. */
export function conversionResults(variants: ConversionInput[], options: StatsOptions): VariantResult[] {
  const settings = settingsOf('conversion', options);
  const arms = variants.map((variant): Arm => {
    const n = count(variant.exposures, `exposures of ${variant.key}`);
    const x = count(variant.conversions, `conversions of ${variant.key}`);
    if (x > n) throw new RangeError(`conversions of ${variant.key} (${x}) exceed its exposures (${n})`);
    const p = n > 0 ? x / n : 0;
    return { n, mean: p, variance: p * (1 - p), x };
  });
  return results(
    variants.map((variant) => variant.key),
    arms,
    settings,
    (arm) => ({ conversions: arm.x }),
  );
}

/** The results of a mean metric (per exposed person: a count of events, or a sum of a numeric property). */
export function meanResults(variants: MeanInput[], options: StatsOptions): VariantResult[] {
  const settings = settingsOf('mean', options);
  const arms = variants.map((variant): Arm => {
    const n = count(variant.exposures, `exposures of ${variant.key}`);
    const sum = finite(variant.sum, `sum of ${variant.key}`);
    const squares = finite(variant.sum_squares, `sum_squares of ${variant.key}`);
    const mean = n > 0 ? sum / n : 0;
    // Q − S·m cancels for large values; a slightly negative result is rounding, not information.
    const variance = n > 1 ? Math.max(0, (squares - sum * mean) / (n - 1)) : 0;
    return { n, mean, variance: Number.isFinite(variance) ? variance : 0, x: 0 };
  });
  return results(
    variants.map((variant) => variant.key),
    arms,
    settings,
    (arm, i) => ({ sum: variants[i]!.sum, mean: arm.mean, variance: arm.variance }),
  );
}

/**
 * Sample ratio mismatch: the p-value of Pearson's chi-square goodness of fit of the exposures to the planned split
 * (df = arms − 1). Arms planned at 0 % are left out (GrowthBook) unless they have exposures, which is a certain
 * mismatch (0). Without exposures, or with fewer than two planned arms, there is nothing to test: 1.
 */
export function sampleRatioMismatch(exposures: number[], plannedPercentages: number[]): number {
  if (exposures.length !== plannedPercentages.length) {
    throw new RangeError(`${exposures.length} exposure counts for ${plannedPercentages.length} planned percentages`);
  }
  const observed: number[] = [];
  const weights: number[] = [];
  for (const [i, value] of exposures.entries()) {
    const n = count(value, `exposures of arm ${i}`);
    const weight = finite(plannedPercentages[i]!, `planned percentage of arm ${i}`);
    if (weight > 0) {
      observed.push(n);
      weights.push(weight);
    } else if (n > 0) return 0;
  }
  const total = observed.reduce((a, b) => a + b, 0);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  if (observed.length < 2 || total === 0) return 1;
  let chiSquare = 0;
  for (const [i, o] of observed.entries()) {
    const expected = (weights[i]! / totalWeight) * total;
    chiSquare += (o - expected) ** 2 / expected;
  }
  return clamp01(gammainc(chiSquare / 2, (observed.length - 1) / 2, true, true));
}

function results(keys: string[], arms: Arm[], settings: Settings, extra: (arm: Arm, i: number) => Partial<VariantResult>): VariantResult[] {
  const controlIndex = Math.max(0, keys.indexOf('control'));
  const control = arms[controlIndex];
  const best = settings.method === 'bayesian' ? probabilityToBeBest(arms, settings.kind) : arms.map(() => null);
  return arms.map((arm, i) => {
    const comparison = i === controlIndex || control === undefined ? { lift: null, p_value: null } : compare(control, arm, settings);
    return {
      key: keys[i]!,
      exposures: arm.n,
      ...extra(arm, i),
      rate: arm.mean,
      credible_interval: rateInterval(arm, settings),
      probability_to_be_best: best[i] ?? null,
      ...comparison,
    };
  });
}

function settingsOf(kind: Kind, options: StatsOptions): Settings {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be between 0 and 1, got ${alpha}`);
  const tuning = options.sequential_tuning ?? DEFAULT_SEQUENTIAL_TUNING;
  if (!(tuning > 0 && Number.isFinite(tuning))) throw new RangeError(`sequential_tuning must be positive, got ${tuning}`);
  return {
    kind,
    method: options.method,
    sequential: options.sequential && options.method === 'frequentist',
    alpha,
    rho2: (-2 * Math.log(alpha) + Math.log(1 - 2 * Math.log(alpha))) / tuning,
  };
}

/** The smallest arm that can be compared: one person for a conversion, two for a mean (a spread needs two). */
const comparable = (arm: Arm, kind: Kind) => arm.n >= (kind === 'mean' ? 2 : 1);

// ---------------------------------------------------------------------------------------------------------------
// One arm's interval

function rateInterval(arm: Arm, s: Settings): [number, number] {
  if (s.kind === 'conversion') {
    if (s.method === 'bayesian') {
      const a = 1 + arm.x;
      const b = 1 + arm.n - arm.x;
      return [betaQuantile(s.alpha / 2, a, b), betaQuantile(1 - s.alpha / 2, a, b)];
    }
    if (arm.n === 0) return [0, 1];
    return wilson(arm.mean, arm.n, s.sequential ? sequentialMultiplier(arm.n, s) : zCritical(s.alpha));
  }
  if (arm.n < 2) return [arm.mean, arm.mean];
  const se = Math.sqrt(arm.variance / arm.n);
  const critical = s.method === 'bayesian' ? zCritical(s.alpha) : s.sequential ? sequentialMultiplier(arm.n, s) : tQuantile(1 - s.alpha / 2, arm.n - 1);
  const half = critical * se;
  return Number.isFinite(half) ? [arm.mean - half, arm.mean + half] : [arm.mean, arm.mean];
}

/** Wilson's score interval for a proportion, with critical value `c` (z, or the sequential multiplier). */
function wilson(p: number, n: number, c: number): [number, number] {
  const c2n = (c * c) / n;
  const center = (p + c2n / 2) / (1 + c2n);
  const half = (c / (1 + c2n)) * Math.sqrt((p * (1 - p)) / n + c2n / (4 * n));
  // At 0 % and 100 % the score interval ends exactly at the bound (rounding would leave 1e-17 off).
  return [p === 0 ? 0 : clamp01(center - half), p === 1 ? 1 : clamp01(center + half)];
}

// ---------------------------------------------------------------------------------------------------------------
// A variant against control

function compare(control: Arm, arm: Arm, s: Settings): Pick<VariantResult, 'lift' | 'p_value'> {
  if (!comparable(control, s.kind) || !comparable(arm, s.kind)) return { lift: null, p_value: null };
  const a = control.variance / control.n;
  const b = arm.variance / arm.n;
  const diff = arm.mean - control.mean;
  const seDiff = Math.sqrt(a + b);
  const test = testOf(control, arm, a, b, s);
  const frequentist = s.method === 'frequentist';

  let p: number;
  if (seDiff > 0) p = test.p(diff / seDiff);
  else if (diff === 0) p = 1;
  else if (s.kind === 'conversion') {
    const pooled = (control.x + arm.x) / (control.n + arm.n);
    p = test.p(diff / Math.sqrt(pooled * (1 - pooled) * (1 / control.n + 1 / arm.n)));
  } else p = 0;
  const p_value = frequentist && Number.isFinite(p) ? clamp01(p) : null;
  if (control.mean === 0) return { lift: null, p_value };

  const scale = Math.abs(control.mean);
  const estimate = diff / scale;
  let interval: [number | null, number | null];
  if (frequentist) {
    interval =
      b === 0 && a > 0 ? [(diff - test.critical * seDiff) / scale, (diff + test.critical * seDiff) / scale] : fieller(control, arm, a, b, test.critical);
  } else {
    // A start for the search: the delta method's spread of the lift.
    const spread = Math.sqrt(b / control.mean ** 2 + (a * arm.mean ** 2) / control.mean ** 4);
    const [lo, hi] = liftQuantiles(posteriorOf(control, s.kind), posteriorOf(arm, s.kind), [s.alpha / 2, 1 - s.alpha / 2], estimate, spread);
    interval = [lo ?? null, hi ?? null];
  }
  if (s.kind === 'conversion') interval = [interval[0] === null ? -1 : Math.max(-1, interval[0]), interval[1] === null ? null : Math.max(-1, interval[1])];
  if (!Number.isFinite(estimate) || interval.some((end) => end !== null && !Number.isFinite(end))) return { lift: null, p_value };
  return { lift: { estimate, interval }, p_value };
}

/**
 * Fieller's interval of ρ = m_B/m_A at critical value c, as a lift (ρ − 1 for a positive control mean, 1 − ρ for a
 * negative one): the roots of `(m_A² − c²a)ρ² − 2m_A·m_B·ρ + (m_B² − c²b) = 0`. Unbounded (nulls) when m_A² ≤ c²a.
 */
function fieller(control: Arm, arm: Arm, a: number, b: number, c: number): [number | null, number | null] {
  const lead = control.mean ** 2 - c * c * a;
  if (!(lead > 0)) return [null, null];
  const half = control.mean * arm.mean;
  const constant = arm.mean ** 2 - c * c * b;
  const root = Math.sqrt(Math.max(0, half * half - lead * constant));
  // The larger root first, then the other from their product: no cancellation between nearly equal numbers.
  const q = half + (half >= 0 ? root : -root);
  const [r1, r2] = q === 0 ? [0, 0] : [q / lead, constant / q];
  const [lo, hi] = r1 <= r2 ? [r1, r2] : [r2, r1];
  return control.mean > 0 ? [lo - 1, hi - 1] : [1 - hi, 1 - lo];
}

/** The critical value of the lift interval and the two-sided p of a statistic, for this kind, method and mode. */
function testOf(control: Arm, arm: Arm, a: number, b: number, s: Settings): { critical: number; p: (statistic: number) => number } {
  if (s.sequential) {
    const n = control.n + arm.n;
    const nr = n * s.rho2;
    return {
      critical: sequentialMultiplier(n, s),
      p: (z) => Math.min(1, Math.sqrt(nr + 1) * Math.exp((-nr * z * z) / (2 * (nr + 1)))),
    };
  }
  const normal = { critical: zCritical(s.alpha), p: (z: number) => 2 * normalCdf(-Math.abs(z), 0, 1) };
  if (s.kind === 'conversion' || s.method === 'bayesian') return normal;
  const df = welchDf(a, b, control.n, arm.n);
  if (!(df > 0)) return normal; // both spreads 0: only the degenerate branches use the test
  return { critical: tQuantile(1 - s.alpha / 2, df), p: (t) => 2 * tCdf(-Math.abs(t), df) };
}

/** Welch–Satterthwaite degrees of freedom of `a = s²_A/n_A`, `b = s²_B/n_B`. */
export function welchDf(a: number, b: number, nA: number, nB: number): number {
  return (a + b) ** 2 / (a ** 2 / (nA - 1) + b ** 2 / (nB - 1));
}

const zCritical = (alpha: number) => normalQuantile(1 - alpha / 2, 0, 1);

/** The always-valid critical value replacing z(1−α/2) at sample size n (GrowthBook's sequential testing). */
function sequentialMultiplier(n: number, s: Settings): number {
  const nr = n * s.rho2;
  return Math.sqrt(((2 * (nr + 1)) / nr) * Math.log(Math.sqrt(nr + 1) / s.alpha));
}

// ---------------------------------------------------------------------------------------------------------------
// Probability to be best (bayesian)

function probabilityToBeBest(arms: Arm[], kind: Kind): (number | null)[] {
  const included = arms.map((arm) => comparable(arm, kind));
  const posteriors = arms.filter((_, i) => included[i]).map((arm) => posteriorOf(arm, kind));
  if (posteriors.length < 2) return arms.map(() => null);
  const probabilities = bestOf(posteriors);
  let next = 0;
  return included.map((yes) => (yes ? probabilities[next++]! : null));
}

const posteriorOf = (arm: Arm, kind: Kind): Posterior =>
  kind === 'conversion' ? betaPosterior(arm.x, arm.n) : normalPosterior(arm.mean, Math.sqrt(arm.variance / arm.n));

// ---------------------------------------------------------------------------------------------------------------

function count(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${what} must be a whole number ≥ 0, got ${value}`);
  return value;
}
function finite(value: number, what: string): number {
  if (!Number.isFinite(value)) throw new RangeError(`${what} must be a finite number, got ${value}`);
  return value;
}
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
