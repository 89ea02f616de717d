// Issue 12: early access from a backend. service-node lists the features and changes enrollment; the flag of a
// feature follows the enrollment in release stages, alike in /flags, service-node's local evaluation and
// posthog-node's local evaluation of our definitions.
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '@service/test-support';
import { Service, type EarlyAccessFeature } from '../src/index';
import { startService, type RunningService } from './service';

let service: RunningService;
/** Local evaluation (personal key), and the one that sends enrollments. */
let local: Service;
/** No personal key: every flag call is a `/flags` request. */
let remote: Service;
let posthog: PostHog;

interface CreatedFeature {
  id: string;
  stage: string;
  feature_flag: { id: number; key: string } | null;
}

const enrollment = (flagKey: string) => `$feature_enrollment/${flagKey}`;

beforeAll(async () => {
  service = await startService();
  // The group type company (index 0) exists once a group event has been ingested.
  const seeder = new Service(service.token, { host: service.url });
  for (const key of ['acme', 'globex']) seeder.groupIdentify({ groupType: 'company', groupKey: key, properties: { name: key } });
  await seeder.shutdown();
  local = new Service(service.token, { host: service.url, personalApiKey: service.key, featureFlagsPollingInterval: 60_000 });
  remote = new Service(service.token, { host: service.url });
  posthog = new PostHog(service.token, { host: service.url, personalApiKey: service.key, featureFlagsPollingInterval: 60_000 });
});

afterAll(async () => {
  await Promise.all([local?.shutdown(), remote?.shutdown(), posthog?.shutdown()]);
  await service?.close();
});

const createFeature = (body: Record<string, unknown>) => service.api<CreatedFeature>('POST', `/api/projects/${service.projectId}/early_access_feature/`, body);
const setStage = (id: string, stage: string) => service.api('PATCH', `/api/projects/${service.projectId}/early_access_feature/${id}/`, { stage });

/** Both local evaluators fetch the definitions now instead of at their next poll. */
async function reloadDefinitions() {
  await Promise.all([local.reloadFeatureFlags(), posthog.reloadFeatureFlags()]);
}

/** The flag's value for a person in all three: `/flags`, service-node local, posthog-node local (enrollment given). */
async function threeWays(flagKey: string, distinctId: string, enrolled: boolean) {
  const personProperties = { [enrollment(flagKey)]: enrolled };
  return {
    flags: await remote.getFeatureFlag(flagKey, distinctId, { sendFeatureFlagEvents: false }),
    serviceNode: await local.getFeatureFlag(flagKey, distinctId, { personProperties, onlyEvaluateLocally: true, sendFeatureFlagEvents: false }),
    posthogNode: await posthog.getFeatureFlag(flagKey, distinctId, { personProperties, onlyEvaluateLocally: true, sendFeatureFlagEvents: false }),
  };
}

const all = (value: boolean) => ({ flags: value, serviceNode: value, posthogNode: value });

describe('updateEarlyAccessFeatureEnrollment for persons, concept → beta → concept', () => {
  it('registers opt-ins in concept (flag off), turns the flag on for them in beta and off again in concept, in /flags and both local evaluations', async () => {
    const feature = await createFeature({ name: 'Waitlist search', stage: 'concept' });
    const flagKey = feature.feature_flag!.key;
    expect(flagKey).toBe('waitlist-search');
    const optedIn = ['wl-1', 'wl-2', 'wl-3', 'wl-4', 'wl-5'];
    for (const id of optedIn) local.updateEarlyAccessFeatureEnrollment(id, flagKey, true);
    local.updateEarlyAccessFeatureEnrollment('wl-out', flagKey, false);
    await local.flush();
    const events = await service.waitForEvents({ event: '$feature_enrollment_update' }, optedIn.length + 1);
    const sent = events.results.find((e) => e.distinct_id === 'wl-1')!;
    expect(sent.properties).toMatchObject({ $feature_flag: flagKey, $feature_enrollment: true, $set: { [enrollment(flagKey)]: true }, $lib: 'service-node' });

    await reloadDefinitions();
    // Concept is a waitlist: the opt-in is registered, the flag stays off.
    for (const id of optedIn) expect(await threeWays(flagKey, id, true), id).toEqual(all(false));
    expect(await threeWays(flagKey, 'wl-out', false)).toEqual(all(false));

    await setStage(feature.id, 'beta');
    await reloadDefinitions();
    for (const id of optedIn) expect(await threeWays(flagKey, id, true), id).toEqual(all(true));
    expect(await threeWays(flagKey, 'wl-out', false)).toEqual(all(false));
    // Someone who never enrolled: off by the service, which knows the person has no enrollment.
    expect(await remote.getFeatureFlag(flagKey, 'wl-never', { sendFeatureFlagEvents: false })).toBe(false);

    await setStage(feature.id, 'concept');
    await reloadDefinitions();
    for (const id of optedIn) expect(await threeWays(flagKey, id, true), id).toEqual(all(false));
    expect(await threeWays(flagKey, 'wl-out', false)).toEqual(all(false));
  });

  it('opting out after opting in turns the flag off for that person (beta)', async () => {
    const feature = await createFeature({ name: 'Second thoughts', stage: 'beta' });
    const flagKey = feature.feature_flag!.key;
    local.updateEarlyAccessFeatureEnrollment('st-1', flagKey, true);
    await local.flush();
    await service.waitForEvents({ event: '$feature_enrollment_update', distinct_id: 'st-1' }, 1);
    expect(await remote.getFeatureFlag(flagKey, 'st-1', { sendFeatureFlagEvents: false })).toBe(true);
    local.updateEarlyAccessFeatureEnrollment('st-1', flagKey, false);
    await local.flush();
    await service.waitForEvents({ event: '$feature_enrollment_update', distinct_id: 'st-1' }, 2);
    expect(await remote.getFeatureFlag(flagKey, 'st-1', { sendFeatureFlagEvents: false })).toBe(false);
  });

  it('never throws into the host for bad arguments; the error goes to the error listener', async () => {
    const client = new Service(service.token, { host: service.url });
    const errors: Error[] = [];
    client.on('error', (e) => errors.push(e));
    expect(() => client.updateEarlyAccessFeatureEnrollment('bad-1', '', true)).not.toThrow();
    expect(() => client.updateEarlyAccessFeatureEnrollment('bad-1', 'x', 'yes' as unknown as boolean)).not.toThrow();
    expect(() => client.updateEarlyAccessFeatureEnrollment('bad-1', 'x', true, { group: { type: 'company', key: '' } })).not.toThrow();
    expect(errors.map((e) => e.name)).toEqual(['TypeError', 'TypeError', 'TypeError']);
    await client.shutdown();
    expect((await service.events({ event: '$feature_enrollment_update', distinct_id: 'bad-1' })).count).toBe(0);
  });
});

describe('updateEarlyAccessFeatureEnrollment for a group', () => {
  it('enrolls company:acme in a group-based beta feature: on for acme members, off for other companies and without a group', async () => {
    const flag = await service.createFlag({ key: 'team-inbox', filters: { aggregation_group_type_index: 0, groups: [{ rollout_percentage: 0 }] } });
    await createFeature({ name: 'Team inbox', stage: 'beta', feature_flag_id: flag.id });
    local.updateEarlyAccessFeatureEnrollment('acme-admin', 'team-inbox', true, { group: { type: 'company', key: 'acme' } });
    await local.flush();
    const { results } = await service.waitForEvents({ event: '$feature_enrollment_update', distinct_id: 'acme-admin' }, 1);
    expect(results[0]!.properties).toMatchObject({
      $feature_flag: 'team-inbox',
      $feature_enrollment: true,
      $group_type: 'company',
      $group_key: 'acme',
      $groups: { company: 'acme' },
    });

    const off = { sendFeatureFlagEvents: false };
    // /flags: the service reads the stored group property.
    for (const member of ['acme-admin', 'acme-member-1', 'acme-member-2']) {
      expect(await remote.getFeatureFlag('team-inbox', member, { ...off, groups: { company: 'acme' } }), member).toBe(true);
    }
    expect(await remote.getFeatureFlag('team-inbox', 'globex-member', { ...off, groups: { company: 'globex' } })).toBe(false);
    expect(await remote.getFeatureFlag('team-inbox', 'acme-member-1', off)).toBe(false);
    // The person who enrolled the group is not enrolled as a person: another company of theirs is off.
    expect(await remote.getFeatureFlag('team-inbox', 'acme-admin', { ...off, groups: { company: 'globex' } })).toBe(false);

    // Local evaluation, given the group properties the service holds.
    await local.reloadFeatureFlags();
    const onlyLocal = { ...off, onlyEvaluateLocally: true };
    const acme = { company: { [enrollment('team-inbox')]: true } };
    const globex = { company: { [enrollment('team-inbox')]: false } };
    for (const member of ['acme-admin', 'acme-member-1', 'acme-member-2']) {
      expect(await local.getFeatureFlag('team-inbox', member, { ...onlyLocal, groups: { company: 'acme' }, groupProperties: acme }), member).toBe(true);
    }
    expect(await local.getFeatureFlag('team-inbox', 'globex-member', { ...onlyLocal, groups: { company: 'globex' }, groupProperties: globex })).toBe(false);
    expect(await local.getFeatureFlag('team-inbox', 'acme-member-1', onlyLocal)).toBe(false);
  });
});

describe('getEarlyAccessFeatures', () => {
  const created: Record<string, CreatedFeature> = {};

  beforeAll(async () => {
    created.concept = await createFeature({ name: 'Listed concept', stage: 'concept', description: 'Soon' });
    created.alpha = await createFeature({ name: 'Listed alpha', stage: 'alpha', payload: { icon: 'flask', order: 2 } });
    created.beta = await createFeature({
      name: 'Listed beta',
      stage: 'beta',
      description: 'Try it',
      documentation_url: 'https://docs.example.com/beta',
      payload: { icon: 'moon', tags: ['ui'] },
    });
    created.draft = await createFeature({ name: 'Listed draft', stage: 'draft' });
  });

  const listed = (features: EarlyAccessFeature[]) => features.filter((f) => f.name.startsWith('Listed ')).sort((a, b) => a.name.localeCompare(b.name));

  it('lists beta features by default, with every field and the payload', async () => {
    const features = await remote.getEarlyAccessFeatures();
    expect(features.every((f) => f.stage === 'beta')).toBe(true);
    expect(listed(features)).toEqual([
      {
        id: created.beta!.id,
        name: 'Listed beta',
        description: 'Try it',
        stage: 'beta',
        documentationUrl: 'https://docs.example.com/beta',
        flagKey: 'listed-beta',
        payload: { icon: 'moon', tags: ['ui'] },
      },
    ]);
  });

  it('lists the stages asked for; a feature without payload has payload null', async () => {
    const features = listed(await remote.getEarlyAccessFeatures({ stages: ['concept', 'alpha'] }));
    expect(features.map((f) => [f.name, f.stage, f.flagKey, f.payload])).toEqual([
      ['Listed alpha', 'alpha', 'listed-alpha', { icon: 'flask', order: 2 }],
      ['Listed concept', 'concept', 'listed-concept', null],
    ]);
    expect(features[1]).toMatchObject({ id: created.concept!.id, description: 'Soon', documentationUrl: '' });
    expect(listed(await remote.getEarlyAccessFeatures({ stages: ['draft'] })).map((f) => f.name)).toEqual(['Listed draft']);
  });

  it('resolves [] without throwing when the service is down, and reports the error', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const client = new Service(service.token, { host: down, requestTimeout: 2_000 });
    const errors: Error[] = [];
    client.on('error', (e) => errors.push(e));
    await expect(client.getEarlyAccessFeatures({ stages: ['beta'] })).resolves.toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/early_access_features/);
    await client.shutdown(100);

    // Without an error listener the logger gets it; an unknown token (401) is a failure too.
    const logger = { warn: vi.fn(), error: vi.fn() };
    const stranger = new Service('phc_unknown', { host: service.url, logger });
    await expect(stranger.getEarlyAccessFeatures()).resolves.toEqual([]);
    expect(logger.error).toHaveBeenCalledWith(expect.stringMatching(/GET \/api\/early_access_features\/ answered 401/));
    await stranger.shutdown(100);
  });
});
