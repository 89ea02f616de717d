// Early access stages end to end: opt-ins through /batch/ as posthog-js sends them, the flag through /flags,
// group enrollment, the served (folded) definitions and posthog-node's local evaluation of them, and migration 0003.
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileFlags, type FlagDefinition } from '@service/flag-engine';
import { openDatabase, sqliteFile } from '../src/db/database';
import { initial } from '../src/db/migrations/0001-initial';
import { personsAndEvents } from '../src/db/migrations/0002-persons-events';
import { dialect, startService, testStorage, type TestService } from './helpers';

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

const short = () => randomUUID().slice(0, 8);

async function capture(events: Record<string, unknown>[]) {
  const res = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: s.token, batch: events } });
  expect(res.statusCode, res.body).toBe(200);
}

/** The event posthog-js's `updateEarlyAccessFeatureEnrollment` sends. */
const enrollmentEvent = (distinctId: string, flagKey: string, enrolled: boolean) => ({
  event: '$feature_enrollment_update',
  distinct_id: distinctId,
  properties: { $feature_flag: flagKey, $feature_enrollment: enrolled, $set: { [`$feature_enrollment/${flagKey}`]: enrolled } },
});

/** `featureFlags[key]` from /flags for a person (and groups). */
async function flagValue(key: string, distinctId: string, groups?: Record<string, string>) {
  const res = await s.app.inject({ method: 'POST', url: '/flags/?v=2', payload: { token: s.token, distinct_id: distinctId, ...(groups ? { groups } : {}) } });
  expect(res.statusCode).toBe(200);
  return res.json().featureFlags[key] as boolean | string;
}

async function createFeature(body: Record<string, unknown>) {
  const res = await s.app.inject({ method: 'POST', url: `/api/projects/${s.projectId}/early_access_feature/`, headers: s.headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; feature_flag: { id: number; key: string; filters: Record<string, unknown> } };
}

const setStage = async (id: string, stage: string) => {
  const res = await s.app.inject({ method: 'PATCH', url: `/api/projects/${s.projectId}/early_access_feature/${id}/`, headers: s.headers, payload: { stage } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const flagApi = (id: number, method: 'GET' | 'PATCH' = 'GET', payload?: Record<string, unknown>) =>
  s.app.inject({ method, url: `/api/projects/${s.projectId}/feature_flags/${id}/`, headers: s.headers, ...(payload ? { payload } : {}) });

describe('concept is a waitlist', () => {
  it('registers opt-ins in concept without turning the flag on; beta turns it on for every registered person at once; concept, draft and archived turn it off', async () => {
    const feature = await createFeature({ name: `Waitlist ${short()}`, stage: 'concept' });
    const key = feature.feature_flag.key;
    expect(feature.feature_flag.filters.super_groups ?? null).toBeNull();
    const registered = ['w-1', 'w-2', 'w-3'].map((id) => `${id}-${key}`);
    const optedOut = `w-out-${key}`;
    const bystander = `w-none-${key}`;
    await capture([...registered.map((id) => enrollmentEvent(id, key, true)), enrollmentEvent(optedOut, key, false)]);
    await capture([{ event: '$pageview', distinct_id: bystander, properties: {} }]);

    const everyone = [...registered, optedOut, bystander];
    const values = async () => Promise.all(everyone.map((id) => flagValue(key, id)));
    expect(await values()).toEqual([false, false, false, false, false]);

    await setStage(feature.id, 'beta');
    expect(await values()).toEqual([true, true, true, false, false]);

    await setStage(feature.id, 'concept');
    expect(await values()).toEqual([false, false, false, false, false]);

    for (const [stage, on] of [
      ['general-availability', true],
      ['draft', false],
      ['alpha', true],
      ['archived', false],
      ['beta', true],
    ] as const) {
      await setStage(feature.id, stage);
      expect(await values(), stage).toEqual([on, on, on, false, false]);
    }
  });

  it('lists concept features publicly, and an opt-in there counts once the feature is released', async () => {
    const feature = await createFeature({ name: `Listed ${short()}`, stage: 'concept' });
    const listed = (await s.app.inject({ url: `/api/early_access_features/?token=${s.token}&stage=concept` })).json().earlyAccessFeatures;
    expect(listed.map((f: { flagKey: string }) => f.flagKey)).toContain(feature.feature_flag.key);
    await capture([enrollmentEvent('late-adopter', feature.feature_flag.key, true)]);
    expect(await flagValue(feature.feature_flag.key, 'late-adopter')).toBe(false);
    await setStage(feature.id, 'alpha');
    expect(await flagValue(feature.feature_flag.key, 'late-adopter')).toBe(true);
  });
});

describe('early access for groups', () => {
  let groupFlag: { id: number; key: string };
  let feature: { id: string };
  const enrollment = (key: string) => [
    {
      properties: [{ key: `$feature_enrollment/${key}`, type: 'group', group_type_index: 0, operator: 'exact', value: ['true'] }],
      rollout_percentage: 100,
      aggregation_group_type_index: 0,
    },
  ];

  beforeAll(async () => {
    // The first group type ingested gets index 0.
    await capture([
      { event: '$groupidentify', distinct_id: '$company_acme', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme' } } },
    ]);
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/feature_flags/`,
      headers: s.headers,
      payload: { key: `company-beta-${short()}`, filters: { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 0 }] } },
    });
    expect(res.statusCode, res.body).toBe(201);
    groupFlag = res.json();
    feature = await createFeature({ name: `Company beta ${short()}`, stage: 'concept', feature_flag_id: groupFlag.id });
  });

  it('turns the flag on for every member of an enrolled group, once released; not for other groups or requests without a group', async () => {
    const key = groupFlag.key;
    await capture([
      {
        event: '$groupidentify',
        distinct_id: '$company_acme',
        properties: { $group_type: 'company', $group_key: 'acme', $group_set: { [`$feature_enrollment/${key}`]: true } },
      },
      {
        event: '$groupidentify',
        distinct_id: '$company_initech',
        properties: { $group_type: 'company', $group_key: 'initech', $group_set: { [`$feature_enrollment/${key}`]: false } },
      },
      { event: '$groupidentify', distinct_id: '$company_globex', properties: { $group_type: 'company', $group_key: 'globex', $group_set: { name: 'Globex' } } },
      // A person's own enrollment property does not enroll them in a group flag.
      enrollmentEvent('acme-outsider', key, true),
    ]);
    const values = async () => [
      await flagValue(key, 'alice', { company: 'acme' }),
      await flagValue(key, 'bob', { company: 'acme' }),
      await flagValue(key, 'alice', { company: 'globex' }),
      await flagValue(key, 'carol', { company: 'initech' }),
      await flagValue(key, 'alice'),
      await flagValue(key, 'acme-outsider'),
      await flagValue(key, 'acme-outsider', { company: 'globex' }),
    ];
    expect(await values()).toEqual([false, false, false, false, false, false, false]);

    const released = await setStage(feature.id, 'beta');
    expect(released.feature_flag.filters.super_groups).toEqual(enrollment(key));
    expect((await flagApi(groupFlag.id)).json().filters.super_groups).toEqual(enrollment(key));
    expect(await values()).toEqual([true, true, false, false, false, false, false]);

    const back = await setStage(feature.id, 'concept');
    expect(back.feature_flag.filters.super_groups).toBeNull();
    expect(await values()).toEqual([false, false, false, false, false, false, false]);
    await setStage(feature.id, 'beta');
  });

  it('sets the group condition when a feature is created in a release stage linked to a group flag', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/feature_flags/`,
      headers: s.headers,
      payload: { key: `company-ga-${short()}`, filters: { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 0 }] } },
    });
    const other = res.json();
    const created = await createFeature({ name: `Company GA ${short()}`, stage: 'general-availability', feature_flag_id: other.id });
    expect(created.feature_flag.filters.super_groups).toEqual(enrollment(other.key));
  });

  it('refuses changing the aggregation of a linked flag in either direction, and keeps it otherwise editable', async () => {
    const toPerson = await flagApi(groupFlag.id, 'PATCH', { filters: { groups: [{ properties: [], rollout_percentage: 0 }] } });
    expect(toPerson.statusCode).toBe(400);
    expect(toPerson.json()).toMatchObject({
      type: 'validation_error',
      detail: 'Cannot change this flag to a person-based when linked to an Early Access Feature: its enrollments are recorded on groups.',
    });
    const toOtherGroup = await flagApi(groupFlag.id, 'PATCH', { filters: { aggregation_group_type_index: 1, groups: [] } });
    expect(toOtherGroup.statusCode).toBe(400);
    expect(toOtherGroup.json().detail).toMatch(/^Cannot change the group type of this flag when linked to an Early Access Feature/);
    const personFeature = await createFeature({ name: `Person ${short()}`, stage: 'beta' });
    const toGroup = await flagApi(personFeature.feature_flag.id, 'PATCH', { filters: { aggregation_group_type_index: 0, groups: [] } });
    expect(toGroup.statusCode).toBe(400);
    expect(toGroup.json().detail).toBe('Cannot change this flag to a group-based when linked to an Early Access Feature.');
    const same = await flagApi(groupFlag.id, 'PATCH', { filters: { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 5 }] } });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().filters.super_groups).toEqual(enrollment(groupFlag.key));
  });

  it('still refuses linking a multivariate group flag', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/feature_flags/`,
      headers: s.headers,
      payload: {
        key: `company-mv-${short()}`,
        filters: {
          aggregation_group_type_index: 0,
          groups: [{ properties: [] }],
          multivariate: {
            variants: [
              { key: 'a', rollout_percentage: 50 },
              { key: 'b', rollout_percentage: 50 },
            ],
          },
        },
      },
    });
    const link = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/early_access_feature/`,
      headers: s.headers,
      payload: { name: `MV ${short()}`, stage: 'beta', feature_flag_id: res.json().id },
    });
    expect(link.statusCode).toBe(400);
    expect(link.json().detail).toBe('Multivariate feature flags are not supported for Early Access Features.');
  });
});

describe('definitions for local evaluation', () => {
  let personKey: string;
  let groupKey: string;
  let url: string;

  beforeAll(async () => {
    const person = await createFeature({ name: `Local person ${short()}`, stage: 'beta' });
    personKey = person.feature_flag.key;
    await capture([enrollmentEvent('stored-in', personKey, true), enrollmentEvent('stored-out', personKey, false)]);
    await capture([{ event: '$groupidentify', distinct_id: '$company_acme', properties: { $group_type: 'company', $group_key: 'acme' } }]);
    const flag = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/feature_flags/`,
      headers: s.headers,
      payload: { key: `local-group-${short()}`, filters: { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 0 }] } },
    });
    groupKey = flag.json().key;
    await createFeature({ name: `Local group ${short()}`, stage: 'beta', feature_flag_id: flag.json().id });
    url = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });

  /** Person contexts: enrolled, opted out, not given; group contexts: the same on the group, and no group. */
  const personContexts = () =>
    [true, false, 'true', 'false', undefined].flatMap((on) =>
      ['u-1', 'u-2', 'u-3'].map((distinctId) => ({ distinctId, personProperties: on === undefined ? {} : { [`$feature_enrollment/${personKey}`]: on } })),
    );
  const groupContexts = () => [
    ...[true, false, undefined].map((on) => ({
      distinctId: 'g-1',
      groups: { company: 'acme' },
      groupProperties: { company: on === undefined ? {} : { [`$feature_enrollment/${groupKey}`]: on } },
    })),
    { distinctId: 'g-2', groups: {}, groupProperties: {} },
  ];

  it('serves enrollment folded into groups, without super_groups, on both paths; the service evaluates the stored filters', async () => {
    for (const path of ['/flags/definitions', '/api/feature_flag/local_evaluation']) {
      const body = (await s.app.inject({ url: `${path}?token=${s.token}`, headers: s.headers })).json();
      const served = body.flags.find((f: FlagDefinition) => f.key === personKey);
      expect(served.filters).not.toHaveProperty('super_groups');
      expect(served.filters.groups).toEqual([
        {
          properties: [{ key: `$feature_enrollment/${personKey}`, type: 'person', operator: 'exact', value: ['true'] }],
          rollout_percentage: 100,
          variant: null,
        },
        {
          properties: [{ key: `$feature_enrollment/${personKey}`, type: 'person', operator: 'is_not', value: ['true', 'false'] }],
          rollout_percentage: 0,
          variant: null,
        },
      ]);
    }
    expect((await flagApi((await createFeature({ name: `Stored ${short()}`, stage: 'beta' })).feature_flag.id)).json().filters.super_groups).toHaveLength(1);
  });

  it('gives the same local answers from the folded definitions as from the stored filters (our engine, as service-node uses it)', async () => {
    const body = (await s.app.inject({ url: `/flags/definitions?token=${s.token}`, headers: s.headers })).json();
    const stored = (await s.app.inject({ url: `/api/projects/${s.projectId}/feature_flags/?limit=1000`, headers: s.headers })).json().results;
    const options = { groupTypeMapping: body.group_type_mapping, mode: 'local' as const };
    const folded = compileFlags(body.flags, options);
    const original = compileFlags(stored, options);
    const answer = (r: ReturnType<typeof folded.evaluate>) => (r === undefined ? 'missing' : r.inconclusive ? 'inconclusive' : r.value);
    const seen = new Set<unknown>();
    for (const [key, contexts] of [
      [personKey, personContexts()],
      [groupKey, groupContexts()],
    ] as const) {
      for (const ctx of contexts) {
        const want = answer(original.evaluate(key, ctx));
        seen.add(want);
        expect(answer(folded.evaluate(key, ctx)), `${key} ${JSON.stringify(ctx)}`).toBe(want);
      }
    }
    expect([...seen].sort()).toEqual([false, true, 'inconclusive'].sort());
  });

  it('makes posthog-node’s local evaluation agree: enrolled on, opted out off, not given falls back to the server', async () => {
    const client = new PostHog(s.token, { host: url, personalApiKey: s.key, featureFlagsPollingInterval: 60_000, sendFeatureFlagEvent: false });
    try {
      const local = (key: string, distinctId: string, options: Record<string, unknown>) =>
        client.getFeatureFlag(key, distinctId, { ...options, onlyEvaluateLocally: true });
      const enrolled = { [`$feature_enrollment/${personKey}`]: true };
      expect(await local(personKey, 'u-1', { personProperties: enrolled })).toBe(true);
      expect(await local(personKey, 'u-1', { personProperties: { [`$feature_enrollment/${personKey}`]: false } })).toBe(false);
      expect(await local(personKey, 'u-1', { personProperties: {} })).toBeUndefined();
      // Not given locally: posthog-node asks /flags, which reads the stored person.
      expect(await client.getFeatureFlag(personKey, 'stored-in', { personProperties: {} })).toBe(true);
      expect(await client.getFeatureFlag(personKey, 'stored-out', { personProperties: {} })).toBe(false);

      const groupEnrolled = { company: { [`$feature_enrollment/${groupKey}`]: true } };
      expect(await local(groupKey, 'g-1', { groups: { company: 'acme' }, groupProperties: groupEnrolled })).toBe(true);
      expect(await local(groupKey, 'g-1', { groups: { company: 'acme' }, groupProperties: { company: { [`$feature_enrollment/${groupKey}`]: false } } })).toBe(
        false,
      );
      expect(await local(groupKey, 'g-1', { groups: { company: 'acme' }, groupProperties: { company: {} } })).toBeUndefined();
      expect(await local(groupKey, 'g-1', {})).toBe(false);

      // And every decided local answer is the one /flags gives for the same properties.
      for (const ctx of personContexts()) {
        const value = await local(personKey, ctx.distinctId, { personProperties: ctx.personProperties });
        if (value === undefined) continue;
        const res = await s.app.inject({
          method: 'POST',
          url: '/flags/?v=2',
          payload: { token: s.token, distinct_id: ctx.distinctId, person_properties: ctx.personProperties },
        });
        expect(res.json().featureFlags[personKey], JSON.stringify(ctx)).toBe(value);
      }
    } finally {
      await client.shutdown();
    }
  });
});

describe('migration 0003', () => {
  /** A database with migrations 0001 and 0002 only, holding a concept and a beta feature whose flags have enrollment. */
  async function databaseAt0002(storage: ReturnType<typeof testStorage>) {
    let db: Kysely<Record<string, Record<string, unknown>>>;
    if (storage.databaseUrl) {
      const pool = new pg.Pool({ connectionString: storage.databaseUrl, options: `-c search_path=${storage.databaseSchema}` });
      await pool.query(`CREATE SCHEMA IF NOT EXISTS ${storage.databaseSchema}`);
      db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    } else {
      fs.mkdirSync(storage.dataDir, { recursive: true });
      db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(sqliteFile(storage.dataDir)) }) });
    }
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => ({ '0001-initial': initial(dialect), '0002-persons-events': personsAndEvents(dialect) }) },
      ...(storage.databaseSchema ? { migrationTableSchema: storage.databaseSchema } : {}),
    });
    const { error } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
    const now = new Date().toISOString();
    await db.insertInto('projects').values({ id: 1, name: 'Old', api_token: 'phc_old', created_at: now }).execute();
    const flag = (id: number, key: string, superGroups: boolean) => ({
      id,
      project_id: 1,
      key,
      name: '',
      filters: JSON.stringify({
        groups: [{ properties: [], rollout_percentage: 0, variant: null }],
        ...(superGroups
          ? {
              super_groups: [
                { properties: [{ key: `$feature_enrollment/${key}`, type: 'person', operator: 'exact', value: ['true'] }], rollout_percentage: 100 },
              ],
            }
          : {}),
      }),
      active: 1,
      deleted: 0,
      ensure_experience_continuity: 0,
      version: 3,
      created_at: now,
      updated_at: now,
    });
    await db
      .insertInto('feature_flags')
      .values([flag(1, 'idea', true), flag(2, 'shipping', true), flag(3, 'quiet-idea', false)])
      .execute();
    const feature = (id: string, flagId: number, stage: string) => ({
      id,
      project_id: 1,
      feature_flag_id: flagId,
      name: stage,
      description: '',
      stage,
      documentation_url: '',
      created_at: now,
    });
    await db
      .insertInto('early_access_features')
      .values([
        feature('00000000-0000-4000-8000-000000000001', 1, 'concept'),
        feature('00000000-0000-4000-8000-000000000002', 2, 'beta'),
        feature('00000000-0000-4000-8000-000000000003', 3, 'concept'),
      ])
      .execute();
    await db.destroy();
  }

  it('adds payload (null) and turns off the enrollment of concept features, keeping released ones', async () => {
    const storage = testStorage();
    try {
      await databaseAt0002(storage);
      const db = await openDatabase(storage);
      try {
        const flags = await db.kysely.selectFrom('feature_flags').select(['id', 'filters', 'version']).orderBy('id').execute();
        const filters = flags.map((f) => JSON.parse(f.filters));
        expect(filters[0]).toEqual({ groups: [{ properties: [], rollout_percentage: 0, variant: null }], super_groups: null });
        expect(flags[0]!.version).toBe(4);
        expect(filters[1].super_groups).toEqual([
          { properties: [{ key: '$feature_enrollment/shipping', type: 'person', operator: 'exact', value: ['true'] }], rollout_percentage: 100 },
        ]);
        expect(flags[1]!.version).toBe(3);
        expect(filters[2]).toEqual({ groups: [{ properties: [], rollout_percentage: 0, variant: null }] });
        expect(flags[2]!.version).toBe(3);
        const features = await db.kysely.selectFrom('early_access_features').select(['stage', 'payload']).orderBy('id').execute();
        expect(features).toEqual([
          { stage: 'concept', payload: null },
          { stage: 'beta', payload: null },
          { stage: 'concept', payload: null },
        ]);
      } finally {
        await db.close();
      }
    } finally {
      await storage.drop();
    }
  });
});
