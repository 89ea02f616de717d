/**
 * The bayesian side of experiment results (stats.ts): each arm's posterior, the probability that each arm is best, and
 * the distribution of a variant's lift against control under the same posteriors, so that a variant's credible
 * interval of the lift and its chance to be best always tell the same story (with two arms, the interval lies above 0
 * exactly when the chance to beat control is above 1 − α/2). Deterministic numerical integration: same input, same
 * output.
 *
 * Lift `L = (B − A)/|A|` (A control, B the variant; for rates, B/A − 1). Its distribution function:
 * `P(L ≤ l) = P(B ≤ A + l·|A|)`, integrated over the arm with the narrower posterior (whose density then sets the
 * step of the integration, the other arm's distribution function varying more slowly):
 * - over A: `∫ f_A(a) F_B(a + l·|a|) da`;
 * - over B: `∫ f_B(b) P(A + l·|A| ≥ b) db`, the inner probability from A's distribution function in closed form.
 * A point mass (a mean arm whose people all have the same value) is integrated over as one point. Its quantiles are
 * found by bracketing and the Illinois variant of regula falsi. A quantile beyond ±10⁹ (a control whose posterior
 * reaches 0, where the ratio has no bound) is reported as null: unbounded.
 */
import betaCdf from '@stdlib/stats-base-dists-beta-cdf';
import betaPdf from '@stdlib/stats-base-dists-beta-pdf';
import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalPdf from '@stdlib/stats-base-dists-normal-pdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';

/** A posterior on [lo, hi] (all but 2·10⁻¹² of its mass), or a point mass at `at`. */
export type Posterior = Continuous | { at: number };
interface Continuous {
  pdf: (x: number) => number;
  cdf: (x: number) => number;
  quantile: (p: number) => number;
  lo: number;
  hi: number;
  sd: number;
  normal?: { mean: number; sd: number };
}

const TAIL = 1e-12;
/** Simpson intervals per segment of an integration (even). */
const INTERVALS = 200;
/** Simpson intervals per segment of the lift's distribution function, evaluated many times while its quantiles are sought. */
const LIFT_INTERVALS = 32;
/** Where the lift's integration splits a posterior's range. */
const SEGMENT_QUANTILES = [1e-6, 0.01, 0.5, 0.99, 1 - 1e-6];
/** A lift quantile beyond this is unbounded. */
const UNBOUNDED = 1e9;

/** Beta(1 + x, 1 + n − x): a conversion rate's posterior under a uniform prior. */
export function betaPosterior(x: number, n: number): Posterior {
  const a = 1 + x;
  const b = 1 + n - x;
  return {
    pdf: (v) => betaPdf(v, a, b),
    cdf: (v) => betaCdf(v, a, b),
    quantile: (p) => betaQuantile(p, a, b),
    lo: betaQuantile(TAIL, a, b),
    hi: betaQuantile(1 - TAIL, a, b),
    sd: Math.sqrt((a * b) / ((a + b) ** 2 * (a + b + 1))),
  };
}

/** N(mean, sd²): a mean's posterior under a flat prior; a point mass without spread. */
export function normalPosterior(mean: number, sd: number): Posterior {
  if (!(sd > 0) || !Number.isFinite(sd)) return { at: mean };
  const reach = -normalQuantile(TAIL, 0, 1) * sd;
  return {
    pdf: (x) => normalPdf(x, mean, sd),
    cdf: (x) => normalCdf(x, mean, sd),
    quantile: (p) => normalQuantile(p, mean, sd),
    lo: mean - reach,
    hi: mean + reach,
    sd,
    normal: { mean, sd },
  };
}

/** P(each posterior is the largest), summing to 1. */
export function bestOf(posteriors: Posterior[]): number[] {
  const points = posteriors.flatMap((p) => ('at' in p ? [p.at] : []));
  const highestPoint = points.length > 0 ? Math.max(...points) : -Infinity;
  const raw = posteriors.map((posterior, i) => {
    const others = posteriors.filter((_, j) => j !== i);
    const continuous = others.flatMap((p) => ('at' in p ? [] : [p]));
    if ('at' in posterior) {
      // A point mass wins when every continuous arm falls below it and no point mass lies above; ties share.
      if (posterior.at < highestPoint) return 0;
      const ties = points.filter((at) => at === posterior.at).length;
      return continuous.reduce((product, p) => product * p.cdf(posterior.at), 1) / ties;
    }
    const [other] = continuous;
    if (posteriors.length === 2 && posterior.normal && other?.normal) {
      return normalCdf((posterior.normal.mean - other.normal.mean) / Math.hypot(posterior.normal.sd, other.normal.sd), 0, 1);
    }
    const from = Math.max(posterior.lo, highestPoint);
    if (from >= posterior.hi) return 0;
    const breaks = [from, posterior.hi, ...continuous.flatMap((p) => [p.lo, p.hi])].filter((x) => x >= from && x <= posterior.hi);
    const sorted = [...new Set(breaks)].sort((x, y) => x - y);
    let total = 0;
    for (let k = 1; k < sorted.length; k++) {
      total += simpson((x) => posterior.pdf(x) * continuous.reduce((product, p) => product * p.cdf(x), 1), sorted[k - 1]!, sorted[k]!, INTERVALS);
    }
    return total;
  });
  const sum = raw.reduce((a, b) => a + b, 0);
  return sum > 0 ? raw.map((p) => Math.min(1, Math.max(0, p / sum))) : raw.map(() => 1 / raw.length);
}

/**
 * Quantiles of the lift of `arm` against `control` (whose posterior must not be a point mass at 0), at each of
 * `probabilities`; null for one beyond ±10⁹. The search starts from a normal approximation: the observed lift
 * `estimate` and about its spread, `scale`.
 */
export function liftQuantiles(control: Posterior, arm: Posterior, probabilities: number[], estimate: number, scale: number): (number | null)[] {
  if ('at' in control) {
    const a = control.at;
    // P(L ≤ l) = F_B(a + l·|a|): B's quantiles, moved and scaled.
    return probabilities.map((p) => bounded(('at' in arm ? arm.at - a : arm.quantile(p) - a) / Math.abs(a)));
  }
  const cdf = liftCdf(control, arm, estimate);
  const spread = scale > 0 && Number.isFinite(scale) ? scale : 0.1;
  return probabilities.map((p) => quantileOf(cdf, p, estimate + normalQuantile(p, 0, 1) * spread, spread / 4));
}

/** P(L ≤ l) as a function of l near `guess`, for a continuous control. */
function liftCdf(control: Continuous, arm: Posterior, guess: number): (l: number) => number {
  const below0 = control.cdf(0);
  if ('at' in arm) return (l) => atLeast(control, below0, l, arm.at);
  // Near the guess B moves with A·(1 + l): A's spread at that scale is what its density is compared with.
  if (control.sd * (1 + Math.abs(guess)) <= arm.sd) {
    const { x, w } = rule(control);
    return (l) => {
      let total = 0;
      for (let i = 0; i < x.length; i++) total += w[i]! * arm.cdf(x[i]! + l * Math.abs(x[i]!));
      return total;
    };
  }
  const { x, w } = rule(arm);
  return (l) => {
    let total = 0;
    for (let i = 0; i < x.length; i++) total += w[i]! * atLeast(control, below0, l, x[i]!);
    return total;
  };
}

/** P(A + l·|A| ≥ b), given P(A < 0): on A ≥ 0 the condition is (1 + l)·A ≥ b, on A < 0 it is (1 − l)·A ≥ b. */
function atLeast(a: Continuous, below0: number, l: number, b: number): number {
  let p = 0;
  const up = 1 + l;
  if (up > 0) p += 1 - a.cdf(Math.max(0, b / up));
  else if (up === 0) p += b <= 0 ? 1 - below0 : 0;
  else if (b / up >= 0) p += a.cdf(b / up) - below0;
  const down = 1 - l;
  if (down > 0) p += b / down < 0 ? below0 - a.cdf(b / down) : 0;
  else if (down === 0) p += b <= 0 ? below0 : 0;
  else p += a.cdf(Math.min(0, b / down));
  return Math.min(1, Math.max(0, p));
}

/**
 * Simpson's nodes and weights (times the density) over a posterior's range, in segments between some of its quantiles
 * (so that the step follows the density, steep at a bound as for Beta(201, 1)) and at 0 (where |x| bends).
 */
function rule(posterior: Continuous): { x: number[]; w: number[] } {
  const inside = [0, ...SEGMENT_QUANTILES.map((p) => posterior.quantile(p))].filter((b) => b > posterior.lo && b < posterior.hi);
  const breaks = [...new Set([posterior.lo, ...inside, posterior.hi])].sort((a, b) => a - b);
  const x: number[] = [];
  const w: number[] = [];
  for (let k = 1; k < breaks.length; k++) {
    const from = breaks[k - 1]!;
    const h = (breaks[k]! - from) / LIFT_INTERVALS;
    for (let j = 0; j <= LIFT_INTERVALS; j++) {
      const at = from + j * h;
      x.push(at);
      w.push(((j === 0 || j === LIFT_INTERVALS ? 1 : j % 2 === 1 ? 4 : 2) * h * posterior.pdf(at)) / 3);
    }
  }
  return { x, w };
}

/** The l where a non-decreasing `cdf` reaches p: a bracket grown from the guess by `scale`, then Illinois steps; null past ±10⁹. */
function quantileOf(cdf: (l: number) => number, p: number, guess: number, scale: number): number | null {
  let step = scale;
  let lo = guess - step;
  let hi = guess + step;
  let fLo = cdf(lo) - p;
  while (fLo > 0) {
    if (lo < -UNBOUNDED) return null;
    hi = lo;
    step *= 2;
    lo -= step;
    fLo = cdf(lo) - p;
  }
  step = scale;
  let fHi = cdf(hi) - p;
  while (fHi < 0) {
    if (hi > UNBOUNDED) return null;
    lo = hi;
    fLo = fHi;
    step *= 2;
    hi += step;
    fHi = cdf(hi) - p;
  }
  // Illinois: regula falsi that halves the value kept at an end twice in a row, so both ends keep moving.
  let side = 0;
  for (let i = 0; i < 200 && hi - lo > 1e-10 * Math.max(1, Math.abs(lo)); i++) {
    const mid = fHi === fLo ? (lo + hi) / 2 : (lo * fHi - hi * fLo) / (fHi - fLo);
    const at = mid > lo && mid < hi ? mid : (lo + hi) / 2;
    const f = cdf(at) - p;
    // Closer than the integration itself is accurate: done.
    if (Math.abs(f) < 1e-12) return bounded(at);
    if (f < 0) {
      lo = at;
      fLo = f;
      if (side === -1) fHi /= 2;
      side = -1;
    } else {
      hi = at;
      fHi = f;
      if (side === 1) fLo /= 2;
      side = 1;
    }
  }
  return bounded((lo + hi) / 2);
}

const bounded = (l: number) => (Number.isFinite(l) && Math.abs(l) <= UNBOUNDED ? l : null);

function simpson(f: (x: number) => number, a: number, b: number, intervals: number): number {
  const h = (b - a) / intervals;
  let sum = f(a) + f(b);
  for (let k = 1; k < intervals; k++) sum += (k % 2 === 1 ? 4 : 2) * f(a + k * h);
  return (sum * h) / 3;
}
