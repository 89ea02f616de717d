import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleRatioMismatch } from '../src/experiments/stats';
import { startService, type TestService } from './helpers';

// Issue 14, "Must show": people are assigned by /flags, exposures and conversions at known rates are captured through
// /batch/, and GET .../experiments/:id/results/ reports the exact counts (exposure and attribution rules of
// /work/shared/reference/experiments.md §6), on SQLite and on PostgreSQL (TEST_DATABASE_URL).

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
/** The experiment starts at a UTC midnight 20 days ago; people are exposed on its third day. */
const START = Math.floor((Date.now() - 20 * DAY) / DAY) * DAY;
const EXPOSED_AT = START + 2 * DAY;
const PEOPLE = 600;
const FLAG = 'checkout-redesign';

type Event = { event: string; distinct_id: string; properties: Record<string, unknown>; timestamp: string };
const exposure = (distinctId: string, variant: unknown, at: number, flag = FLAG): Event => ({
  event: '$feature_flag_called',
  distinct_id: distinctId,
  properties: { $feature_flag: flag, $feature_flag_response: variant },
  timestamp: iso(at),
});
const purchase = (distinctId: string, at: number, plan: string, amount: number): Event => ({
  event: 'purchase',
  distinct_id: distinctId,
  properties: { plan, amount },
  timestamp: iso(at),
});
const pageView = (distinctId: string, at: number): Event => ({ event: 'page_view', distinct_id: distinctId, properties: {}, timestamp: iso(at) });

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers = s.headers) =>
  s.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
const results = (id: number, query = '', headers = s.headers, projectId = s.projectId) =>
  api('GET', `/api/projects/${projectId}/experiments/${id}/results/${query}`, undefined, headers);

async function capture(events: Event[]) {
  const res = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: s.token, batch: events } });
  expect(res.statusCode, res.body).toBe(200);
}
async function variantOf(distinctId: string): Promise<string> {
  const res = await s.app.inject({ method: 'POST', url: '/flags/?v=2', payload: { token: s.token, distinct_id: distinctId } });
  const flag = res.json().flags[FLAG] as { enabled: boolean; variant: string | null };
  expect(flag.enabled).toBe(true);
  return flag.variant!;
}

const METRICS = [
  { kind: 'conversion', event: 'purchase', properties: [{ key: 'plan', value: 'pro' }], window_days: 7, name: 'pro purchase within a week' },
  { kind: 'mean', event: 'purchase', property: 'amount', name: 'revenue per person' },
  { kind: 'mean', event: 'page_view', name: 'page views per person' },
];

/** What the results must say, per variant, counted here from what was sent. */
const expected = new Map<string, { exposures: number; conversions: number; revenue: number[]; views: number[] }>();
const expect1 = (variant: string) => {
  let e = expected.get(variant);
  if (!e) expected.set(variant, (e = { exposures: 0, conversions: 0, revenue: [], views: [] }));
  return e;
};
let experimentId: number;
let identifiedVariant: string;

describe('experiment results from /flags assignments and /batch/ events', () => {
  beforeAll(async () => {
    const res = await api('POST', `/api/projects/${s.projectId}/experiments/`, {
      name: 'Checkout redesign',
      feature_flag_key: FLAG,
      metrics: METRICS,
      start_date: iso(START),
      status: 'running',
    });
    expect(res.statusCode, res.body).toBe(201);
    experimentId = res.json().id;

    const events: Event[] = [];
    for (let i = 0; i < PEOPLE; i++) {
      const id = `user-${i}`;
      const variant = await variantOf(id);
      const t0 = EXPOSED_AT + i * 60_000;
      const e = expect1(variant);
      e.exposures++;
      // The first exposure counts; a later one of the same variant changes nothing.
      events.push(exposure(id, variant, t0), exposure(id, variant, t0 + 3 * HOUR));
      let revenue = 0;
      switch (i % 5) {
        case 0: // converts: a pro purchase an hour after exposure
          events.push(purchase(id, t0 + HOUR, 'pro', (i % 7) + 1));
          e.conversions++;
          revenue = (i % 7) + 1;
          break;
        case 1: // a free purchase after exposure: no conversion (properties), but revenue
          events.push(purchase(id, t0 + 2 * HOUR, 'free', 10));
          revenue = 10;
          break;
        case 2: // a pro purchase before exposure: counts nowhere
          events.push(purchase(id, t0 - HOUR, 'pro', 50));
          break;
        case 3: // a pro purchase 8 days after exposure: outside the 7-day window, still revenue
          events.push(purchase(id, t0 + 8 * DAY, 'pro', 3));
          revenue = 3;
          break;
      }
      e.revenue.push(revenue);
      // Page views: two after exposure for every third person, and one before (not counted).
      if (i % 3 === 0) events.push(pageView(id, t0 - 1000), pageView(id, t0 + 1000), pageView(id, t0 + DAY));
      e.views.push(i % 3 === 0 ? 2 : 0);
    }

    // Two people who saw both variants: excluded (and counted), their purchases nowhere.
    for (const id of ['switcher-a', 'switcher-b']) {
      events.push(exposure(id, 'control', EXPOSED_AT), exposure(id, 'test', EXPOSED_AT + HOUR), purchase(id, EXPOSED_AT + 2 * HOUR, 'pro', 99));
    }
    // Not exposures of this experiment: another flag, a response that is no variant, a time before the start.
    events.push(
      exposure('other-flag', 'test', EXPOSED_AT, 'another-flag'),
      exposure('flag-off', false, EXPOSED_AT),
      exposure('too-early', 'control', START - HOUR),
      purchase('other-flag', EXPOSED_AT + HOUR, 'pro', 7),
      purchase('too-early', EXPOSED_AT + HOUR, 'pro', 7),
      // NUL escapes in stored JSON (PostgreSQL's json refuses \u0000): read, never matched, never an error.
      exposure('nul-variant', 'te\u0000st', EXPOSED_AT),
      purchase('nul-plan', EXPOSED_AT + HOUR, 'pro\u0000', 1),
    );

    // One person under two distinct ids: exposed anonymously, identified, exposed again and converting under the
    // new id. One exposure (the first), one conversion.
    identifiedVariant = await variantOf('anon-1');
    const t = START + 3 * DAY;
    events.push(
      exposure('anon-1', identifiedVariant, t),
      { event: '$identify', distinct_id: 'customer-1', properties: { $anon_distinct_id: 'anon-1' }, timestamp: iso(t + 60_000) },
      exposure('customer-1', identifiedVariant, t + 120_000),
      purchase('customer-1', t + HOUR, 'pro', 20),
      purchase('customer-1', t + 2 * HOUR, 'pro', 5),
    );
    const e = expect1(identifiedVariant);
    e.exposures++;
    e.conversions++;
    e.revenue.push(25);
    e.views.push(0);

    await capture(events);
  });

  it('counts each person once at their first exposure, excludes people who saw several variants, and attributes only events after exposure within the window', async () => {
    const res = await results(experimentId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.experiment_id).toBe(experimentId);
    expect(body.method).toBe('bayesian');
    expect(body.sequential).toBe(false);
    expect(body.excluded_multiple_variants).toBe(2);
    expect(body.exposures_total).toBe(PEOPLE + 1);

    const keys = ['control', 'test'];
    expect(expected.get('control')!.exposures).toBeGreaterThan(200);
    expect(expected.get('test')!.exposures).toBeGreaterThan(200);
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const squares = (values: number[]) => values.reduce((a, b) => a + b * b, 0);

    const [conversion, revenue, views] = body.metrics;
    expect(conversion.metric).toEqual(METRICS[0]);
    expect([conversion.primary, revenue.primary, views.primary]).toEqual([true, false, false]);
    expect(conversion.variants.map((v: { key: string }) => v.key)).toEqual(keys);
    for (const [i, key] of keys.entries()) {
      const want = expected.get(key)!;
      expect(conversion.variants[i]).toMatchObject({ key, exposures: want.exposures, conversions: want.conversions });
      expect(conversion.variants[i].rate).toBeCloseTo(want.conversions / want.exposures, 12);
      expect(revenue.variants[i]).toMatchObject({ key, exposures: want.exposures, sum: sum(want.revenue) });
      expect(revenue.variants[i].mean).toBeCloseTo(sum(want.revenue) / want.exposures, 12);
      const n = want.exposures;
      expect(revenue.variants[i].variance).toBeCloseTo((squares(want.revenue) - sum(want.revenue) ** 2 / n) / (n - 1), 9);
      expect(views.variants[i]).toMatchObject({ key, exposures: want.exposures, sum: sum(want.views) });
      expect(views.variants[i].variance).toBeCloseTo((squares(want.views) - sum(want.views) ** 2 / n) / (n - 1), 9);
    }
    // The identified person's two purchases (20 + 5) are one person's value: 25.
    expect(expected.get(identifiedVariant)!.revenue).toContain(25);
  });

  it('reports the sample ratio mismatch test of the exposures against the planned split', async () => {
    const body = (await results(experimentId)).json();
    const exposures = ['control', 'test'].map((k) => expected.get(k)!.exposures);
    expect(body.srm_p_value).toBe(sampleRatioMismatch(exposures, [50, 50]));
    expect(body.srm_threshold).toBe(0.05);
    expect(body.srm_flagged).toBe(body.srm_p_value < 0.05);
  });

  it('fails the sample ratio check below p = 0.05: 60 people exposed to control and 40 to test of a 50/50 split (p = 0.0455)', async () => {
    const res = await api('POST', `/api/projects/${s.projectId}/experiments/`, {
      name: 'Uneven exposures',
      feature_flag_key: 'srm-check',
      metrics: METRICS.slice(0, 1),
      start_date: iso(START),
      status: 'running',
    });
    expect(res.statusCode, res.body).toBe(201);
    await capture(Array.from({ length: 100 }, (_, i) => exposure(`uneven-${i}`, i < 60 ? 'control' : 'test', EXPOSED_AT, 'srm-check')));
    const body = (await results(res.json().id)).json();
    expect(body.metrics[0].variants.map((v: { exposures: number }) => v.exposures)).toEqual([60, 40]);
    // χ² = (60 − 50)²/50 + (40 − 50)²/50 = 4 on one degree of freedom: p = erfc(√2) = 0.0455.
    expect(body.srm_p_value).toBeCloseTo(0.0455003, 6);
    expect(body).toMatchObject({ srm_threshold: 0.05, srm_flagged: true });
  });

  it('gives every metric bayesian statistics in range: intervals around the rate, chances to be best summing to 1, lift against control', async () => {
    const body = (await results(experimentId, '?method=bayesian')).json();
    for (const { metric, variants } of body.metrics) {
      let best = 0;
      for (const v of variants) {
        expect(v.credible_interval[0]).toBeLessThanOrEqual(v.rate);
        expect(v.credible_interval[1]).toBeGreaterThanOrEqual(v.rate);
        if (metric.kind === 'conversion') expect(v.credible_interval[0]).toBeGreaterThanOrEqual(0);
        if (metric.kind === 'conversion') expect(v.credible_interval[1]).toBeLessThanOrEqual(1);
        expect(v.probability_to_be_best).toBeGreaterThanOrEqual(0);
        expect(v.probability_to_be_best).toBeLessThanOrEqual(1);
        best += v.probability_to_be_best;
        expect(v.p_value).toBeNull();
      }
      expect(best).toBeCloseTo(1, 6);
      expect(variants[0].lift).toBeNull();
      const { estimate, interval } = variants[1].lift;
      expect(estimate).toBeCloseTo(variants[1].rate / variants[0].rate - 1, 9);
      expect(interval[0]).toBeLessThan(estimate);
      expect(interval[1]).toBeGreaterThan(estimate);
    }
  });

  it('gives frequentist p-values against control, and wider always-valid intervals in sequential mode', async () => {
    const fixed = (await results(experimentId, '?method=frequentist')).json();
    const sequential = (await results(experimentId, '?method=frequentist&sequential=true')).json();
    expect([fixed.method, fixed.sequential, sequential.sequential]).toEqual(['frequentist', false, true]);
    for (const [m, { variants }] of fixed.metrics.entries()) {
      expect(variants[0].p_value).toBeNull();
      expect(variants[1].p_value).toBeGreaterThanOrEqual(0);
      expect(variants[1].p_value).toBeLessThanOrEqual(1);
      expect(variants[1].probability_to_be_best).toBeNull();
      const always = sequential.metrics[m].variants[1];
      expect(always.conversions ?? always.sum).toBe(variants[1].conversions ?? variants[1].sum);
      expect(always.lift.interval[1] - always.lift.interval[0]).toBeGreaterThan(variants[1].lift.interval[1] - variants[1].lift.interval[0]);
    }
  });

  it('charts first exposures per UTC day and variant, every day of the experiment listed', async () => {
    const body = (await results(experimentId)).json();
    const { days, series } = body.exposures_by_day;
    expect(days[0]).toBe(iso(START).slice(0, 10));
    expect(days.at(-1)).toBe(new Date().toISOString().slice(0, 10));
    expect(days.length).toBe(21);
    expect(series.map((x: { key: string }) => x.key)).toEqual(['control', 'test']);
    for (const { key, counts } of series) {
      expect(counts.length).toBe(days.length);
      const regular = expected.get(key)!.exposures - (key === identifiedVariant ? 1 : 0);
      expect(counts[2]).toBe(regular);
      expect(counts[3]).toBe(key === identifiedVariant ? 1 : 0);
      expect(counts.reduce((a: number, b: number) => a + b, 0)).toBe(expected.get(key)!.exposures);
    }
  });
});

describe('GET .../experiments/:id/results/ access and input', () => {
  it('answers zeros for a draft, which has no exposures yet', async () => {
    const res = await api('POST', `/api/projects/${s.projectId}/experiments/`, { name: 'Draft', feature_flag_key: 'draft-flag', metrics: METRICS });
    expect(res.statusCode, res.body).toBe(201);
    const body = (await results(res.json().id)).json();
    expect(body).toMatchObject({ exposures_total: 0, excluded_multiple_variants: 0, srm_p_value: 1, srm_flagged: false, exposures_by_day: { days: [] } });
    expect(body.metrics[0].variants.map((v: { exposures: number; conversions: number }) => [v.exposures, v.conversions])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it("is 404 for another project's experiment and for an id that is not one", async () => {
    const other = await api('POST', '/api/projects/', { name: 'Other project' });
    expect(other.statusCode, other.body).toBe(201);
    expect((await results(experimentId, '', s.headers, other.json().id)).statusCode).toBe(404);
    expect((await results(999_999)).statusCode).toBe(404);
    const res = await api('GET', `/api/projects/${s.projectId}/experiments/abc/results/`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'not_found' });
  });

  it('needs the experiment:read scope', async () => {
    const key = await s.keyWith(['feature_flag:read']);
    const res = await results(experimentId, '', s.auth(key));
    expect(res.statusCode).toBe(403);
    expect((await results(experimentId, '', s.auth(await s.keyWith(['experiment:read'])))).statusCode).toBe(200);
  });

  it('refuses an unknown method or sequential value with a 400 naming the field', async () => {
    for (const [query, attr] of [
      ['?method=magic', 'method'],
      ['?sequential=maybe', 'sequential'],
    ]) {
      const res = await results(experimentId, query);
      expect(res.statusCode).toBe(400);
      expect(res.json().attr).toBe(attr);
    }
  });
});
