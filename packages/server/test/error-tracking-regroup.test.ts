import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/uuid';
import { startService, type TestService } from './helpers';
import { buildViewsBundle, framesOf, type Bundle } from './sourcemap-bundle';

// One error, captured before its release's source maps were uploaded and again after, is one issue: the upload
// regroups the release's issues (src/error-tracking/regroup.ts) after it has answered.
const APP_URL = 'https://shop.example.com/assets/app.js';

let s: TestService;
let shop: Bundle;
beforeAll(async () => {
  s = await startService();
  shop = await buildViewsBundle();
});
afterAll(async () => {
  await s.close();
  shop.remove();
});

/* eslint-disable @typescript-eslint/no-explicit-any -- the service's JSON */

/** A project of its own for each test: the same error in another test is another project's issue. */
async function project() {
  const p = await s.services.projects.create('regroup');
  const api = async (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: unknown) => {
    const res = await s.app.inject({ method, url: `/api/projects/${p.id}/${path}`, headers: s.headers, payload: payload as Record<string, unknown> });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };
  return {
    id: p.id,
    api,
    /** Sends the shop's error (the frames of its minified build) as an `$exception` of `release`; its uuid. */
    async send(distinctId: string, release = 'shop-1', extra: Record<string, unknown> = {}, type = 'RangeError') {
      const uuid = uuidv7();
      const exception = { type, value: 'negative price -2', mechanism: { handled: false }, stacktrace: { type: 'raw', frames: framesOf(shop.js, APP_URL) } };
      const batch = [{ uuid, event: '$exception', distinct_id: distinctId, properties: { $release: release, $exception_list: [exception], ...extra } }];
      const res = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: p.api_token, batch } });
      expect(res.statusCode, res.body).toBe(200);
      return uuid;
    },
    /** Uploads the build's map and minified file for `release` and waits for the regrouping it starts. */
    async upload(release = 'shop-1') {
      await api('POST', 'error_tracking/sourcemaps/', { release, url: '~/assets/app.js', map: shop.map, source: shop.js });
      await s.services.errorTracking.settled();
    },
    issues: async (): Promise<any[]> => (await api('GET', 'error_tracking/issues/')).results,
    log: async (id: string): Promise<any[]> => (await api('GET', `activity_log/?scope=ErrorTrackingIssue&item_id=${id}`)).results,
  };
}

describe('regrouping when source maps arrive', () => {
  it('keeps one issue for an error captured before its maps were uploaded and after', async () => {
    const p = await project();
    await p.send('before');
    const [before] = await p.issues();
    expect(before).toMatchObject({ occurrences: 1, fingerprints: [expect.any(String)] });

    await p.upload();
    const [regrouped, ...none] = await p.issues();
    expect(none).toEqual([]);
    expect(regrouped).toMatchObject({ id: before.id, occurrences: 1 });
    expect(regrouped.fingerprints).toEqual([before.fingerprints[0], expect.any(String)]);
    const [entry] = await p.log(before.id);
    expect(entry.detail.changes).toEqual([
      { field: 'fingerprints', before: before.fingerprints, after: regrouped.fingerprints },
      { field: 'source_maps_uploaded', before: null, after: { release: 'shop-1' } },
    ]);

    await p.send('after');
    const [after, ...more] = await p.issues();
    expect(more).toEqual([]);
    expect(after).toMatchObject({ id: before.id, occurrences: 2, people: 2 });
    const latest = (await p.api('GET', `error_tracking/issues/${before.id}/`)).latest_event;
    expect(latest.properties.$exception_list[0].stacktrace.frames.map((f: any) => f.function)).toEqual(['globalThis.run', 'show', 'renderCart', '<anonymous>']);
    expect(latest.properties.$exception_fingerprint).toBe(regrouped.fingerprints[1]);
  });

  it('merges the issue the error made after its maps into the older one, which keeps its id and status', async () => {
    const p = await project();
    await p.send('before');
    const [older] = await p.issues();
    await p.api('PATCH', `error_tracking/issues/${older.id}/`, { status: 'suppressed' });
    // The map is stored without regrouping, as when the error comes again before the regrouping has run.
    await s.services.sourceMaps.upload(p.id, { release: 'shop-1', url: '~/assets/app.js', map: shop.map, source: shop.js });
    await p.send('after-1');
    await p.send('after-2');
    expect((await p.issues()).map((i) => i.occurrences).sort()).toEqual([1, 2]);
    const newer = (await p.issues()).find((i) => i.id !== older.id);

    await s.services.errorTracking.regroup(p.id, 'shop-1', { user_id: null, api_key_id: null, label: 'test' });
    const [merged, ...none] = await p.issues();
    expect(none).toEqual([]);
    expect(merged).toMatchObject({ id: older.id, status: 'suppressed', occurrences: 3, people: 3 });
    expect(merged.fingerprints.sort()).toEqual([...older.fingerprints, ...newer.fingerprints].sort());
    const res = await s.app.inject({ url: `/api/projects/${p.id}/error_tracking/issues/${newer.id}/`, headers: s.headers });
    expect(res.statusCode).toBe(404);
    expect((await p.api('GET', `error_tracking/issues/${older.id}/events/`)).count).toBe(3);
    const [entry] = await p.log(older.id);
    expect(entry.detail.changes).toEqual([
      { field: 'merged', before: null, after: [{ id: newer.id, name: 'RangeError' }] },
      { field: 'fingerprints', before: older.fingerprints, after: expect.arrayContaining(newer.fingerprints) },
      { field: 'source_maps_uploaded', before: null, after: { release: 'shop-1' } },
    ]);
    expect(entry.actor).toMatchObject({ name: 'test' });
    const [gone] = await p.log(newer.id);
    expect(gone).toMatchObject({
      activity: 'deleted',
      detail: { changes: [{ field: 'merged_into', after: { id: older.id } }, { field: 'source_maps_uploaded' }] },
    });
  });

  it('changes nothing when run again', async () => {
    const p = await project();
    await p.send('before');
    await p.upload();
    const once = await p.issues();
    const logged = (await p.log(once[0].id)).length;
    await p.upload();
    await s.services.errorTracking.regroup(p.id, 'shop-1', { user_id: null, api_key_id: null, label: 'test' });
    expect(await p.issues()).toEqual(once);
    expect(await p.log(once[0].id)).toHaveLength(logged);
  });

  it('leaves alone a resolved issue, issues of other releases, and a fingerprint the client chose', async () => {
    const p = await project();
    await p.send('resolved', 'shop-1');
    const [resolved] = await p.issues();
    await p.api('PATCH', `error_tracking/issues/${resolved.id}/`, { status: 'resolved' });
    await p.send('other', 'shop-0', {}, 'CartError');
    await p.send('chosen', 'shop-1', { $exception_fingerprint: 'cart-errors' });
    const before = await p.issues();
    expect(before).toHaveLength(3);
    await p.upload('shop-1');
    expect(await p.issues()).toEqual(before);
  });
});
