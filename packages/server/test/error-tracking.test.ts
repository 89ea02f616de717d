import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionName, sourcePath } from '../src/error-tracking/fingerprint';
import { startService, type TestService } from './helpers';

// Issue 15: `$exception` events grouped into issues as they are stored, and the issues API.
let s: TestService;
let base: string;
beforeAll(async () => {
  // The worker would try to send the webhooks these tests make; they are read from the outbox instead.
  s = await startService({ webhookPollMs: 3_600_000 });
  base = `/api/projects/${s.projectId}/error_tracking/issues/`;
  const hook = await s.app.inject({
    method: 'POST',
    url: `/api/projects/${s.projectId}/webhooks/`,
    headers: s.headers,
    payload: { url: 'https://hooks.example.com/errors', kinds: ['error.new_issue', 'error.regressed'] },
  });
  expect(hook.statusCode, hook.body).toBe(201);
});
afterAll(() => s.close());

let n = 0;
/** A fresh origin and folder, so that each test's errors are its own. */
const app = () => `https://shop.example.com/t${++n}`;

interface FrameInput {
  filename?: string;
  function?: string;
  lineno?: number;
  colno?: number;
  in_app?: boolean;
}
const frame = (f: FrameInput) => ({ platform: 'web:javascript', in_app: true, ...f });

/** An `$exception` event as posthog-js sends it (frames oldest first, throw site last). */
function exception(type: string, value: string, frames: FrameInput[], props: Record<string, unknown> = {}, distinctId = 'user-1') {
  return {
    event: '$exception',
    uuid: randomUUID(),
    distinct_id: distinctId,
    timestamp: new Date().toISOString(),
    properties: {
      $exception_list: [
        { type, value, mechanism: { type: 'generic', handled: false, synthetic: false }, stacktrace: { type: 'raw', frames: frames.map(frame) } },
      ],
      $exception_level: 'error',
      $current_url: 'https://shop.example.com/checkout',
      $lib: 'web',
      ...props,
    },
  };
}

/** Sends events as one batch and expects them stored. */
async function capture(events: Record<string, unknown>[], path = '/batch/') {
  const res = await s.app.inject({ method: 'POST', url: path, payload: { api_key: s.token, batch: events } });
  expect(res.statusCode, res.body).toBe(200);
}

/** The issue an event's occurrence belongs to (undefined: none). */
async function issueOf(uuid: string): Promise<string | undefined> {
  const row = await s.services.db.kysely.selectFrom('error_tracking_occurrences').select('issue_id').where('event_uuid', '=', uuid).executeTakeFirst();
  return row?.issue_id;
}

const getIssue = async (id: string, headers = s.headers) => {
  const res = await s.app.inject({ url: `${base}${id}/`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const patchIssue = (id: string, payload: Record<string, unknown>, headers = s.headers) =>
  s.app.inject({ method: 'PATCH', url: `${base}${id}/`, headers, payload });

async function deliveries(issueId: string) {
  const rows = await s.services.db.kysely.selectFrom('webhook_deliveries').select(['kind', 'payload']).where('project_id', '=', s.projectId).execute();
  return rows.filter((r) => (JSON.parse(r.payload) as { data: { issue: { id: string } } }).data.issue.id === issueId).map((r) => r.kind);
}

/** The same TypeError (reading `price` of undefined in computeTotal, called from a click handler) as two browsers and two builds report it. */
function checkoutError(origin: string, browser: 'chrome' | 'firefox', build: 1 | 2 | 3) {
  const file = `${origin}/assets/${{ 1: 'index-3f9a1c.js', 2: 'index-a81b4e2d.js', 3: 'index-DiwrgTda.js' }[build]}?v=${build}`;
  const vendor = `${origin}/assets/${{ 1: 'vendor-77aa01.js', 2: 'vendor-e5d2c9f0.js', 3: 'vendor-Bq3xK9Lp.js' }[build]}`;
  const col = build * 1000;
  const chrome = browser === 'chrome';
  const message = chrome ? "Cannot read properties of undefined (reading 'price')" : 'can\'t access property "price", item is undefined';
  return exception('TypeError', message, [
    { filename: vendor, function: chrome ? 'HTMLUnknownElement.callCallback' : 'callCallback', lineno: 1, colno: 300 + col },
    { filename: vendor, function: chrome ? 'Object.invokeGuardedCallbackDev' : 'invokeGuardedCallbackDev', lineno: 1, colno: 900 + col },
    { filename: file, function: chrome ? 'HTMLButtonElement.onClick' : 'onClick', lineno: 2, colno: 48211 + col },
    // An anonymous arrow function inside computeTotal (Chrome: no name; Firefox: `computeTotal/<`).
    { filename: file, function: chrome ? '?' : 'computeTotal/<', lineno: 2, colno: 51800 + col },
    // Chrome shows the built-in reduce (posthog-js marks `<anonymous>` not in-app; a client that says in-app is not
    // believed); Firefox leaves it out.
    ...(chrome ? [{ filename: '<anonymous>', function: 'Array.reduce', in_app: build === 3 }] : []),
    { filename: file, function: chrome ? 'computeTotal' : 'computeTotal', lineno: 2, colno: 51877 + col + (chrome ? 0 : 3) },
  ]);
}

describe('grouping', () => {
  it('puts the same error from Chrome and Firefox, and from three builds, into one issue', async () => {
    const origin = app();
    const events = (['chrome', 'firefox'] as const).flatMap((browser) => ([1, 2, 3] as const).map((build) => checkoutError(origin, browser, build)));
    await capture(events);
    const issues = new Set(await Promise.all(events.map((e) => issueOf(e.uuid))));
    expect(issues.size).toBe(1);
    const [id] = [...issues];
    const issue = await getIssue(id!);
    expect(issue).toMatchObject({
      name: 'TypeError',
      description: "Cannot read properties of undefined (reading 'price')",
      status: 'active',
      occurrences: 6,
      people: 1,
    });
    expect(issue.fingerprints).toHaveLength(1);
    expect(issue.latest_event.properties.$exception_fingerprint).toBe(issue.fingerprints[0]);
  });

  it('strips browser decorations from function names and build hashes from paths (the documented rule)', () => {
    expect(['HTMLButtonElement.onClick', 'onClick', 'Object.onClick', 'async onClick', 'outer/onClick', 'a.b.onClick [as handler]'].map(functionName)).toEqual(
      Array(6).fill('onClick'),
    );
    expect(['?', '<anonymous>', 'computeTotal/<', 'Object.<anonymous>', '', 'outer/</<'].map(functionName)).toEqual(Array(6).fill('?'));
    expect(sourcePath('https://shop.example.com/assets/index-3f9a1c.js?v=2#x')).toBe('/assets/index.js');
    expect(sourcePath('https://cdn.example.com/static/js/main.a1b2c3d4.chunk.js')).toBe('/static/js/main.chunk.js');
    expect(sourcePath('https://example.com/assets/Cart-DiwrgTda.js')).toBe('/assets/Cart.js');
    expect(sourcePath('https://example.com/_next/static/chunks/pages/index-8b2f1c3e9d7a6b5c.js')).toBe('/_next/static/chunks/pages/index.js');
    expect(sourcePath('src/cart/total.ts')).toBe('src/cart/total.ts');
    expect(sourcePath('https://example.com/assets/index.js:2:100')).toBe('/assets/index.js');
    expect(sourcePath('https://example.com/_next/static/Ypl-9oJxXkL0_KQf7yBEi/pages/cart.js')).toBe('/_next/static/<hash>/pages/cart.js');
  });

  it('keeps folders whose names merely look like hashes, so that different modules stay apart', () => {
    expect(sourcePath('webpack:///src/Checkout/index.js')).toBe('/src/Checkout/index.js');
    expect(sourcePath('webpack:///src/Settings/index.js')).toBe('/src/Settings/index.js');
    expect(sourcePath('/app/packages/service-node-v2-api/client.js')).toBe('/app/packages/service-node-v2-api/client.js');
  });

  it('puts different errors into different issues: another type, another throw site, another file', async () => {
    const origin = app();
    const f = `${origin}/assets/index-3f9a1c.js`;
    const base = [{ filename: f, function: 'onClick', lineno: 1, colno: 10 }];
    const events = [
      exception('TypeError', 'x is undefined', [...base, { filename: f, function: 'computeTotal', lineno: 1, colno: 50 }]),
      exception('RangeError', 'x is undefined', [...base, { filename: f, function: 'computeTotal', lineno: 1, colno: 50 }]),
      exception('TypeError', 'x is undefined', [...base, { filename: f, function: 'applyCoupon', lineno: 1, colno: 50 }]),
      exception('TypeError', 'x is undefined', [...base, { filename: `${origin}/assets/other-3f9a1c.js`, function: 'computeTotal', lineno: 1, colno: 50 }]),
    ];
    await capture(events);
    const issues = await Promise.all(events.map((e) => issueOf(e.uuid)));
    expect(new Set(issues).size).toBe(4);
  });

  it('tells apart app errors by their normalized message at one throw site, and ignores a React boundary’s component stack', async () => {
    const origin = app();
    const site = (build: string) => [{ filename: `${origin}/assets/api-${build}.js`, function: 'request', lineno: 1, colno: 10 }];
    const boundary = (names: string[]) => ({
      type: 'React ErrorBoundary Error',
      value: 'component stack',
      mechanism: { type: 'generic', handled: true, synthetic: false },
      stacktrace: { type: 'raw', frames: names.map((n) => frame({ filename: `${origin}/assets/index.js`, function: n, lineno: 1, colno: 1 })) },
    });
    const events = [
      exception('Error', 'Request failed with status 502', site('3f9a1c7e')),
      exception('Error', 'Request failed with status 404', site('b81d2e4f')),
      exception('Error', 'Session expired', site('3f9a1c7e')),
      exception('Error', 'Request failed with status 500', site('3f9a1c7e')),
      exception('Error', 'Request failed with status 503', site('3f9a1c7e')),
    ];
    // The same error caught by a boundary in two builds: the minified component names differ.
    events[3]!.properties.$exception_list.push(boundary(['l1', 'th']));
    events[4]!.properties.$exception_list.push(boundary(['r1', 'Qa']));
    await capture(events);
    const [a, b, other, caughtOnce, caughtAgain] = await Promise.all(events.map((e) => issueOf(e.uuid)));
    expect(b).toBe(a);
    expect(other).not.toBe(a);
    expect(caughtAgain).toBe(caughtOnce);
  });

  it('groups stackless errors by type and message, with numbers, ids, emails and URLs normalized', async () => {
    const tag = randomUUID().slice(0, 6);
    const stackless = (value: string) => exception('PaymentError', value, []);
    const events = [
      stackless(`Payment ${tag} failed for order 1234 (user a@b.com, ${randomUUID()}) at https://pay.example.com/x?id=9`),
      stackless(`Payment ${tag} failed for order 98 (user zed@example.org, ${randomUUID()}) at https://pay.example.com/y`),
      stackless(`Payment ${tag} refused for order 98`),
    ];
    await capture(events);
    const issues = await Promise.all(events.map((e) => issueOf(e.uuid)));
    expect(issues[0]).toBeDefined();
    expect(issues[1]).toBe(issues[0]);
    expect(issues[2]).not.toBe(issues[0]);
  });

  it('lets the client’s $exception_fingerprint win, and keeps the automatic one as the proposed fingerprint', async () => {
    const origin = app();
    const custom = `checkout-${randomUUID()}`;
    const events = [
      exception('TypeError', 'a', [{ filename: `${origin}/a.js`, function: 'one' }], { $exception_fingerprint: custom }),
      exception('SyntaxError', 'b', [{ filename: `${origin}/b.js`, function: 'two' }], { $exception_fingerprint: custom, $issue_name: 'Checkout broke' }),
      exception('TypeError', 'a', [{ filename: `${origin}/a.js`, function: 'one' }]),
    ];
    await capture(events);
    const [a, b, plain] = await Promise.all(events.map((e) => issueOf(e.uuid)));
    expect(b).toBe(a);
    expect(plain).not.toBe(a);
    const issue = await getIssue(a!);
    expect(issue.fingerprints).toEqual([custom]);
    expect(issue.latest_event.properties.$exception_fingerprint).toBe(custom);
    expect(issue.latest_event.properties.$exception_proposed_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    // A fingerprint longer than 64 characters is kept as its sha256.
    const long = exception('Error', 'x', [], { $exception_fingerprint: 'x'.repeat(500) });
    await capture([long]);
    expect((await getIssue((await issueOf(long.uuid))!)).fingerprints[0]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('takes a new issue’s name and description from $issue_name and $issue_description', async () => {
    const e = exception('Error', 'boom', [{ filename: `${app()}/x.js`, function: 'f' }], { $issue_name: 'Cart total', $issue_description: 'd'.repeat(400) });
    await capture([e]);
    const issue = await getIssue((await issueOf(e.uuid))!);
    expect(issue.name).toBe('Cart total');
    expect(issue.description).toBe('d'.repeat(255));
  });
});

describe('status, regressions and webhooks', () => {
  it('sends error.new_issue once; a resolved issue that occurs again is active, regressed_at set, error.regressed sent', async () => {
    const origin = app();
    const make = () => exception('Error', 'boom', [{ filename: `${origin}/a-3f9a1c.js`, function: 'boom' }]);
    const first = make();
    await capture([first, make()]);
    const id = (await issueOf(first.uuid))!;
    expect(await deliveries(id)).toEqual(['error.new_issue']);
    expect((await getIssue(id)).regressed_at).toBeNull();

    const resolved = await patchIssue(id, { status: 'resolved' });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({ id, status: 'resolved', occurrences: 2 });

    const again = make();
    await capture([again, make()]);
    expect(await issueOf(again.uuid)).toBe(id);
    const issue = await getIssue(id);
    expect(issue).toMatchObject({ status: 'active', occurrences: 4 });
    expect(issue.regressed_at).toEqual(expect.any(String));
    expect((await deliveries(id)).sort()).toEqual(['error.new_issue', 'error.regressed']);
    const payload = await s.services.db.kysely.selectFrom('webhook_deliveries').select('payload').where('kind', '=', 'error.regressed').execute();
    const data = payload.map((p) => JSON.parse(p.payload).data).find((d) => d.issue.id === id);
    expect(data).toMatchObject({ issue: { id, name: 'Error', status: 'active' }, event: { uuid: again.uuid, distinct_id: 'user-1' } });
  });

  it('keeps recording a suppressed issue’s occurrences, without webhooks', async () => {
    const origin = app();
    const make = () => exception('Error', 'noise', [{ filename: `${origin}/noise.js`, function: 'poll' }]);
    const first = make();
    await capture([first]);
    const id = (await issueOf(first.uuid))!;
    expect((await patchIssue(id, { status: 'suppressed' })).statusCode).toBe(200);
    const later = [make(), make(), make()];
    await capture(later);
    for (const e of later) expect(await issueOf(e.uuid)).toBe(id);
    expect(await getIssue(id)).toMatchObject({ status: 'suppressed', occurrences: 4, regressed_at: null });
    expect(await deliveries(id)).toEqual(['error.new_issue']);
  });

  it('records status and name changes in the activity log, and refuses an unknown status', async () => {
    const e = exception('Error', 'logged', [{ filename: `${app()}/x.js`, function: 'f' }]);
    await capture([e]);
    const id = (await issueOf(e.uuid))!;
    expect((await patchIssue(id, { status: 'resolved', name: 'Renamed' })).json()).toMatchObject({ status: 'resolved', name: 'Renamed' });
    const bad = await patchIssue(id, { status: 'archived' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ type: 'validation_error', attr: 'status' });
    const log = await s.app.inject({ url: `/api/projects/${s.projectId}/activity_log/?scope=ErrorTrackingIssue&item_id=${id}`, headers: s.headers });
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().results[0]).toMatchObject({
      activity: 'updated',
      detail: {
        name: 'Renamed',
        changes: [
          { field: 'name', before: 'Error', after: 'Renamed' },
          { field: 'status', before: 'active', after: 'resolved' },
        ],
      },
    });
  });
});

describe('bad input: stored with an issue, never a 500', () => {
  it('stores frames with missing or wrong fields, a list that is not a list, a list of junk, and no list at all', async () => {
    const origin = app();
    const events = [
      exception('TypeError', 'partial', [
        {},
        { function: 'noFile' },
        { filename: `${origin}/x.js` },
        { filename: 42 as unknown as string, lineno: 'x' as unknown as number },
      ]),
      { event: '$exception', uuid: randomUUID(), distinct_id: 'u', properties: { $exception_list: 'TypeError: nope' } },
      { event: '$exception', uuid: randomUUID(), distinct_id: 'u', properties: { $exception_list: { type: 'Error' } } },
      { event: '$exception', uuid: randomUUID(), distinct_id: 'u', properties: { $exception_list: [null, 3, 'x'] } },
      { event: '$exception', uuid: randomUUID(), distinct_id: 'u', properties: { $exception_type: 'LegacyError', $exception_message: 'old sdk' } },
      { event: '$exception', uuid: randomUUID(), distinct_id: 'u' },
      exception('', '', [{ filename: `${origin}/y.js`, function: 'f' }], {
        $exception_list: [{ type: 7, value: { nested: true }, stacktrace: { frames: 'no' } }],
      }),
    ];
    await capture(events);
    for (const e of events) expect(await issueOf(e.uuid), e.uuid).toBeDefined();
    const notAList = await getIssue((await issueOf(events[1]!.uuid))!);
    expect(notAList.latest_event.properties).toMatchObject({ $exception_list: [{ type: 'Error', value: '' }], $exception_list_invalid: true });
    const legacy = await getIssue((await issueOf(events[4]!.uuid))!);
    expect(legacy).toMatchObject({ name: 'LegacyError', description: 'old sdk' });
    const partial = (await getIssue((await issueOf(events[0]!.uuid))!)).latest_event.properties.$exception_list[0].stacktrace.frames;
    expect(partial).toHaveLength(4);
    expect(partial[0]).toMatchObject({ function: '?', in_app: true });
    expect(partial[3]).not.toHaveProperty('lineno');
  });

  it('keeps the first and last 50 frames of a 10,000-frame stack, and cuts a message of 1 MB', async () => {
    const origin = app();
    // Some 1.4 MB as sent, over the 1 MB event limit: the event is measured as the 100 frames it keeps.
    const frames = Array.from({ length: 10_000 }, (_, i) => ({ filename: `${origin}/assets/deep-3f9a1c.js`, function: `f${i}`, lineno: 1, colno: i }));
    const deep = exception('RangeError', 'Maximum call stack size exceeded', frames);
    const huge = exception('Error', 'm'.repeat(1_000_000), [{ filename: `${origin}/x.js`, function: 'big' }]);
    // One event each on /e/, the single-event route (2 MB bodies).
    for (const e of [deep, huge]) {
      const res = await s.app.inject({ method: 'POST', url: '/e/', payload: { ...e, api_key: s.token } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const deepIssue = await getIssue((await issueOf(deep.uuid))!);
    const stack = deepIssue.latest_event.properties.$exception_list[0].stacktrace;
    expect(stack.frames).toHaveLength(100);
    expect(stack.frames_omitted).toBe(9_900);
    expect(stack.frames[0].function).toBe('f0');
    expect(stack.frames[49].function).toBe('f49');
    expect(stack.frames[50].function).toBe('f9950');
    expect(stack.frames[99].function).toBe('f9999');
    const hugeIssue = await getIssue((await issueOf(huge.uuid))!);
    const value = hugeIssue.latest_event.properties.$exception_list[0].value as string;
    expect(value.length).toBe(8 * 1024 + 1);
    expect(value.endsWith('…')).toBe(true);
    expect(hugeIssue.description).toHaveLength(255);
  });

  it('refuses alone, with 413, an exception over the event size limit once sanitized; the rest of the batch is stored', async () => {
    const ok = exception('Error', 'fine', [{ filename: `${app()}/x.js`, function: 'f' }]);
    const tooLarge = exception('Error', 'big', [], { $exception_steps: [{ $message: 'm'.repeat(1_100_000) }] });
    const res = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: s.token, batch: [tooLarge, ok] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refused).toEqual([expect.objectContaining({ code: 'event_too_large', attr: 'batch__0' })]);
    expect(await issueOf(ok.uuid)).toBeDefined();
    expect(await issueOf(tooLarge.uuid)).toBeUndefined();
  });

  it('records a retried exception (same uuid) once', async () => {
    const e = exception('Error', 'retried', [{ filename: `${app()}/x.js`, function: 'f' }]);
    await capture([e]);
    await capture([e]);
    const issue = await getIssue((await issueOf(e.uuid))!);
    expect(issue, JSON.stringify(issue)).toMatchObject({ occurrences: 1 });
  });
});

describe('exception stacks stored once', () => {
  const eventsOf = async (distinctId: string) => {
    const res = await s.app.inject({ url: `/api/projects/${s.projectId}/events/?distinct_id=${distinctId}`, headers: s.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results as { id: string; properties: Record<string, unknown> }[];
  };
  const rowsOf = (uuids: string[]) =>
    s.services.db.kysely.selectFrom('events').select(['uuid', 'properties', 'exception_stacks']).where('uuid', 'in', uuids).orderBy('id').execute();
  const stacksRows = (hashes: string[]) =>
    s.services.db.kysely.selectFrom('exception_stacks').select(['project_id', 'hash']).where('hash', 'in', hashes).execute();

  it('keeps each distinct set of stacks once per project, whatever the messages; every event reads back whole, as sent', async () => {
    const origin = app();
    const who = `stacks-${randomUUID().slice(0, 8)}`;
    const stack = [{ filename: `${origin}/x.js`, function: 'save', lineno: 3, colno: 7 }];
    const at = (i: number) => new Date(Date.now() - (10 - i) * 1000).toISOString();
    const events = [
      exception('TypeError', 'same', stack, { $exception_steps: [{ $message: 'one' }] }, who),
      exception('TypeError', 'same', stack, { $exception_steps: [{ $message: 'two' }] }, who),
      exception('TypeError', 'order 4821 failed', stack, {}, who),
      exception('TypeError', 'other', [{ ...stack[0]!, function: 'load' }], {}, who),
    ].map((e, i) => ({ ...e, timestamp: at(i) }));
    await capture(events.slice(0, 2));
    await capture(events.slice(1));
    const rows = await rowsOf(events.map((e) => e.uuid));
    expect(rows).toHaveLength(4);
    // Each row keeps its exceptions without their stacks, and names the stacks: the first three the same ones.
    for (const [i, row] of rows.entries()) {
      expect(JSON.parse(row.properties).$exception_list).toEqual([
        { type: 'TypeError', value: events[i]!.properties.$exception_list[0]!.value, mechanism: expect.any(Object) },
      ]);
    }
    expect(rows[0]!.exception_stacks).toEqual(expect.any(String));
    expect(rows[1]!.exception_stacks).toBe(rows[0]!.exception_stacks);
    expect(rows[2]!.exception_stacks).toBe(rows[0]!.exception_stacks);
    expect(rows[3]!.exception_stacks).not.toBe(rows[0]!.exception_stacks);
    expect(await stacksRows(rows.map((r) => r.exception_stacks!))).toHaveLength(2);

    const read = new Map((await eventsOf(who)).map((e) => [e.id, e.properties]));
    for (const e of events) {
      const properties = read.get(e.uuid)!;
      const list = properties.$exception_list as Record<string, unknown>[];
      expect(list).toEqual(e.properties.$exception_list);
      // In the order ingestion gave them: the list first, the stack last in its exception.
      expect(Object.keys(properties)[0]).toBe('$exception_list');
      expect(Object.keys(list[0]!)).toEqual(['type', 'value', 'mechanism', 'stacktrace']);
      expect(properties).toMatchObject({ $current_url: 'https://shop.example.com/checkout', $exception_types: ['TypeError'] });
    }
    expect(read.get(events[1]!.uuid)!.$exception_steps).toEqual([{ $message: 'two' }]);
    // An issue's latest event and its events carry the stacks too.
    const issue = await getIssue((await issueOf(events[2]!.uuid))!);
    expect(issue.latest_event.properties).toEqual(read.get(events[2]!.uuid));
    const occurrences = (await s.app.inject({ url: `${base}${issue.id}/events/`, headers: s.headers })).json();
    expect(occurrences.results.map((o: { properties: unknown }) => o.properties)).toEqual([2, 1, 0].map((i) => read.get(events[i]!.uuid)));
  });

  it('keeps stacks apart per project: another project’s event with the same stacks gets its own row', async () => {
    const other = await s.services.projects.create(`stacks-${randomUUID().slice(0, 6)}`);
    const e = exception('Error', 'shared', [{ filename: `${app()}/x.js`, function: 'f' }]);
    await capture([e]);
    const copy = { ...e, uuid: randomUUID() };
    const res = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: other.api_token, batch: [copy] } });
    expect(res.statusCode, res.body).toBe(200);
    const [mine, theirs] = await rowsOf([e.uuid, copy.uuid]);
    expect(theirs!.exception_stacks).toBe(mine!.exception_stacks);
    const owners = (await stacksRows([mine!.exception_stacks!])).map((row) => row.project_id);
    expect(owners.sort()).toEqual([s.projectId, other.id].sort());
  });

  it('reads events stored with their stacks inside their properties (before stacks were kept apart) as they were', async () => {
    const who = `inline-${randomUUID().slice(0, 8)}`;
    const properties = { $exception_list: [{ type: 'Error', value: 'old', stacktrace: { type: 'raw', frames: [frame({ function: 'f' })] } }], $lib: 'web' };
    const uuid = randomUUID();
    await s.services.db.kysely
      .insertInto('events')
      .values({
        project_id: s.projectId,
        uuid,
        event: '$exception',
        distinct_id: who,
        properties: JSON.stringify(properties),
        timestamp: new Date().toISOString(),
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await eventsOf(who)).map((e) => [e.id, e.properties])).toEqual([[uuid, properties]]);
  });
});

describe('the issues API', () => {
  /** Three issues: A (3 events, 1 person, oldest), B (2 events, 2 people), C (1 event, newest). */
  async function threeIssues() {
    const origin = app();
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const ev = (fn: string, minutes: number, who: string) => ({
      ...exception('Error', fn, [{ filename: `${origin}/x.js`, function: fn }], {}, who),
      timestamp: at(minutes),
    });
    const tag = randomUUID().slice(0, 8);
    const events = [
      ev(`a${tag}`, 30, 'p1'),
      ev(`a${tag}`, 29, 'p1'),
      ev(`a${tag}`, 28, 'p1'),
      ev(`b${tag}`, 20, 'p2'),
      ev(`b${tag}`, 19, 'p3'),
      ev(`c${tag}`, 10, 'p4'),
    ];
    await capture(events);
    return { ids: [(await issueOf(events[0]!.uuid))!, (await issueOf(events[3]!.uuid))!, (await issueOf(events[5]!.uuid))!], events, tag };
  }

  it('lists issues by last seen (default), occurrences or people, filtered by status and search', async () => {
    const { ids, tag } = await threeIssues();
    const [a, b, c] = ids;
    const order = async (query: string) => {
      const res = await s.app.inject({ url: `${base}?search=${tag}&${query}`, headers: s.headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().results.map((i: { id: string }) => i.id);
    };
    expect(await order('')).toEqual([c, b, a]);
    expect(await order('order_by=occurrences')).toEqual([a, b, c]);
    expect((await order('order_by=people'))[0]).toBe(b);
    await patchIssue(b!, { status: 'resolved' });
    expect(await order('status=resolved')).toEqual([b]);
    expect(await order('status=active')).toEqual([c, a]);
    const page = (await s.app.inject({ url: `${base}?search=${tag}&limit=2`, headers: s.headers })).json();
    expect(page).toMatchObject({ count: 3, previous: null });
    expect(page.next).toContain('offset=2');
    expect((await s.app.inject({ url: `${base}?order_by=name`, headers: s.headers })).statusCode).toBe(400);
  });

  it('shows an issue with its latest event, its volume per day, its events and its people', async () => {
    const { ids, events } = await threeIssues();
    const [a, b] = ids;
    const issue = await getIssue(a!);
    expect(issue.latest_event).toMatchObject({ uuid: events[2]!.uuid, distinct_id: 'p1' });
    expect(issue.latest_event.properties).toMatchObject({ $current_url: 'https://shop.example.com/checkout', $lib: 'web' });
    expect(issue.latest_event.properties.$exception_types).toEqual(['Error']);

    const volume = (await s.app.inject({ url: `${base}${b}/volume/?days=3`, headers: s.headers })).json();
    expect(volume.interval).toBe('day');
    expect(volume.points).toHaveLength(3);
    const today = new Date().toISOString().slice(0, 10);
    expect(volume.points[2].date).toBe(today);
    expect(volume.points.reduce((sum: number, p: { occurrences: number }) => sum + p.occurrences, 0)).toBe(2);
    expect(volume.points.every((p: { date: string }) => /^\d{4}-\d{2}-\d{2}$/.test(p.date))).toBe(true);
    expect((await s.app.inject({ url: `${base}${b}/volume/?days=91`, headers: s.headers })).statusCode).toBe(400);
    expect((await s.app.inject({ url: `${base}${b}/volume/`, headers: s.headers })).json().points).toHaveLength(14);

    const list = (await s.app.inject({ url: `${base}${a}/events/?limit=2`, headers: s.headers })).json();
    expect(list.count).toBe(3);
    expect(list.results.map((e: { uuid: string }) => e.uuid)).toEqual([events[2]!.uuid, events[1]!.uuid]);
    expect(list.next).toContain('offset=2');

    await capture([{ event: '$identify', distinct_id: 'p3', properties: { $set: { email: 'p3@example.com' } } }]);
    const people = (await s.app.inject({ url: `${base}${b}/people/`, headers: s.headers })).json();
    expect(people.count).toBe(2);
    const p3 = people.results.find((p: { distinct_id: string }) => p.distinct_id === 'p3');
    expect(p3).toMatchObject({ occurrences: 1, properties: { email: 'p3@example.com' } });
    expect(p3.person_id).toEqual(expect.any(String));
  });

  it('merges issues: fingerprints, events and people move, counts add up, the others are gone, the log says so', async () => {
    const { ids } = await threeIssues();
    const [a, b, c] = ids;
    const res = await s.app.inject({ method: 'POST', url: `${base}${a}/merge/`, headers: s.headers, payload: { ids: [b, c] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: a, occurrences: 6, people: 4 });
    expect(res.json().fingerprints).toHaveLength(3);
    for (const gone of [b, c]) expect((await s.app.inject({ url: `${base}${gone}/`, headers: s.headers })).statusCode).toBe(404);
    expect((await s.app.inject({ url: `${base}${a}/events/`, headers: s.headers })).json().count).toBe(6);
    expect((await s.app.inject({ url: `${base}${a}/people/`, headers: s.headers })).json().count).toBe(4);
    const log = (await s.app.inject({ url: `/api/projects/${s.projectId}/activity_log/?scope=ErrorTrackingIssue&item_id=${a}`, headers: s.headers })).json();
    expect(log.results[0].detail.changes[0]).toMatchObject({ field: 'merged', after: [{ id: b }, { id: c }] });
    const bad = await s.app.inject({ method: 'POST', url: `${base}${a}/merge/`, headers: s.headers, payload: { ids: [randomUUID()] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ attr: 'ids' });
    expect((await s.app.inject({ method: 'POST', url: `${base}${a}/merge/`, headers: s.headers, payload: { ids: [a] } })).statusCode).toBe(400);
  });

  it('sends the next exception of a merged fingerprint to the issue it was merged into', async () => {
    const origin = app();
    const one = exception('Error', 'one', [{ filename: `${origin}/x.js`, function: 'one' }]);
    const two = exception('Error', 'two', [{ filename: `${origin}/x.js`, function: 'two' }]);
    await capture([one, two]);
    const [a, b] = [(await issueOf(one.uuid))!, (await issueOf(two.uuid))!];
    expect((await s.app.inject({ method: 'POST', url: `${base}${a}/merge/`, headers: s.headers, payload: { ids: [b] } })).statusCode).toBe(200);
    const again = { ...two, uuid: randomUUID() };
    await capture([again]);
    expect(await issueOf(again.uuid)).toBe(a);
    expect(await getIssue(a)).toMatchObject({ occurrences: 3, people: 1 });
  });

  it('needs error_tracking:read to read and :write to change; another project’s issue is 404', async () => {
    const e = exception('Error', 'scoped', [{ filename: `${app()}/x.js`, function: 'f' }]);
    await capture([e]);
    const id = (await issueOf(e.uuid))!;
    const none = s.auth(await s.keyWith(['feature_flag:read']));
    const reader = s.auth(await s.keyWith(['error_tracking:read']));
    for (const url of [base, `${base}${id}/`, `${base}${id}/volume/`, `${base}${id}/events/`, `${base}${id}/people/`]) {
      expect((await s.app.inject({ url, headers: none })).statusCode, url).toBe(403);
      expect((await s.app.inject({ url, headers: reader })).statusCode, url).toBe(200);
    }
    expect((await patchIssue(id, { status: 'resolved' }, reader)).statusCode).toBe(403);
    expect((await s.app.inject({ method: 'POST', url: `${base}${id}/merge/`, headers: reader, payload: { ids: [randomUUID()] } })).statusCode).toBe(403);

    const other = await s.services.projects.create('Other errors');
    const otherBase = `/api/projects/${other.id}/error_tracking/issues/`;
    for (const url of [`${otherBase}${id}/`, `${otherBase}${id}/events/`, `${otherBase}${id}/people/`, `${otherBase}${id}/volume/`]) {
      expect((await s.app.inject({ url, headers: s.headers })).statusCode, url).toBe(404);
    }
    expect((await s.app.inject({ method: 'PATCH', url: `${otherBase}${id}/`, headers: s.headers, payload: { status: 'resolved' } })).statusCode).toBe(404);
    expect((await s.app.inject({ url: otherBase, headers: s.headers })).json().count).toBe(0);
    expect((await s.app.inject({ url: `${base}not-a-uuid/`, headers: s.headers })).statusCode).toBe(404);
  });
});
