import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userWith } from './accounts-helpers';
import { startService, type TestService } from './helpers';

// Issue 14, points 1 and 5: experiments on multivariate flags (CRUD, the flag they make or link, status, bad input)
// and shipping a variant.

let s: TestService;
let base: string;
beforeAll(async () => {
  // The webhook worker stays idle: the outbox is read here, nothing is sent.
  s = await startService({ webhookPollMs: 3_600_000 });
  base = `/api/projects/${s.projectId}/experiments`;
});
afterAll(() => s.close());

let n = 0;
const unique = (prefix: string) => `${prefix}-${++n}-${Date.now()}`;

const CONVERSION = { kind: 'conversion', event: 'purchase' };
const SPLIT = [
  { key: 'control', rollout_percentage: 50 },
  { key: 'test', rollout_percentage: 30 },
  { key: 'test-2', rollout_percentage: 20 },
];

type Headers = Record<string, string>;
const create = (body: Record<string, unknown>, headers: Headers = s.headers, url = `${base}/`) => s.app.inject({ method: 'POST', url, headers, payload: body });
const patch = (id: number, body: Record<string, unknown>, headers: Headers = s.headers) =>
  s.app.inject({ method: 'PATCH', url: `${base}/${id}/`, headers, payload: body });
const get = (id: number, headers: Headers = s.headers) => s.app.inject({ url: `${base}/${id}/`, headers });
const ship = (id: number, variant: unknown, headers: Headers = s.headers) =>
  s.app.inject({ method: 'POST', url: `${base}/${id}/ship/`, headers, payload: { variant } });

async function created(body: Record<string, unknown> = {}) {
  const res = await create({ name: unique('Experiment'), feature_flag_key: unique('exp'), metrics: [CONVERSION], ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
async function flagById(id: number) {
  return (await s.app.inject({ url: `/api/projects/${s.projectId}/feature_flags/${id}/`, headers: s.headers })).json();
}
async function createFlag(body: Record<string, unknown>) {
  const res = await s.app.inject({ method: 'POST', url: `/api/projects/${s.projectId}/feature_flags/`, headers: s.headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
/** What /flags gives each of these distinct ids for the flag: its variant, or null when off. */
async function variantsFor(key: string, ids: string[]): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for (const id of ids) {
    const res = await s.app.inject({ method: 'POST', url: '/flags/?v=2', payload: { token: s.token, distinct_id: id } });
    const flag = res.json().flags[key] as { enabled: boolean; variant: string | null } | undefined;
    out.push(flag?.enabled ? flag.variant : null);
  }
  return out;
}
const people = (count: number, prefix = 'person') => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
const countOf = (values: (string | null)[]) => values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [String(v)]: (acc[String(v)] ?? 0) + 1 }), {});

describe('CRUD', () => {
  it('creates an experiment (201, every field), reads it, updates it, and deletes it (204, then 404)', async () => {
    const key = unique('checkout');
    const res = await create({
      name: 'Checkout button',
      description: 'Green or blue',
      feature_flag_key: key,
      variants: SPLIT,
      metrics: [CONVERSION, { kind: 'mean', event: 'purchase', property: 'amount', name: 'Revenue' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'created_at',
        'description',
        'end_date',
        'feature_flag',
        'feature_flag_key',
        'id',
        'metrics',
        'name',
        'start_date',
        'status',
        'updated_at',
        'variants',
      ].sort(),
    );
    expect(body).toMatchObject({
      name: 'Checkout button',
      description: 'Green or blue',
      feature_flag_key: key,
      variants: SPLIT,
      status: 'draft',
      start_date: null,
      end_date: null,
      // The conversion window defaults to 14 days and is stored.
      metrics: [
        { kind: 'conversion', event: 'purchase', window_days: 14 },
        { kind: 'mean', event: 'purchase', property: 'amount', name: 'Revenue' },
      ],
    });
    expect(body.feature_flag).toMatchObject({ key, active: false, deleted: false });
    expect((await get(body.id)).json()).toEqual(body);

    const renamed = await patch(body.id, { name: 'Checkout colour', description: '' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id: body.id, name: 'Checkout colour', description: '', status: 'draft' });

    expect((await s.app.inject({ method: 'DELETE', url: `${base}/${body.id}/`, headers: s.headers })).statusCode).toBe(204);
    expect((await get(body.id)).statusCode).toBe(404);
    // The flag stays.
    expect((await flagById(body.feature_flag.id)).deleted).toBe(false);
  });

  it('lists a project’s experiments oldest first in pages with count, next and previous', async () => {
    const other = await s.services.projects.create(unique('Paging'));
    const url = `/api/projects/${other.id}/experiments/`;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await create({ name: `E${i}`, feature_flag_key: unique('page') }, s.headers, url);
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    const first = (await s.app.inject({ url: `${url}?limit=2`, headers: s.headers })).json();
    expect(first.count).toBe(3);
    expect(first.results.map((e: { id: number }) => e.id)).toEqual(ids.slice(0, 2));
    expect(first.previous).toBeNull();
    expect(first.next).toContain('offset=2');
    const second = (await s.app.inject({ url: `${url}?limit=2&offset=2`, headers: s.headers })).json();
    expect(second.results.map((e: { id: number }) => e.id)).toEqual(ids.slice(2));
    expect(second.next).toBeNull();
    expect(second.previous).not.toBeNull();
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of ['999999', 'abc', '0', '99999999999']) {
      const res = await s.app.inject({ url: `${base}/${id}/`, headers: s.headers });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'not_found' });
    }
    expect((await patch(999_999, { name: 'x' })).statusCode).toBe(404);
    expect((await ship(999_999, 'control')).statusCode).toBe(404);
  });
});

describe('the flag of an experiment', () => {
  it('is made multivariate with the split and one condition at 100 %, off for everyone while draft', async () => {
    const experiment = await created({ variants: SPLIT });
    const flag = await flagById(experiment.feature_flag.id);
    expect(flag).toMatchObject({ key: experiment.feature_flag_key, active: false });
    expect(flag.filters.multivariate.variants).toEqual(SPLIT);
    expect(flag.filters.groups).toEqual([{ properties: [], rollout_percentage: 100, variant: null }]);
    expect(new Set(await variantsFor(experiment.feature_flag_key, people(50)))).toEqual(new Set([null]));
  });

  it('defaults to control and test at 50 % each', async () => {
    const experiment = await created();
    expect(experiment.variants).toEqual([
      { key: 'control', rollout_percentage: 50 },
      { key: 'test', rollout_percentage: 50 },
    ]);
  });

  it('gives 1,000 distinct ids variants in about the planned split once running', async () => {
    // A fixed key and fixed ids: the same assignment on every run (bucketing hashes both).
    const experiment = await created({ variants: SPLIT, feature_flag_key: 'split-check' });
    const started = await patch(experiment.id, { status: 'running' });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().feature_flag.active).toBe(true);
    const counts = countOf(await variantsFor(experiment.feature_flag_key, people(1000, 'split')));
    expect(counts.null).toBeUndefined();
    for (const { key, rollout_percentage } of SPLIT) expect(Math.abs(counts[key]! / 1000 - rollout_percentage / 100), key).toBeLessThan(0.05);
  });

  it("keeps a draft's new variants to itself until launch, then gives them to the flag", async () => {
    const experiment = await created();
    const next = [
      { key: 'control', rollout_percentage: 34 },
      { key: 'blue', rollout_percentage: 33 },
      { key: 'green', rollout_percentage: 33 },
    ];
    const res = await patch(experiment.id, { variants: next });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().variants).toEqual(next);
    expect((await flagById(experiment.feature_flag.id)).filters.multivariate.variants).toEqual(experiment.variants);
    const launched = await patch(experiment.id, { status: 'running' });
    expect(launched.statusCode, launched.body).toBe(200);
    expect(launched.json().feature_flag.filters.multivariate.variants).toEqual(next);
    expect((await flagById(experiment.feature_flag.id)).filters.multivariate.variants).toEqual(next);
  });

  it('leaves a live flag it links exactly as it is while draft: same answers, same version, no webhook or log entry', async () => {
    const hook = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/webhooks/`,
      headers: s.headers,
      payload: { url: 'https://hooks.example.com/draft', kinds: ['feature_flag.changed'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const key = unique('serving');
    const variants = [
      { key: 'control', rollout_percentage: 50 },
      { key: 'new-nav', rollout_percentage: 50 },
    ];
    const flag = await createFlag({ key, active: true, filters: { groups: [{ properties: [], rollout_percentage: 100 }], multivariate: { variants } } });
    const ids = people(40, unique('served'));
    const before = await variantsFor(key, ids);
    expect(before).not.toContain(null);

    const experiment = await created({ feature_flag_key: key });
    expect(experiment.feature_flag).toMatchObject({ id: flag.id, active: true });
    const used = { ...flag, used_by: [{ type: 'experiment', id: experiment.id, name: experiment.name, status: 'draft' }] };
    expect(await flagById(flag.id)).toEqual(used);
    expect(await variantsFor(key, ids)).toEqual(before);
    // A draft's own split stays its own: the flag keeps serving its split until launch.
    const split = [
      { key: 'control', rollout_percentage: 70 },
      { key: 'new-nav', rollout_percentage: 30 },
    ];
    expect((await patch(experiment.id, { variants: split, name: 'Renamed draft' })).statusCode).toBe(200);
    expect(await flagById(flag.id)).toEqual({ ...used, used_by: [{ ...used.used_by[0], name: 'Renamed draft' }] });
    const deliveries = await s.services.db.kysely.selectFrom('webhook_deliveries').select('payload').where('webhook_id', '=', hook.json().id).execute();
    const changes = deliveries.map((d) => JSON.parse(d.payload).data).filter((d) => d.feature_flag.id === flag.id);
    expect(changes.map((d) => d.change)).toEqual(['created']);
    const log = (await s.app.inject({ url: `/api/projects/${s.projectId}/activity_log/?scope=FeatureFlag&item_id=${flag.id}`, headers: s.headers })).json();
    expect(log.results.map((e: { activity: string }) => e.activity)).toEqual(['created']);
    // Its owners can still turn it off and on while the experiment is a draft.
    const url = `/api/projects/${s.projectId}/feature_flags/${flag.id}/`;
    for (const payload of [{ active: false }, { active: true }]) {
      expect((await s.app.inject({ method: 'PATCH', url, headers: s.headers, payload })).statusCode).toBe(200);
    }

    // Launching applies the experiment's split to the flag, in one change of the flag.
    const launched = await patch(experiment.id, { status: 'running' });
    expect(launched.statusCode, launched.body).toBe(200);
    const running = await flagById(flag.id);
    expect(running).toMatchObject({ active: true, version: flag.version + 3 });
    expect(running.filters.multivariate.variants).toEqual(split);
    expect(running.filters.groups).toEqual(flag.filters.groups);
  });

  it('leaves a linked flag that is off as it is while draft, and turns it on at launch', async () => {
    const key = unique('off');
    const variants = [
      { key: 'control', rollout_percentage: 60 },
      { key: 'treatment', rollout_percentage: 40 },
    ];
    const flag = await createFlag({
      key,
      active: false,
      filters: {
        groups: [{ properties: [], rollout_percentage: 100, variant: null }],
        multivariate: { variants },
        payloads: { treatment: '{"x": 1}' },
      },
    });
    const experiment = await created({ feature_flag_key: key });
    expect(experiment.feature_flag.id).toBe(flag.id);
    expect(experiment.variants).toEqual(variants);
    expect(await flagById(flag.id)).toMatchObject(flag);
    expect(new Set(await variantsFor(key, people(20)))).toEqual(new Set([null]));
    expect((await patch(experiment.id, { status: 'running' })).json().feature_flag.active).toBe(true);
    // Its conditions and payloads stay.
    expect((await flagById(flag.id)).filters.payloads).toEqual({ treatment: '{"x": 1}' });
    expect(new Set(await variantsFor(key, people(100)))).toEqual(new Set(['control', 'treatment']));
  });

  it('links an existing flag with its own variants, or with others given, which the flag takes only at launch', async () => {
    const key = unique('given');
    const flag = await createFlag({ key, active: true, filters: { groups: [], multivariate: { variants: [...SPLIT] } } });
    const own = await create({ name: 'Own', feature_flag_key: key });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json().variants).toEqual(SPLIT);
    expect((await s.app.inject({ method: 'DELETE', url: `${base}/${own.json().id}/`, headers: s.headers })).statusCode).toBe(204);
    const even = [
      { key: 'control', rollout_percentage: 50 },
      { key: 'test', rollout_percentage: 50 },
    ];
    const other = await create({ name: 'Even', feature_flag_key: key, variants: even, metrics: [CONVERSION] });
    expect(other.statusCode, other.body).toBe(201);
    expect(other.json().variants).toEqual(even);
    expect((await flagById(flag.id)).filters.multivariate.variants).toEqual(SPLIT);
    expect((await patch(other.json().id, { status: 'running' })).json().feature_flag.filters.multivariate.variants).toEqual(even);
  });

  it('launches at once on an existing flag when created running: its split and on, in one change', async () => {
    const key = unique('at-once');
    const flag = await createFlag({ key, active: false, filters: { groups: [], multivariate: { variants: [...SPLIT] } } });
    const even = [
      { key: 'control', rollout_percentage: 50 },
      { key: 'test', rollout_percentage: 50 },
    ];
    const res = await create({ name: 'At once', feature_flag_key: key, variants: even, metrics: [CONVERSION], status: 'running' });
    expect(res.statusCode, res.body).toBe(201);
    expect(await flagById(flag.id)).toMatchObject({ active: true, version: flag.version + 1, filters: { multivariate: { variants: even } } });
  });

  it('refuses a live flag that is not multivariate with a control variant, on feature_flag_key', async () => {
    const boolean = unique('boolean');
    await createFlag({ key: boolean, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
    const noControl = unique('no-control');
    await createFlag({
      key: noControl,
      filters: {
        groups: [],
        multivariate: {
          variants: [
            { key: 'a', rollout_percentage: 50 },
            { key: 'b', rollout_percentage: 50 },
          ],
        },
      },
    });
    for (const key of [boolean, noControl]) {
      const res = await create({ name: 'x', feature_flag_key: key });
      expect(res.statusCode, key).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation_error', attr: 'feature_flag_key' });
    }
  });

  it('keeps the flag of an open experiment: no delete or new key, and no new split while running (through the flags API)', async () => {
    const experiment = await created();
    const url = `/api/projects/${s.projectId}/feature_flags/${experiment.feature_flag.id}/`;
    const flag = await flagById(experiment.feature_flag.id);
    for (const [payload, attr] of [
      [{ deleted: true }, 'deleted'],
      [{ key: unique('renamed') }, 'key'],
    ] as const) {
      const res = await s.app.inject({ method: 'PATCH', url, headers: s.headers, payload });
      expect(res.statusCode, attr).toBe(400);
      expect(res.json().attr).toBe(attr);
    }
    expect((await patch(experiment.id, { status: 'running' })).statusCode).toBe(200);
    const newSplit = { filters: { ...flag.filters, multivariate: { variants: [{ key: 'control', rollout_percentage: 100 }] } } };
    const split = await s.app.inject({ method: 'PATCH', url, headers: s.headers, payload: newSplit });
    expect(split.statusCode).toBe(400);
    expect(split.json().attr).toBe('filters');
    // Its name and conditions can change.
    const renamed = await s.app.inject({ method: 'PATCH', url, headers: s.headers, payload: { name: 'Still the experiment' } });
    expect(renamed.statusCode).toBe(200);
  });
});

describe('bad input: 400 naming the field', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'variants that sum to 90',
      {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', rollout_percentage: 40 },
        ],
      },
      'variants',
    ],
    [
      'no control variant',
      {
        variants: [
          { key: 'a', rollout_percentage: 50 },
          { key: 'b', rollout_percentage: 50 },
        ],
      },
      'variants',
    ],
    ['a single variant', { variants: [{ key: 'control', rollout_percentage: 100 }] }, 'variants'],
    ['no variants', { variants: [] }, 'variants'],
    [
      'duplicate variant keys',
      {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'control', rollout_percentage: 50 },
        ],
      },
      'variants',
    ],
    [
      'an invalid variant key',
      {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'a b', rollout_percentage: 50 },
        ],
      },
      'variants',
    ],
    [
      'a variant at 0 %',
      {
        variants: [
          { key: 'control', rollout_percentage: 100 },
          { key: 'test', rollout_percentage: 0 },
          { key: 'b', rollout_percentage: 0 },
        ],
      },
      'variants',
    ],
    [
      'a variant over 100 %',
      {
        variants: [
          { key: 'control', rollout_percentage: 150 },
          { key: 'test', rollout_percentage: -50 },
        ],
      },
      'variants__0__rollout_percentage',
    ],
    ['a variant without a key', { variants: [{ rollout_percentage: 50 }, { key: 'control', rollout_percentage: 50 }] }, 'variants__0__key'],
    ['an unknown metric kind', { metrics: [{ kind: 'ratio', event: 'x' }] }, 'metrics__0__kind'],
    ['a metric without an event', { metrics: [{ kind: 'conversion', event: '' }] }, 'metrics__0__event'],
    ['a metric whose event is blanks', { metrics: [CONVERSION, { kind: 'mean', event: '   ' }] }, 'metrics__1__event'],
    ['a window of 0 days', { metrics: [{ ...CONVERSION, window_days: 0 }] }, 'metrics__0__window_days'],
    ['a window of 366 days', { metrics: [{ ...CONVERSION, window_days: 366 }] }, 'metrics__0__window_days'],
    ['a window of 1.5 days', { metrics: [{ ...CONVERSION, window_days: 1.5 }] }, 'metrics__0__window_days'],
    ['a window on a mean metric', { metrics: [{ kind: 'mean', event: 'x', window_days: 3 }] }, 'metrics__0__window_days'],
    ['a property on a conversion metric', { metrics: [{ ...CONVERSION, property: 'amount' }] }, 'metrics__0__property'],
    ['metrics that are not a list', { metrics: { kind: 'conversion' } }, 'metrics'],
    ['an end date before the start', { start_date: '2026-02-01T00:00:00Z', end_date: '2026-01-31T23:59:59Z' }, 'end_date'],
    ['a start date that is not a date', { start_date: 'yesterday' }, 'start_date'],
    ['an end date that is not a date', { end_date: '2026-13-01T00:00:00Z' }, 'end_date'],
    ['an invalid flag key', { feature_flag_key: 'no spaces please' }, 'feature_flag_key'],
    ['a blank flag key', { feature_flag_key: '' }, 'feature_flag_key'],
    ['an unknown status', { status: 'paused' }, 'status'],
    ['starting complete', { status: 'complete' }, 'status'],
    ['starting to run without a metric', { status: 'running', metrics: [] }, 'metrics'],
    ['a blank name', { name: '' }, 'name'],
  ];
  it.each(cases)('refuses %s', async (_what, body, attr) => {
    const res = await create({ name: 'Bad', feature_flag_key: unique('bad'), metrics: [CONVERSION], ...body });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', attr });
    expect(Object.keys(res.json()).sort()).toEqual(['attr', 'code', 'detail', 'type']);
  });

  it('refuses a missing name or flag key, naming it', async () => {
    for (const [body, attr] of [
      [{ feature_flag_key: unique('x') }, 'name'],
      [{ name: 'x' }, 'feature_flag_key'],
    ] as const) {
      const res = await create(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'required', attr });
    }
  });

  it('makes nothing when it refuses: no flag with the key is left behind', async () => {
    const key = unique('left-behind');
    expect((await create({ name: 'x', feature_flag_key: key, end_date: '2020-01-01T00:00:00Z', start_date: '2021-01-01T00:00:00Z' })).statusCode).toBe(400);
    expect((await create({ name: 'x', feature_flag_key: key, metrics: [{ kind: 'conversion', event: '' }] })).statusCode).toBe(400);
    const flags = (await s.app.inject({ url: `/api/projects/${s.projectId}/feature_flags/?search=${key}`, headers: s.headers })).json();
    expect(flags.count).toBe(0);
  });

  it('allows a metric on an event name that has no events', async () => {
    const experiment = await created({
      metrics: [{ kind: 'conversion', event: 'never-seen-event', window_days: 365, properties: [{ key: 'plan', value: 'pro' }] }],
    });
    expect(experiment.metrics).toEqual([{ kind: 'conversion', event: 'never-seen-event', properties: [{ key: 'plan', value: 'pro' }], window_days: 365 }]);
  });

  it('refuses a flag already in another experiment that is not complete (draft or running), on feature_flag_key', async () => {
    const draft = await created();
    const res = await create({ name: 'Second', feature_flag_key: draft.feature_flag_key });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', attr: 'feature_flag_key' });
    await patch(draft.id, { status: 'running' });
    expect((await create({ name: 'Third', feature_flag_key: draft.feature_flag_key })).json().attr).toBe('feature_flag_key');
    // Once complete, the flag can be used again (with its variants).
    expect((await patch(draft.id, { status: 'complete' })).statusCode).toBe(200);
    const again = await create({ name: 'Fourth', feature_flag_key: draft.feature_flag_key, metrics: [CONVERSION] });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().feature_flag.id).toBe(draft.feature_flag.id);
  });

  it('lets only one of two concurrent creates take a flag (the other: 400 on feature_flag_key)', async () => {
    const key = unique('race');
    await createFlag({ key, filters: { groups: [], multivariate: { variants: SPLIT } } });
    const results = await Promise.all([1, 2, 3].map((i) => create({ name: `Race ${i}`, feature_flag_key: key })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    for (const r of results.filter((r) => r.statusCode === 400)) expect(r.json().attr).toBe('feature_flag_key');
  });

  it('refuses the same rules on PATCH', async () => {
    const experiment = await created();
    const cases: [Record<string, unknown>, string][] = [
      [
        {
          variants: [
            { key: 'control', rollout_percentage: 60 },
            { key: 'test', rollout_percentage: 60 },
          ],
        },
        'variants',
      ],
      [
        {
          variants: [
            { key: 'a', rollout_percentage: 50 },
            { key: 'b', rollout_percentage: 50 },
          ],
        },
        'variants',
      ],
      [{ metrics: [{ kind: 'conversion', event: 'x', window_days: 400 }] }, 'metrics__0__window_days'],
      [{ start_date: '2026-03-01T00:00:00Z', end_date: '2026-02-01T00:00:00Z' }, 'end_date'],
      [{ status: 'paused' }, 'status'],
      [{ name: '' }, 'name'],
    ];
    for (const [body, attr] of cases) {
      const res = await patch(experiment.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().attr, JSON.stringify(body)).toBe(attr);
    }
    expect((await get(experiment.id)).json()).toEqual(experiment);
  });
});

describe('status', () => {
  it('moves draft → running (start date now) → complete (end date now), and never back or past a step', async () => {
    const experiment = await created();
    const complete = await patch(experiment.id, { status: 'complete' });
    expect(complete.statusCode).toBe(400);
    expect(complete.json()).toMatchObject({ attr: 'status', code: 'invalid_transition' });

    const before = Date.now();
    const running = (await patch(experiment.id, { status: 'running' })).json();
    expect(running.status).toBe('running');
    expect(Date.parse(running.start_date)).toBeGreaterThanOrEqual(before - 1000);
    expect(running.end_date).toBeNull();
    expect((await patch(experiment.id, { status: 'draft' })).json()).toMatchObject({ attr: 'status', code: 'invalid_transition' });

    const done = (await patch(experiment.id, { status: 'complete' })).json();
    expect(done.status).toBe('complete');
    expect(done.start_date).toBe(running.start_date);
    expect(Date.parse(done.end_date)).toBeGreaterThanOrEqual(Date.parse(running.start_date));
    // Completing leaves the flag as it runs.
    expect(done.feature_flag.active).toBe(true);
    for (const status of ['running', 'draft']) expect((await patch(experiment.id, { status })).json().attr).toBe('status');
    // The same status again is no change.
    expect((await patch(experiment.id, { status: 'complete' })).statusCode).toBe(200);
  });

  it('keeps given dates: running with a start date, complete with an end date', async () => {
    const experiment = await created({ start_date: '2026-01-05T10:00:00+02:00' });
    expect(experiment.start_date).toBe('2026-01-05T08:00:00.000Z');
    expect((await patch(experiment.id, { status: 'running' })).json().start_date).toBe('2026-01-05T08:00:00.000Z');
    const done = (await patch(experiment.id, { status: 'complete', end_date: '2026-01-20T00:00:00Z' })).json();
    expect(done).toMatchObject({ status: 'complete', end_date: '2026-01-20T00:00:00.000Z' });
  });

  it('may be created running (start date now, flag on)', async () => {
    const experiment = await created({ status: 'running' });
    expect(experiment.status).toBe('running');
    expect(experiment.start_date).not.toBeNull();
    expect(experiment.feature_flag.active).toBe(true);
  });

  it('refuses changing variants of a running experiment (409 on variants), and running without a metric', async () => {
    const experiment = await created({ status: 'running' });
    const res = await patch(experiment.id, {
      variants: [
        { key: 'control', rollout_percentage: 90 },
        { key: 'test', rollout_percentage: 10 },
      ],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'conflict', attr: 'variants' });
    // The same variants are no change.
    expect((await patch(experiment.id, { variants: experiment.variants })).statusCode).toBe(200);
    expect((await patch(experiment.id, { metrics: [] })).json().attr).toBe('metrics');
    const draft = await created({ metrics: [] });
    expect((await patch(draft.id, { status: 'running' })).json().attr).toBe('metrics');
    expect((await patch(draft.id, { status: 'running', metrics: [CONVERSION] })).json().status).toBe('running');
  });
});

describe('ship a variant', () => {
  it('rolls the variant out to everyone and completes the experiment, in the flag and the outbox', async () => {
    const hook = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/webhooks/`,
      headers: s.headers,
      payload: { url: 'https://hooks.example.com/receive', kinds: ['feature_flag.changed'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const experiment = await created({ variants: SPLIT, status: 'running' });
    const key = experiment.feature_flag_key;
    const before = Date.now();
    const res = await ship(experiment.id, 'test');
    expect(res.statusCode, res.body).toBe(200);
    const shipped = res.json();
    expect(shipped).toMatchObject({ status: 'complete', variants: SPLIT });
    expect(Date.parse(shipped.end_date)).toBeGreaterThanOrEqual(before - 1000);
    const flag = await flagById(experiment.feature_flag.id);
    expect(flag.active).toBe(true);
    expect(flag.filters.groups).toEqual([{ properties: [], rollout_percentage: 100, variant: null }]);
    expect(flag.filters.multivariate.variants).toEqual([
      { key: 'control', rollout_percentage: 0 },
      { key: 'test', rollout_percentage: 100 },
      { key: 'test-2', rollout_percentage: 0 },
    ]);
    expect(new Set(await variantsFor(key, people(300, unique('shipped'))))).toEqual(new Set(['test']));

    const deliveries = await s.services.db.kysely
      .selectFrom('webhook_deliveries')
      .select('payload')
      .where('webhook_id', '=', hook.json().id)
      .where('kind', '=', 'feature_flag.changed')
      .execute();
    const changed = deliveries.map((d) => JSON.parse(d.payload).data).filter((d) => d.feature_flag.id === flag.id);
    // Made (running: on), then shipped.
    expect(changed.map((d) => d.change)).toEqual(['created', 'updated']);
    expect(changed.at(-1).feature_flag).toMatchObject({ key, active: true, version: flag.version });
  });

  it('ships from a complete experiment too, keeping its end date', async () => {
    const experiment = await created({ status: 'running' });
    const done = (await patch(experiment.id, { status: 'complete', end_date: new Date(Date.now() + 1000).toISOString() })).json();
    const res = await ship(experiment.id, 'control');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'complete', end_date: done.end_date });
    expect(new Set(await variantsFor(experiment.feature_flag_key, people(50)))).toEqual(new Set(['control']));
  });

  it('refuses an unknown variant (400 on variant) and a draft (409 on status), changing nothing', async () => {
    const experiment = await created();
    const draft = await ship(experiment.id, 'test');
    expect(draft.statusCode).toBe(409);
    expect(draft.json()).toMatchObject({ code: 'conflict', attr: 'status' });
    await patch(experiment.id, { status: 'running' });
    for (const variant of ['nope', '', 5, null]) {
      const res = await ship(experiment.id, variant);
      expect(res.statusCode, String(variant)).toBe(400);
      expect(res.json().attr).toBe('variant');
    }
    const after = (await get(experiment.id)).json();
    expect(after.status).toBe('running');
    expect(after.feature_flag.filters.multivariate.variants).toEqual(experiment.variants);
  });
});

describe('activity log', () => {
  it("records creation, changes and shipping under scope Experiment with the actor, and the flag's changes under FeatureFlag", async () => {
    const experiment = await created();
    await patch(experiment.id, { name: 'Renamed', status: 'running' });
    await ship(experiment.id, 'test');
    const log = (
      await s.app.inject({ url: `/api/projects/${s.projectId}/activity_log/?scope=Experiment&item_id=${experiment.id}`, headers: s.headers })
    ).json();
    const entries = [...log.results].reverse() as {
      activity: string;
      actor: { type: string };
      detail: { name: string; changes: { field: string; after: unknown }[] };
    }[];
    expect(entries.map((e) => e.activity)).toEqual(['created', 'updated', 'updated']);
    expect(entries.every((e) => e.actor.type === 'personal_api_key')).toBe(true);
    expect(entries[1]!.detail.changes.map((c) => c.field)).toEqual(['name', 'start_date', 'status']);
    expect(entries[2]!.detail.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'status', after: 'complete' }),
        expect.objectContaining({ field: 'shipped_variant', after: 'test' }),
      ]),
    );
    const flagLog = (
      await s.app.inject({ url: `/api/projects/${s.projectId}/activity_log/?scope=FeatureFlag&item_id=${experiment.feature_flag.id}`, headers: s.headers })
    ).json();
    expect(flagLog.results.map((e: { activity: string }) => e.activity)).toEqual(['updated', 'updated', 'created']);

    expect((await s.app.inject({ method: 'DELETE', url: `${base}/${experiment.id}/`, headers: s.headers })).statusCode).toBe(204);
    const deleted = (
      await s.app.inject({ url: `/api/projects/${s.projectId}/activity_log/?scope=Experiment&item_id=${experiment.id}`, headers: s.headers })
    ).json();
    expect(deleted.results[0]).toMatchObject({ activity: 'deleted', detail: { name: 'Renamed', changes: null } });
  });
});

describe('scopes and projects', () => {
  it('needs experiment:read to read and experiment:write to change or ship (keys)', async () => {
    const experiment = await created({ status: 'running' });
    const reader = s.auth(await s.keyWith(['experiment:read']));
    const flagsOnly = s.auth(await s.keyWith(['feature_flag:write']));
    expect((await get(experiment.id, reader)).statusCode).toBe(200);
    expect((await s.app.inject({ url: `${base}/`, headers: reader })).statusCode).toBe(200);
    for (const res of [
      await create({ name: 'x', feature_flag_key: unique('k') }, reader),
      await patch(experiment.id, { name: 'x' }, reader),
      await ship(experiment.id, 'test', reader),
      await s.app.inject({ method: 'DELETE', url: `${base}/${experiment.id}/`, headers: reader }),
      await get(experiment.id, flagsOnly),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().type).toBe('authentication_error');
    }
    const writer = s.auth(await s.keyWith(['experiment:write']));
    expect((await create({ name: 'x', feature_flag_key: unique('k') }, writer)).statusCode).toBe(201);
  });

  it('lets a viewer session read but not write, and a member write (role scopes)', async () => {
    const experiment = await created();
    const viewer = await userWith(s, 'viewer');
    expect((await get(experiment.id, viewer.read)).statusCode).toBe(200);
    expect((await create({ name: 'x', feature_flag_key: unique('v') }, viewer.write)).statusCode).toBe(403);
    expect((await patch(experiment.id, { status: 'running' }, viewer.write)).statusCode).toBe(403);
    const member = await userWith(s, 'member');
    const res = await create({ name: 'By a member', feature_flag_key: unique('m') }, member.write);
    expect(res.statusCode, res.body).toBe(201);
    const log = (
      await s.app.inject({ url: `/api/projects/${s.projectId}/activity_log/?scope=Experiment&item_id=${res.json().id}`, headers: s.headers })
    ).json();
    expect(log.results[0].actor).toMatchObject({ type: 'user', user_id: member.id });
  });

  it("keeps projects apart: another project's experiment is not found, a key of another project is refused", async () => {
    const experiment = await created();
    const other = await s.services.projects.create(unique('Other'));
    const otherBase = `/api/projects/${other.id}/experiments`;
    expect((await s.app.inject({ url: `${otherBase}/${experiment.id}/`, headers: s.headers })).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'PATCH', url: `${otherBase}/${experiment.id}/`, headers: s.headers, payload: { name: 'x' } })).statusCode).toBe(404);
    expect(
      (await s.app.inject({ method: 'POST', url: `${otherBase}/${experiment.id}/ship/`, headers: s.headers, payload: { variant: 'test' } })).statusCode,
    ).toBe(404);
    expect((await s.app.inject({ url: `${otherBase}/`, headers: s.headers })).json().count).toBe(0);
    // The same flag key in another project makes that project's own flag.
    const mirrored = await create({ name: 'Mirror', feature_flag_key: experiment.feature_flag_key }, s.headers, `${otherBase}/`);
    expect(mirrored.statusCode, mirrored.body).toBe(201);
    expect(mirrored.json().feature_flag.id).not.toBe(experiment.feature_flag.id);
    const foreign = s.auth(await s.keyWith(['experiment:write'], [other.id]));
    expect((await get(experiment.id, foreign)).statusCode).toBe(403);
  });
});
