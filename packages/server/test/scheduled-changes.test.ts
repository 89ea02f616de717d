import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduledChangeStore } from '../src/scheduled-changes/store';
import { startService, type TestService } from './helpers';

// Scheduled changes through the REST API; the job's work is called with a later "now" (`applyDue`), so nothing waits
// for a clock. The job of the app itself never finds these changes due: they are an hour or more ahead.

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(async () => {
  await s?.close();
});

const HOUR = 3_600_000;

/** What the job does when it wakes at `now`: applies due changes until none is left (a flag's next waits a round). */
async function applyDue(now: number) {
  let applied = 0;
  for (let round = await s.services.scheduledChanges.applyDue(now); round > 0; round = await s.services.scheduledChanges.applyDue(now)) applied += round;
  return applied;
}
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

async function call(method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, body?: unknown, headers = s.headers) {
  const response = await s.app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the service's JSON, read field by field
  return { status: response.statusCode, body: response.body ? (JSON.parse(response.body) as Record<string, any>) : undefined };
}

let flagCount = 0;
async function newFlag(filters: Record<string, unknown> = { groups: [{ properties: [], rollout_percentage: 10 }] }) {
  const created = await call('POST', `/api/projects/${s.projectId}/feature_flags/`, { key: `scheduled-${++flagCount}`, filters });
  expect(created.status).toBe(201);
  return created.body as { id: number; key: string };
}
const changesOf = (flagId: number) => `/api/projects/${s.projectId}/feature_flags/${flagId}/scheduled_changes/`;
type Entry = { activity: string; actor: { name: string }; detail: { name: string; changes: { field: string; before: unknown; after: unknown }[] } };
/** The flag's activity log, newest first. */
const historyOf = async (flagId: number) =>
  (await call('GET', `/api/projects/${s.projectId}/activity_log/?scope=FeatureFlag&item_id=${flagId}`)).body!.results as Entry[];
const flagOf = async (flagId: number) => (await call('GET', `/api/projects/${s.projectId}/feature_flags/${flagId}/`)).body!;

describe('scheduled changes', () => {
  it('applies a change once it is due, through the flag service: the flag changes, with an activity entry naming the change', async () => {
    const flag = await newFlag();
    const created = await call('POST', changesOf(flag.id), { scheduled_at: at(HOUR), payload: { active: false, rollout_percentage: 40 } });
    expect(created.status).toBe(201);
    const [change] = created.body!.results;
    expect(change).toMatchObject({
      feature_flag_id: flag.id,
      status: 'pending',
      payload: { active: false, rollout_percentage: 40 },
      ramp_id: null,
      executed_at: null,
    });

    // Not yet due: nothing happens.
    await applyDue(Date.now());
    expect((await flagOf(flag.id)).active).toBe(true);

    expect(await applyDue(Date.now() + 2 * HOUR)).toBe(1);
    const changed = await flagOf(flag.id);
    expect(changed.active).toBe(false);
    expect(changed.filters.groups).toEqual([{ properties: [], rollout_percentage: 40 }]);
    const listed = await call('GET', changesOf(flag.id));
    expect(listed.body).toMatchObject({ count: 1, results: [{ id: change.id, status: 'applied', failure_reason: null }] });
    expect(listed.body!.results[0].executed_at).not.toBeNull();

    const updates = (await historyOf(flag.id)).filter((entry) => entry.activity === 'updated');
    // Scheduling it, then applying it.
    expect(updates.map((entry) => entry.detail.changes.map((c) => c.field))).toEqual([['filters', 'active'], ['scheduled_change']]);
    expect(JSON.stringify(updates[0])).toContain(`(scheduled change ${change.id})`);

    // Applied once: a later look finds nothing.
    expect(await applyDue(Date.now() + 3 * HOUR)).toBe(0);
  });

  it('schedules a ramp as one change per step, applied in order', async () => {
    const flag = await newFlag();
    const ramp = [10, 50, 100].map((rollout_percentage, i) => ({ scheduled_at: at((i + 1) * HOUR), rollout_percentage }));
    const created = await call('POST', changesOf(flag.id), { ramp });
    expect(created.status).toBe(201);
    const steps = created.body!.results as { ramp_id: string; payload: unknown; scheduled_at: string }[];
    expect(steps.map((step) => step.payload)).toEqual([{ rollout_percentage: 10 }, { rollout_percentage: 50 }, { rollout_percentage: 100 }]);
    expect(new Set(steps.map((step) => step.ramp_id)).size).toBe(1);
    expect(steps[0]!.ramp_id).toEqual(expect.any(String));

    await applyDue(Date.now() + 1.5 * HOUR);
    expect((await flagOf(flag.id)).filters.groups[0].rollout_percentage).toBe(10);
    await applyDue(Date.now() + 10 * HOUR);
    expect((await flagOf(flag.id)).filters.groups[0].rollout_percentage).toBe(100);
    const statuses = (await call('GET', changesOf(flag.id))).body!.results.map((c: { status: string }) => c.status);
    expect(statuses).toEqual(['applied', 'applied', 'applied']);
  });

  it('replaces the variants of a multivariate flag', async () => {
    const flag = await newFlag({
      groups: [{ properties: [], rollout_percentage: 100 }],
      multivariate: {
        variants: [
          { key: 'control', rollout_percentage: 90 },
          { key: 'test', rollout_percentage: 10 },
        ],
      },
    });
    const variants = [
      { key: 'control', rollout_percentage: 50 },
      { key: 'test', rollout_percentage: 50 },
    ];
    expect((await call('POST', changesOf(flag.id), { scheduled_at: at(HOUR), payload: { variants } })).status).toBe(201);
    await applyDue(Date.now() + 2 * HOUR);
    expect((await flagOf(flag.id)).filters.multivariate.variants).toEqual(variants);
  });

  it('refuses a time in the past, a time that is none, an empty change, variants that do not add up and a ramp out of order (400 naming the field)', async () => {
    const flag = await newFlag();
    const refused = async (body: unknown) => {
      const answer = await call('POST', changesOf(flag.id), body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      return answer.body!;
    };
    expect(await refused({ scheduled_at: at(-60_000), payload: { active: false } })).toMatchObject({
      type: 'validation_error',
      code: 'in_the_past',
      attr: 'scheduled_at',
    });
    expect(await refused({ scheduled_at: 'next tuesday', payload: { active: false } })).toMatchObject({ code: 'invalid_date', attr: 'scheduled_at' });
    expect(await refused({ scheduled_at: at(HOUR), payload: {} })).toMatchObject({ attr: 'payload', code: 'required' });
    expect(await refused({ scheduled_at: at(HOUR), payload: { variants: [{ key: 'a', rollout_percentage: 30 }] } })).toMatchObject({
      attr: expect.stringMatching(/^payload/),
    });
    expect(
      await refused({
        ramp: [
          { scheduled_at: at(2 * HOUR), rollout_percentage: 10 },
          { scheduled_at: at(HOUR), rollout_percentage: 50 },
        ],
      }),
    ).toMatchObject({
      attr: 'ramp.1.scheduled_at',
    });
    expect(await refused({ ramp: [{ scheduled_at: at(-HOUR), rollout_percentage: 10 }] })).toMatchObject({ attr: 'ramp.0.scheduled_at', code: 'in_the_past' });
    expect(await refused({ scheduled_at: at(HOUR), payload: { rollout_percentage: 101 } })).toMatchObject({ type: 'validation_error' });
    expect(await refused({ payload: { active: false } })).toMatchObject({ attr: 'scheduled_at', code: 'required' });
    expect(await refused({ scheduled_at: at(HOUR), payload: { active: false }, ramp: [{ scheduled_at: at(2 * HOUR), rollout_percentage: 10 }] })).toMatchObject(
      {
        attr: 'ramp',
      },
    );
    expect((await call('GET', changesOf(flag.id))).body!.count).toBe(0);
  });

  it('cancels a pending change (204), which then never applies; cancelling again is 409, an unknown change or flag 404', async () => {
    const flag = await newFlag();
    const [change] = (await call('POST', changesOf(flag.id), { scheduled_at: at(HOUR), payload: { active: false } })).body!.results;
    expect((await call('DELETE', `${changesOf(flag.id)}${change.id}/`)).status).toBe(204);
    expect(await applyDue(Date.now() + 2 * HOUR)).toBe(0);
    expect((await flagOf(flag.id)).active).toBe(true);
    expect((await call('GET', changesOf(flag.id))).body!.results[0]).toMatchObject({ status: 'cancelled' });
    expect((await call('DELETE', `${changesOf(flag.id)}${change.id}/`)).status).toBe(409);
    expect((await call('DELETE', `${changesOf(flag.id)}999999/`)).status).toBe(404);
    expect((await call('GET', changesOf(999_999))).status).toBe(404);
    // Another flag's change is not found under this one.
    const other = await newFlag();
    expect((await call('DELETE', `${changesOf(other.id)}${change.id}/`)).status).toBe(404);
  });

  it('fails a change whose flag was deleted meanwhile, saying why, and applies the rest', async () => {
    const gone = await newFlag();
    const kept = await newFlag();
    await call('POST', changesOf(gone.id), { scheduled_at: at(HOUR), payload: { active: false } });
    await call('POST', changesOf(kept.id), { scheduled_at: at(HOUR), payload: { active: false } });
    expect((await call('PATCH', `/api/projects/${s.projectId}/feature_flags/${gone.id}/`, { deleted: true })).status).toBe(200);
    await applyDue(Date.now() + 2 * HOUR);
    const rows = await s.services.db.kysely
      .selectFrom('scheduled_changes')
      .select(['flag_id', 'status', 'failure_reason'])
      .where('flag_id', 'in', [gone.id, kept.id])
      .execute();
    expect(rows.find((row) => row.flag_id === gone.id)).toMatchObject({ status: 'failed', failure_reason: 'The flag was deleted.' });
    expect(rows.find((row) => row.flag_id === kept.id)).toMatchObject({ status: 'applied' });
    expect((await flagOf(kept.id)).active).toBe(false);
  });

  it('needs feature_flag:read to list and feature_flag:write to schedule or cancel', async () => {
    const flag = await newFlag();
    const reader = s.auth(await s.keyWith(['feature_flag:read']));
    expect((await call('GET', changesOf(flag.id), undefined, reader)).status).toBe(200);
    expect((await call('POST', changesOf(flag.id), { scheduled_at: at(HOUR), payload: { active: false } }, reader)).status).toBe(403);
    const none = s.auth(await s.keyWith(['experiment:read']));
    expect((await call('GET', changesOf(flag.id), undefined, none)).status).toBe(403);
  });
  it('records scheduling, editing and cancelling in the flag history, with the actor and the change before and after', async () => {
    const flag = await newFlag();
    const [once] = (await call('POST', changesOf(flag.id), { scheduled_at: at(HOUR), payload: { active: false } })).body!.results;
    const ramp = (
      await call('POST', changesOf(flag.id), { ramp: [20, 60].map((rollout_percentage, i) => ({ scheduled_at: at((i + 2) * HOUR), rollout_percentage })) })
    ).body!.results;
    const edited = await call('PATCH', `${changesOf(flag.id)}${once.id}/`, { scheduled_at: at(5 * HOUR) });
    expect(edited.status).toBe(200);
    expect((await call('DELETE', `${changesOf(flag.id)}${ramp[1].id}/`)).status).toBe(204);

    const [cancelled, edit, rampCreated, created] = await historyOf(flag.id);
    for (const entry of [cancelled, edit, rampCreated, created])
      expect(entry).toMatchObject({ activity: 'updated', actor: { name: expect.any(String) }, detail: { name: flag.key } });
    expect(created!.detail.changes).toEqual([
      { field: 'scheduled_change', before: null, after: { id: once.id, scheduled_at: once.scheduled_at, active: false } },
    ]);
    expect(rampCreated!.detail.changes).toEqual(
      ramp.map((step: { id: number; scheduled_at: string; payload: object }) => ({
        field: 'scheduled_change',
        before: null,
        after: { id: step.id, scheduled_at: step.scheduled_at, ...step.payload },
      })),
    );
    expect(edit!.detail.changes).toEqual([
      {
        field: 'scheduled_change',
        before: { id: once.id, scheduled_at: once.scheduled_at, active: false },
        after: { id: once.id, scheduled_at: edited.body!.scheduled_at, active: false },
      },
    ]);
    expect(cancelled!.detail.changes).toEqual([
      { field: 'scheduled_change', before: { id: ramp[1].id, scheduled_at: ramp[1].scheduled_at, rollout_percentage: 60 }, after: null },
    ]);
    // A refused schedule or edit records nothing.
    await call('POST', changesOf(flag.id), { scheduled_at: at(-HOUR), payload: { active: false } });
    await call('PATCH', `${changesOf(flag.id)}${once.id}/`, { scheduled_at: at(-HOUR) });
    expect(await historyOf(flag.id)).toHaveLength(5);
  });

  it('edits a pending change (its time, what it does), which then applies as edited', async () => {
    const flag = await newFlag();
    const [change] = (await call('POST', changesOf(flag.id), { scheduled_at: at(HOUR), payload: { active: false } })).body!.results;
    const url = `${changesOf(flag.id)}${change.id}/`;
    const later = await call('PATCH', url, { scheduled_at: at(3 * HOUR) });
    expect(later.body).toMatchObject({ id: change.id, status: 'pending', payload: { active: false } });
    expect(Date.parse(later.body!.scheduled_at)).toBeGreaterThan(Date.now() + 2 * HOUR);
    // Other tests' changes may be due then; this one is not.
    await applyDue(Date.now() + 2 * HOUR);
    expect((await call('GET', changesOf(flag.id))).body!.results[0]).toMatchObject({ status: 'pending' });
    const other = await call('PATCH', url, { payload: { rollout_percentage: 70 } });
    expect(other.body).toMatchObject({ payload: { rollout_percentage: 70 }, scheduled_at: later.body!.scheduled_at });
    await applyDue(Date.now() + 4 * HOUR);
    expect((await call('GET', changesOf(flag.id))).body!.results[0]).toMatchObject({ status: 'applied' });
    const applied = await flagOf(flag.id);
    expect(applied.active).toBe(true);
    expect(applied.filters.groups).toEqual([{ properties: [], rollout_percentage: 70 }]);
  });

  it('refuses an edit in the past, a payload the flag refuses or nothing to change (400); of a change no longer pending 409; unknown 404', async () => {
    const flag = await newFlag({
      groups: [{ properties: [] }],
      multivariate: {
        variants: [
          { key: 'a', rollout_percentage: 50 },
          { key: 'b', rollout_percentage: 50 },
        ],
      },
    });
    const [change] = (await call('POST', changesOf(flag.id), { scheduled_at: at(HOUR), payload: { active: false } })).body!.results;
    const url = `${changesOf(flag.id)}${change.id}/`;
    const refused = async (body: unknown) => {
      const response = await call('PATCH', url, body);
      expect(response.status).toBe(400);
      return response.body;
    };
    expect(await refused({ scheduled_at: at(-HOUR) })).toMatchObject({ attr: 'scheduled_at', code: 'in_the_past' });
    expect(await refused({ scheduled_at: 'soon' })).toMatchObject({ attr: 'scheduled_at', code: 'invalid_date' });
    expect(await refused({ payload: { variants: [{ key: 'a', rollout_percentage: 70 }] } })).toMatchObject({ attr: 'payload' });
    expect(await refused({ payload: {} })).toMatchObject({ attr: 'payload', code: 'required' });
    expect(await refused({})).toMatchObject({ attr: 'scheduled_at', code: 'required' });
    expect(await refused({ status: 'applied' })).toMatchObject({ type: 'validation_error' });
    expect((await call('GET', changesOf(flag.id))).body!.results[0]).toMatchObject({ scheduled_at: change.scheduled_at, payload: { active: false } });

    await applyDue(Date.now() + 2 * HOUR);
    expect((await call('PATCH', url, { scheduled_at: at(3 * HOUR) })).status).toBe(409);
    const [cancelled] = (await call('POST', changesOf(flag.id), { scheduled_at: at(HOUR), payload: { active: true } })).body!.results;
    expect((await call('DELETE', `${changesOf(flag.id)}${cancelled.id}/`)).status).toBe(204);
    expect((await call('PATCH', `${changesOf(flag.id)}${cancelled.id}/`, { scheduled_at: at(3 * HOUR) })).status).toBe(409);
    expect((await call('PATCH', `${changesOf(flag.id)}999999/`, { scheduled_at: at(3 * HOUR) })).status).toBe(404);
    const other = await newFlag();
    expect((await call('PATCH', `${changesOf(other.id)}${cancelled.id}/`, { scheduled_at: at(3 * HOUR) })).status).toBe(404);
    const reader = s.auth(await s.keyWith(['feature_flag:read']));
    expect((await call('PATCH', `${changesOf(flag.id)}${cancelled.id}/`, { scheduled_at: at(3 * HOUR) }, reader)).status).toBe(403);
  });

  it('an edit racing the job that holds the change waits for it and is refused (409), never applying half', async () => {
    const flag = await newFlag();
    const [change] = (await call('POST', changesOf(flag.id), { scheduled_at: at(HOUR), payload: { active: false } })).body!.results;
    const { kysely, dialect } = s.services.db;
    let edit: Promise<{ status: number }> | undefined;
    // What the job does: the change locked in its transaction, then applied; the edit is sent while it is held.
    await kysely.transaction().execute(async (trx) => {
      expect(await scheduledChangeStore.lock(trx, dialect, s.projectId, flag.id, change.id)).toMatchObject({ status: 'pending' });
      edit = call('PATCH', `${changesOf(flag.id)}${change.id}/`, { scheduled_at: at(3 * HOUR), payload: { rollout_percentage: 5 } });
      await scheduledChangeStore.finish(trx, change.id, { status: 'applied', failure_reason: null, executed_at: new Date().toISOString() });
    });
    expect((await edit!).status).toBe(409);
    expect((await call('GET', changesOf(flag.id))).body!.results[0]).toMatchObject({
      status: 'applied',
      scheduled_at: change.scheduled_at,
      payload: { active: false },
    });
  });
});
